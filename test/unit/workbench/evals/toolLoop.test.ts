import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CallOptions, CallToolOutcome } from '../../../../src/protocol/clientOptions';
import type { Tool } from '../../../../src/protocol/types';
import type { ChatMessage } from '../../../../src/workbench/sampling/chatModel';
import { OpenAiCompatibleProvider } from '../../../../src/workbench/sampling/openaiProvider';
import {
  modelToolset,
  runToolLoop,
  type CallDecision,
  type EvalModel,
  type EvalServer,
  type LoopEvent,
  type LoopToolCall,
  WITHHELD,
} from '../../../../src/workbench/evals/toolLoop';
import { startOpenAiServer, type ChatBody, type OpenAiTestServer } from '../../../fixtures/openai/openaiServer';

/** A server whose calls are recorded; `hold` makes a call wait until its signal aborts (a long-running tool). */
function fakeServer(toolNames: string[], hold = false): EvalServer & { called: string[]; aborted: string[] } {
  const called: string[] = [];
  const aborted: string[] = [];
  const tools: Tool[] = toolNames.map((name) => ({ name, inputSchema: { type: 'object', properties: {} } }));
  return {
    serverName: 'weather',
    called,
    aborted,
    listTools: async () => tools,
    callTool: (tool: string, args?: Record<string, unknown>, options?: CallOptions): Promise<CallToolOutcome> => {
      called.push(`${tool} ${JSON.stringify(args ?? {})}`);
      if (!hold) return Promise.resolve({ result: { content: [{ type: 'text', text: `${tool} done` }] } });
      return new Promise((_resolve, reject) => {
        const cancel = () => {
          aborted.push(tool);
          reject(new Error('cancelled'));
        };
        if (options?.signal?.aborted) cancel();
        else options?.signal?.addEventListener('abort', cancel);
      });
    },
  };
}

/** The fake model: a tool call until a tool result came back, then a final answer quoting it. */
function callThenAnswer(body: ChatBody) {
  const result = body.messages.find((message) => message.role === 'tool');
  return result
    ? { kind: 'text' as const, text: `The tool said: ${String(result.content)}` }
    : { kind: 'tool-call' as const, name: 'get_weather', arguments: { city: 'Paris' }, id: 'c1' };
}

let model: OpenAiTestServer;
let evalModel: EvalModel;

before(async () => {
  model = await startOpenAiServer();
  // Streaming, as the playground's endpoints are by default.
  const provider = new OpenAiCompatibleProvider({ baseUrl: model.baseUrl, model: 'fake-1', apiKey: 'sk-test' });
  evalModel = { provider, info: (await provider.listModels())[0] };
});
after(() => model.close());

function request(text: string): ChatMessage[] {
  return [{ role: 'user', parts: [{ kind: 'text', text }] }];
}

describe('runToolLoop with an approval callback', () => {
  test('an approved call runs, its result reaches the model, and the answer streams in', async () => {
    model.requests.length = 0;
    model.respond = callThenAnswer;
    const server = fakeServer(['get_weather']);
    const toolset = await modelToolset([server]);
    const asked: LoopToolCall[] = [];
    const events: LoopEvent['kind'][] = [];
    const streamed: string[] = [];
    const messages = request('Weather in Paris?');
    const outcome = await runToolLoop({
      model: evalModel,
      toolset,
      messages,
      maxTokens: 500,
      maxSteps: 5,
      signal: new AbortController().signal,
      decide: (call) => {
        asked.push(call);
        return { run: true };
      },
      onText: (delta) => streamed.push(delta),
      onEvent: (event) => events.push(event.kind),
    });
    assert.deepEqual(
      asked.map((call) => [call.tool.name, call.arguments]),
      [['get_weather', { city: 'Paris' }]],
    );
    assert.deepEqual(server.called, ['get_weather {"city":"Paris"}']);
    assert.equal(outcome.answer, 'The tool said: get_weather done');
    assert.ok(streamed.length > 1, 'the answer arrived in several deltas');
    assert.equal(streamed.join(''), outcome.answer);
    assert.deepEqual(events, ['model-step', 'call-decided', 'call-started', 'call-ended', 'model-step']);
    assert.equal(model.requests[1].messages.at(-1)?.content, 'get_weather done');
    // The conversation keeps the whole exchange for the next request of the chat.
    assert.deepEqual(
      messages.map((message) => message.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
  });

  test('a declined call is not run and the model is told the person declined it', async () => {
    model.requests.length = 0;
    model.respond = callThenAnswer;
    const server = fakeServer(['get_weather']);
    const outcome = await runToolLoop({
      model: evalModel,
      toolset: await modelToolset([server]),
      messages: request('Weather in Paris?'),
      maxTokens: 500,
      maxSteps: 5,
      signal: new AbortController().signal,
      decide: (): CallDecision => ({ run: false, reason: 'The person declined this tool call.' }),
    });
    assert.deepEqual(server.called, []);
    const toolMessage = model.requests[1].messages.find((message) => message.role === 'tool');
    assert.match(String(toolMessage?.content), /The person declined this tool call\./);
    assert.match(outcome.answer ?? '', /The person declined this tool call\./);
  });

  test('a result the person withholds never reaches the model: it reads a fixed refusal instead', async () => {
    model.requests.length = 0;
    model.respond = callThenAnswer;
    const server = fakeServer(['get_weather']);
    const reviewed: string[] = [];
    const outcome = await runToolLoop({
      model: evalModel,
      toolset: await modelToolset([server]),
      messages: request('Weather in Paris?'),
      maxTokens: 500,
      maxSteps: 5,
      signal: new AbortController().signal,
      review: async (call, result) => {
        reviewed.push(`${call.tool.name}: ${result.text}`);
        return false;
      },
    });
    assert.deepEqual(server.called, ['get_weather {"city":"Paris"}']);
    assert.deepEqual(reviewed, ['get_weather: get_weather done']);
    const toolMessage = model.requests[1].messages.find((message) => message.role === 'tool');
    assert.equal(String(toolMessage?.content).includes('get_weather done'), false);
    assert.match(String(toolMessage?.content), new RegExp(WITHHELD.replace(/\./g, '\\.')));
    assert.match(outcome.answer ?? '', /withheld/);
  });

  test('Stop while the approval is pending ends the run at once and leaves the conversation without a dangling call', async () => {
    model.requests.length = 0;
    model.respond = callThenAnswer;
    const server = fakeServer(['get_weather']);
    const stop = new AbortController();
    const messages = request('Weather in Paris?');
    let pendingSignal: AbortSignal | undefined;
    const outcome = await runToolLoop({
      model: evalModel,
      toolset: await modelToolset([server]),
      messages,
      maxTokens: 500,
      maxSteps: 5,
      signal: stop.signal,
      // The person never answers: Stop is pressed while the call waits.
      decide: (_call, signal) => {
        pendingSignal = signal;
        stop.abort();
        return new Promise<CallDecision>(() => undefined);
      },
    });
    assert.equal(outcome.interrupted, true);
    assert.equal(pendingSignal?.aborted, true, 'the pending approval was told the run stopped');
    assert.deepEqual(server.called, []);
    assert.equal(model.requests.length, 1, 'no further model call');
    assert.deepEqual(
      messages.map((message) => message.role),
      ['user'],
      'the interrupted step is not kept: no tool call without its result',
    );
  });

  test('Stop during a running tool call aborts the call and ends the run', async () => {
    model.requests.length = 0;
    model.respond = callThenAnswer;
    const server = fakeServer(['get_weather'], true);
    const stop = new AbortController();
    const outcome = await runToolLoop({
      model: evalModel,
      toolset: await modelToolset([server]),
      messages: request('Weather in Paris?'),
      maxTokens: 500,
      maxSteps: 5,
      signal: stop.signal,
      onEvent: (event) => {
        if (event.kind === 'call-started') stop.abort();
      },
    });
    assert.equal(outcome.interrupted, true);
    assert.deepEqual(server.aborted, ['get_weather'], 'the running call was cancelled');
    assert.equal(model.requests.length, 1);
  });

  test('each model step reports its tokens and time', async () => {
    model.respond = () => ({ kind: 'text', text: 'Hi there' });
    let clock = 1000;
    const steps: LoopEvent[] = [];
    await runToolLoop({
      model: evalModel,
      toolset: await modelToolset([fakeServer([])]),
      messages: request('Hi'),
      maxTokens: 500,
      maxSteps: 5,
      signal: new AbortController().signal,
      now: () => (clock += 250),
      onEvent: (event) => steps.push(event),
    });
    assert.deepEqual(steps, [
      {
        kind: 'model-step',
        step: 1,
        text: 'Hi there',
        toolCalls: 0,
        inputTokens: 11,
        outputTokens: 7,
        durationMs: 250,
      },
    ]);
  });

  test('a tool the offer leaves out is not given to the model', async () => {
    const toolset = await modelToolset(
      [fakeServer(['get_weather', 'delete_city'])],
      undefined,
      (_server, tool) => tool.name !== 'delete_city',
    );
    assert.deepEqual(
      toolset.tools.map((tool) => tool.name),
      ['get_weather'],
    );
  });
});
