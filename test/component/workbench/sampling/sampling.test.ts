/** Sampling routed to a real OpenAI-compatible HTTP model server, with the person's decisions scripted. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../../../src/protocol/client';
import { ErrorCodes, McpError } from '../../../../src/protocol/errors';
import type { CreateMessageRequest } from '../../../../src/protocol/types';
import type { ChatResponse } from '../../../../src/workbench/sampling/chatModel';
import {
  SamplingCoordinator,
  type RequestDecision,
  type ResponseDecision,
  type SamplingRecord,
  type SamplingReview,
  type SamplingReviewer,
} from '../../../../src/workbench/sampling/coordinator';
import { toChatRequest } from '../../../../src/workbench/sampling/mapping';
import { chooseModel } from '../../../../src/workbench/sampling/modelSelection';
import { ModelEndpointError, OpenAiCompatibleProvider } from '../../../../src/workbench/sampling/openaiProvider';
import { MemoryPolicyStorage, SamplingPolicies } from '../../../../src/workbench/sampling/policy';
import { ReviewQueue } from '../../../../src/workbench/sampling/reviewQueue';
import { StdioTransport } from '../../../../src/protocol/node/stdio';
import { startOpenAiServer, type OpenAiTestServer } from '../../../fixtures/openai/openaiServer';
import { EVERYTHING_SERVER, textOf } from '../../../support/testSupport';

const request = (text: string, extra: Partial<CreateMessageRequest> = {}): CreateMessageRequest => ({
  messages: [{ role: 'user', content: { type: 'text', text } }],
  maxTokens: 64,
  ...extra,
});

const context = (serverName = 'srv') => ({ serverName, signal: new AbortController().signal });

/** A reviewer whose answers the test scripts; it records what it was shown. */
class ScriptedReviewer implements SamplingReviewer {
  shown: SamplingReview[] = [];
  responses: ChatResponse[] = [];
  streamed = '';
  constructor(
    private readonly onRequest: (review: SamplingReview) => RequestDecision | Promise<RequestDecision>,
    private readonly onResponse: (response: ChatResponse) => ResponseDecision = (response) => ({
      kind: 'approve',
      text: response.text,
    }),
  ) {}
  async reviewRequest(review: SamplingReview): Promise<RequestDecision> {
    this.shown.push(review);
    return this.onRequest(review);
  }
  async reviewResponse(_review: SamplingReview, response: ChatResponse): Promise<ResponseDecision> {
    this.responses.push(response);
    return this.onResponse(response);
  }
  modelText(_review: SamplingReview, delta: string): void {
    this.streamed += delta;
  }
}

function coordinator(
  model: OpenAiTestServer,
  reviewer: SamplingReviewer,
  records: SamplingRecord[] = [],
  stream = true,
) {
  const provider = new OpenAiCompatibleProvider({
    baseUrl: model.baseUrl,
    model: 'test-model',
    apiKey: 'sk-test-secret',
    stream,
  });
  const policies = new SamplingPolicies(new MemoryPolicyStorage());
  return {
    policies,
    coordinator: new SamplingCoordinator({
      providers: () => [provider],
      policies,
      reviewer,
      record: (r) => records.push(r),
    }),
  };
}

describe('sampling coordinator with a real OpenAI-compatible endpoint', () => {
  let model: OpenAiTestServer;
  before(async () => {
    model = await startOpenAiServer();
  });
  after(() => model.close());

  test(
    'approve after editing: the model receives the edited text, the server the approved answer',
    { timeout: 10_000 },
    async () => {
      model.script = [{ kind: 'text', text: 'Paris is the capital.' }];
      model.requests.length = 0;
      const reviewer = new ScriptedReviewer((review) => ({
        kind: 'approve',
        modelId: review.model.id,
        request: {
          ...review.request,
          messages: [{ role: 'user', parts: [{ kind: 'text', text: 'edited by the person' }] }],
        },
      }));
      const records: SamplingRecord[] = [];
      const { coordinator: c } = coordinator(model, reviewer, records);
      const result = await c.createMessage(
        request('original', { systemPrompt: 'Be brief', temperature: 0.2, stopSequences: ['END'] }),
        context(),
      );
      assert.equal(model.requests.length, 1);
      const sent = model.requests[0];
      assert.deepEqual(sent.messages, [
        { role: 'system', content: 'Be brief' },
        { role: 'user', content: 'edited by the person' },
      ]);
      assert.equal(sent.max_tokens, 64);
      assert.equal(sent.temperature, 0.2);
      assert.deepEqual(sent.stop, ['END']);
      assert.equal(sent.stream, true);
      assert.equal(model.authorizations[0], 'Bearer sk-test-secret');
      assert.equal(reviewer.streamed, 'Paris is the capital.');
      assert.deepEqual(result, {
        role: 'assistant',
        content: { type: 'text', text: 'Paris is the capital.' },
        model: 'test-model',
        stopReason: 'endTurn',
      });
      assert.equal(records.at(-1)?.outcome, 'approved');
      assert.equal(records.at(-1)?.outputTokens, 7);
      // The history flags the edit and keeps the server's request beside what the model got.
      assert.match(records.at(-1)?.originalRequestText ?? '', /original/);
      assert.match(records.at(-1)?.requestText ?? '', /edited by the person/);
      assert.equal(records.at(-1)?.modelResponseText, undefined, 'the answer was not edited');
    },
  );

  test(
    'the person edits the answer before the server sees it (non-streaming endpoint)',
    { timeout: 10_000 },
    async () => {
      model.script = [{ kind: 'text', text: 'raw answer' }];
      const reviewer = new ScriptedReviewer(
        (review) => ({ kind: 'approve', modelId: review.model.id, request: review.request }),
        () => ({ kind: 'approve', text: 'answer edited by the person' }),
      );
      const records: SamplingRecord[] = [];
      const { coordinator: c } = coordinator(model, reviewer, records, false);
      const result = await c.createMessage(request('q'), context());
      assert.equal(model.requests.at(-1)?.stream, false);
      assert.deepEqual(result.content, { type: 'text', text: 'answer edited by the person' });
      // The history keeps the model's own answer beside the edited one, and the request was not edited.
      assert.equal(records.at(-1)?.responseText, 'answer edited by the person');
      assert.equal(records.at(-1)?.modelResponseText, 'raw answer');
      assert.equal(records.at(-1)?.originalRequestText, undefined);
    },
  );

  test(
    'rejecting the request returns the spec error -1 and nothing reaches the model',
    { timeout: 10_000 },
    async () => {
      const before = model.requests.length;
      const reviewer = new ScriptedReviewer(() => ({ kind: 'reject' }));
      const { coordinator: c } = coordinator(model, reviewer);
      await assert.rejects(
        c.createMessage(request('q'), context()),
        (error: unknown) => error instanceof McpError && error.code === ErrorCodes.UserRejected,
      );
      assert.equal(model.requests.length, before);
    },
  );

  test('rejecting the response returns -1', { timeout: 10_000 }, async () => {
    const reviewer = new ScriptedReviewer(
      (review) => ({ kind: 'approve', modelId: review.model.id, request: review.request }),
      () => ({ kind: 'reject' }),
    );
    const { coordinator: c } = coordinator(model, reviewer);
    await assert.rejects(
      c.createMessage(request('q'), context()),
      (error: unknown) => error instanceof McpError && error.code === -1,
    );
  });

  test(
    'policy "always" skips the review but still records the exchange; "never" blocks',
    { timeout: 10_000 },
    async () => {
      model.script = [{ kind: 'text', text: 'auto' }];
      const reviewer = new ScriptedReviewer(() => {
        throw new Error('the person must not be asked');
      });
      const records: SamplingRecord[] = [];
      const { coordinator: c, policies } = coordinator(model, reviewer, records);
      await policies.set('srv', 'always');
      const result = await c.createMessage(request('q'), context());
      assert.deepEqual(result.content, { type: 'text', text: 'auto' });
      assert.equal(records.at(-1)?.outcome, 'auto-approved');
      assert.match(records.at(-1)?.requestText ?? '', /user: q/);
      await policies.set('srv', 'never');
      const count = model.requests.length;
      await assert.rejects(
        c.createMessage(request('q'), context()),
        (error: unknown) => error instanceof McpError && error.code === -1,
      );
      assert.equal(model.requests.length, count);
      assert.equal(records.at(-1)?.outcome, 'blocked');
    },
  );

  test('a decision can set the policy for the rest of the session', { timeout: 10_000 }, async () => {
    model.script = [{ kind: 'text', text: 'ok' }];
    let asked = 0;
    const reviewer = new ScriptedReviewer((review) => {
      asked++;
      return { kind: 'approve', modelId: review.model.id, request: review.request, policy: 'session' };
    });
    const { coordinator: c, policies } = coordinator(model, reviewer);
    await c.createMessage(request('1'), context());
    await c.createMessage(request('2'), context());
    assert.equal(asked, 1);
    assert.equal(policies.get('srv'), 'session');
  });

  test('endpoint errors surface as they are, naming the status and body', { timeout: 10_000 }, async () => {
    model.script = [{ kind: 'http-error', status: 429, body: '{"error":{"message":"rate limited"}}' }];
    const reviewer = new ScriptedReviewer((review) => ({
      kind: 'approve',
      modelId: review.model.id,
      request: review.request,
    }));
    const records: SamplingRecord[] = [];
    const { coordinator: c } = coordinator(model, reviewer, records);
    await assert.rejects(
      c.createMessage(request('q'), context()),
      (error: unknown) => error instanceof McpError && /HTTP 429.*rate limited/.test(error.message),
    );
    assert.equal(records.at(-1)?.outcome, 'failed');
  });

  test(
    'tools: a model tool call becomes tool_use with stopReason toolUse (streamed arguments joined)',
    { timeout: 10_000 },
    async () => {
      model.script = [{ kind: 'tool-call', name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } }];
      const reviewer = new ScriptedReviewer((review) => ({
        kind: 'approve',
        modelId: review.model.id,
        request: review.request,
      }));
      const { coordinator: c } = coordinator(model, reviewer);
      const result = await c.createMessage(
        request('weather?', {
          tools: [
            {
              name: 'get_weather',
              description: 'Weather',
              inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
            },
          ],
          toolChoice: { mode: 'required' },
        }),
        context(),
      );
      const sent = model.requests.at(-1);
      assert.equal(sent?.tool_choice, 'required');
      assert.equal((sent?.tools as { function: { name: string } }[])[0].function.name, 'get_weather');
      assert.equal(result.stopReason, 'toolUse');
      assert.deepEqual(result.content, [
        { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris', unit: 'celsius' } },
      ]);
    },
  );

  test(
    'tool loop: tool_use and tool_result are mapped to assistant tool_calls and tool messages',
    { timeout: 10_000 },
    async () => {
      model.script = [{ kind: 'text', text: 'It is sunny.' }];
      const reviewer = new ScriptedReviewer((review) => ({
        kind: 'approve',
        modelId: review.model.id,
        request: review.request,
      }));
      const { coordinator: c } = coordinator(model, reviewer);
      await c.createMessage(
        {
          messages: [
            { role: 'user', content: { type: 'text', text: 'weather?' } },
            {
              role: 'assistant',
              content: [{ type: 'tool_use', id: 't1', name: 'get_weather', input: { city: 'Paris' } }],
            },
            {
              role: 'user',
              content: [{ type: 'tool_result', toolUseId: 't1', content: [{ type: 'text', text: 'sunny' }] }],
            },
          ],
          maxTokens: 50,
          tools: [{ name: 'get_weather', inputSchema: { type: 'object' } }],
        },
        context(),
      );
      const messages = model.requests.at(-1)?.messages ?? [];
      assert.deepEqual(messages[1], {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 't1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      });
      assert.deepEqual(messages[2], { role: 'tool', tool_call_id: 't1', content: 'sunny' });
    },
  );

  test(
    'concurrent requests are reviewed one at a time; a cancelled one leaves the queue',
    { timeout: 10_000 },
    async () => {
      model.script = [{ kind: 'text', text: 'ok' }];
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let concurrentReviews = 0;
      let maxConcurrent = 0;
      const reviewer = new ScriptedReviewer(async (review) => {
        concurrentReviews++;
        maxConcurrent = Math.max(maxConcurrent, concurrentReviews);
        await gate;
        concurrentReviews--;
        return { kind: 'approve', modelId: review.model.id, request: review.request };
      });
      const { coordinator: c } = coordinator(model, reviewer);
      const cancelSecond = new AbortController();
      const first = c.createMessage(request('first'), context('a'));
      const second = c.createMessage(request('second'), { serverName: 'b', signal: cancelSecond.signal });
      const third = c.createMessage(request('third'), context('c'));
      await waitUntil(() => c.queue.size === 3);
      assert.deepEqual(
        c.queue.list().map((entry) => [entry.serverName, entry.state]),
        [
          ['a', 'in-review'],
          ['b', 'waiting'],
          ['c', 'waiting'],
        ],
      );
      cancelSecond.abort();
      await assert.rejects(second, /cancelled/);
      assert.deepEqual(
        c.queue.list().map((entry) => entry.serverName),
        ['a', 'c'],
      );
      release();
      await Promise.all([first, third]);
      assert.equal(maxConcurrent, 1);
      assert.equal(c.queue.size, 0);
    },
  );
});

describe('sampling mapping and model choice', () => {
  test('parts a model cannot take are named, not dropped', () => {
    const mapped = toChatRequest(
      {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'look' },
              { type: 'image', data: 'AAAA', mimeType: 'image/png' },
              { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
            ],
          },
        ],
        maxTokens: 10,
        includeContext: 'allServers',
      },
      { images: false, audio: false, tools: false },
    );
    assert.equal(mapped.request.messages[0].parts.length, 3);
    assert.equal(mapped.unsupported.length, 3);
    assert.match(mapped.unsupported.join('\n'), /image \(image\/png\)/);
    assert.match(mapped.unsupported.join('\n'), /audio/);
    assert.match(mapped.unsupported.join('\n'), /includeContext/);
  });

  test('hints are evaluated in order, then priorities decide', () => {
    const models = [
      {
        id: 'a',
        name: 'small-fast',
        providerLabel: 'x',
        abilities: { images: false, audio: false, tools: true },
        speed: 0.9,
        intelligence: 0.2,
        cost: 0.1,
      },
      {
        id: 'b',
        name: 'claude-sonnet',
        providerLabel: 'x',
        abilities: { images: true, audio: false, tools: true },
        speed: 0.5,
        intelligence: 0.9,
        cost: 0.8,
      },
    ];
    assert.equal(chooseModel(models, { hints: [{ name: 'gpt' }, { name: 'sonnet' }] })?.id, 'b');
    assert.equal(chooseModel(models, { intelligencePriority: 1 })?.id, 'b');
    assert.equal(chooseModel(models, { speedPriority: 1, costPriority: 1 })?.id, 'a');
    assert.equal(chooseModel(models, undefined)?.id, 'a');
    assert.equal(chooseModel([], undefined), undefined);
  });

  test('an unreachable endpoint gives a clear error', { timeout: 10_000 }, async () => {
    const provider = new OpenAiCompatibleProvider({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm' });
    const [info] = await provider.listModels();
    await assert.rejects(
      provider.complete(info, { messages: [], maxTokens: 1 }, new AbortController().signal),
      (error: unknown) => error instanceof ModelEndpointError && /cannot reach/.test(error.message),
    );
  });

  test('the review queue rejects at once when already cancelled', async () => {
    const queue = new ReviewQueue<string>();
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(
      queue.run('s', 'x', controller.signal, async () => 1),
      /cancelled/,
    );
    assert.equal(queue.size, 0);
  });
});

describe('sampling end to end: server-everything → client → review → model → server', () => {
  let model: OpenAiTestServer;
  let client: McpClient;
  let reviewer: ScriptedReviewer;
  before(async () => {
    model = await startOpenAiServer([{ kind: 'text', text: 'A haiku from the test model' }]);
    reviewer = new ScriptedReviewer((review) => ({
      kind: 'approve',
      modelId: review.model.id,
      request: {
        ...review.request,
        messages: review.request.messages.map((m) => ({ ...m, parts: [{ kind: 'text', text: 'EDITED PROMPT' }] })),
      },
    }));
    const { coordinator: c } = coordinator(model, reviewer);
    client = new McpClient({
      serverName: 'everything',
      transport: new StdioTransport({
        command: process.execPath,
        args: [EVERYTHING_SERVER, 'stdio'],
        shutdownGraceMs: 500,
      }),
      host: { sampling: c },
    });
    await client.connect();
  });
  after(async () => {
    await client.close();
    await model.close();
  });

  test(
    'trigger-sampling-request: the model gets the edited prompt; the server gets the model answer',
    { timeout: 15_000 },
    async () => {
      const { result } = await client.callTool('trigger-sampling-request', { prompt: 'write a haiku', maxTokens: 40 });
      assert.match(
        reviewer.shown[0].request.messages[0].parts.map((p) => (p.kind === 'text' ? p.text : '')).join(''),
        /write a haiku/,
      );
      assert.equal(reviewer.shown[0].serverName, 'everything');
      assert.deepEqual(model.requests.at(-1)?.messages.at(-1), { role: 'user', content: 'EDITED PROMPT' });
      assert.equal(model.requests.at(-1)?.max_tokens, 40);
      assert.match(textOf(result.content), /A haiku from the test model/);
    },
  );
});

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(condition(), 'condition not reached');
}
