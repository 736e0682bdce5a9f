/**
 * The client against the real @modelcontextprotocol/server-everything over stdio. One server process is shared
 * by the tests of the main suite (they do not interfere); version negotiation uses short-lived extra ones.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../../src/protocol/client';
import { LocalError } from '../../../src/protocol/errors';
import type { ClientHost } from '../../../src/protocol/host';
import type { ProgressUpdate } from '../../../src/protocol/jsonrpc/rpcConnection';
import type { CreateMessageRequest, ElicitRequest, LogMessage } from '../../../src/protocol/types';
import {
  EVERYTHING_SERVER,
  assertProcessGone,
  collectingLogger,
  textOf,
  trackedStdio,
  waitFor,
  type CollectingLogger,
} from '../../support/testSupport';

const SERVER_NAME = 'everything';
const INHERITED_VAR = 'MCP_WORKBENCH_TEST_INHERITED';
const ROOT = { uri: 'file:///tmp/mcp-workbench-everything-root', name: 'everything-root' };

interface Wire {
  direction: 'send' | 'receive';
  message: Record<string, unknown>;
}

let client: McpClient;
let logger: CollectingLogger;
let pid: () => number | undefined;
const wire: Wire[] = [];
const samplingRequests: CreateMessageRequest[] = [];
const elicitationRequests: ElicitRequest[] = [];

const host: ClientHost = {
  roots: { listRoots: () => [ROOT] },
  sampling: {
    createMessage: async (request) => {
      samplingRequests.push(request);
      return {
        role: 'assistant',
        content: { type: 'text', text: 'sampled answer from the host' },
        model: 'test-model',
        stopReason: 'endTurn',
      };
    },
  },
  elicitation: {
    modes: ['form'],
    elicit: async (request) => {
      elicitationRequests.push(request);
      return { action: 'accept', content: { name: 'Ada Lovelace', check: true, email: 'ada@example.com', integer: 7 } };
    },
  },
};

function sentMethods(method: string): Record<string, unknown>[] {
  return wire.filter((w) => w.direction === 'send' && w.message.method === method).map((w) => w.message);
}

before(async () => {
  process.env[INHERITED_VAR] = 'inherited-value';
  logger = collectingLogger();
  const tracked = trackedStdio({
    command: process.execPath,
    args: [EVERYTHING_SERVER, 'stdio'],
    env: { MCP_WORKBENCH_TEST_ENV: 'from-the-env-option', [INHERITED_VAR]: null },
    shutdownGraceMs: 1000,
  });
  pid = tracked.pid;
  client = new McpClient({
    serverName: SERVER_NAME,
    transport: tracked.transport,
    host,
    logger,
    requestTimeoutMs: 20_000,
    trace: (direction, message) => wire.push({ direction, message: message as Record<string, unknown> }),
  });
  await client.connect();
});

after(async () => {
  delete process.env[INHERITED_VAR];
  await client?.close();
  const id = pid?.();
  if (id !== undefined) await assertProcessGone(id, 'server-everything');
});

async function toolNames(): Promise<string[]> {
  return (await client.listTools()).map((tool) => tool.name);
}

describe('server-everything over stdio', { timeout: 90_000 }, () => {
  test('initialize: server info, instructions, negotiated version, initialized sent', { timeout: 10_000 }, async () => {
    const session = client.session;
    assert.equal(session.protocolVersion, '2025-11-25');
    assert.equal(session.serverInfo.name, 'mcp-servers/everything');
    assert.equal(typeof session.serverInfo.version, 'string');
    assert.match(session.instructions ?? '', /Everything Server/);
    assert.ok(
      session.capabilities.tools &&
        session.capabilities.resources?.subscribe &&
        session.capabilities.prompts &&
        session.capabilities.logging,
    );
    const init = sentMethods('initialize')[0] as {
      params: { protocolVersion: string; capabilities: Record<string, unknown> };
    };
    assert.equal(init.params.protocolVersion, '2025-11-25');
    assert.deepEqual(Object.keys(init.params.capabilities).sort(), ['elicitation', 'roots', 'sampling']);
    assert.equal(sentMethods('notifications/initialized').length, 1);
  });

  test(
    'every tool is listed, including the ones that need sampling, elicitation and roots',
    { timeout: 10_000 },
    async () => {
      let names = await toolNames();
      // Conditional tools are registered when the server sees notifications/initialized.
      if (!names.includes('get-roots-list')) {
        await new Promise<void>((resolve) => client.onToolsChanged(() => resolve()));
        names = await toolNames();
      }
      for (const name of [
        'echo',
        'get-sum',
        'get-env',
        'get-tiny-image',
        'get-annotated-message',
        'get-resource-links',
        'get-resource-reference',
        'get-structured-content',
        'trigger-long-running-operation',
        'toggle-simulated-logging',
        'toggle-subscriber-updates',
        'get-roots-list',
        'trigger-sampling-request',
        'trigger-elicitation-request',
      ]) {
        assert.ok(names.includes(name), `tool ${name} is offered (got ${names.join(', ')})`);
      }
    },
  );

  test('echo and get-sum', { timeout: 10_000 }, async () => {
    assert.equal(
      textOf((await client.callTool('echo', { message: 'hello, world' })).result.content),
      'Echo: hello, world',
    );
    assert.equal(
      textOf((await client.callTool('get-sum', { a: 2, b: 3.5 })).result.content),
      'The sum of 2 and 3.5 is 5.5.',
    );
  });

  test('get-tiny-image returns image content', { timeout: 10_000 }, async () => {
    const { result } = await client.callTool('get-tiny-image');
    const image = result.content.find((block) => block.type === 'image') as
      { data: string; mimeType: string } | undefined;
    assert.ok(image, 'an image block');
    assert.equal(image.mimeType, 'image/png');
    const bytes = Buffer.from(image.data, 'base64');
    assert.deepEqual([...bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'PNG magic bytes');
  });

  test('get-annotated-message carries annotations', { timeout: 10_000 }, async () => {
    const { result } = await client.callTool('get-annotated-message', { messageType: 'error', includeImage: true });
    const [text, image] = result.content as {
      type: string;
      annotations?: { priority?: number; audience?: string[] };
    }[];
    assert.equal(text.type, 'text');
    assert.equal(text.annotations?.priority, 1);
    assert.deepEqual(text.annotations?.audience, ['user', 'assistant']);
    assert.equal(image.type, 'image');
    assert.deepEqual(image.annotations?.audience, ['user']);
  });

  test('get-resource-links returns resource_link blocks', { timeout: 10_000 }, async () => {
    const { result } = await client.callTool('get-resource-links', { count: 3 });
    const links = result.content.filter((block) => block.type === 'resource_link') as { uri: string; name: string }[];
    assert.equal(links.length, 3);
    assert.deepEqual(
      links.map((l) => l.uri),
      ['demo://resource/dynamic/blob/1', 'demo://resource/dynamic/text/2', 'demo://resource/dynamic/blob/3'],
    );
  });

  test('get-resource-reference returns an embedded resource', { timeout: 10_000 }, async () => {
    const { result } = await client.callTool('get-resource-reference', { resourceType: 'Text', resourceId: 4 });
    const embedded = result.content.find((block) => block.type === 'resource') as
      { resource: { uri: string; text?: string } } | undefined;
    assert.ok(embedded);
    assert.equal(embedded.resource.uri, 'demo://resource/dynamic/text/4');
    assert.match(embedded.resource.text ?? '', /^Resource 4: This is a plaintext resource/);
  });

  test('get-structured-content is validated against its outputSchema', { timeout: 10_000 }, async () => {
    await client.listTools();
    const outcome = await client.callTool('get-structured-content', { location: 'Chicago' });
    assert.deepEqual(outcome.result.structuredContent, {
      temperature: 36,
      conditions: 'Light rain / drizzle',
      humidity: 82,
    });
    assert.equal(outcome.outputValidation?.kind, 'valid');
  });

  test('a long-running operation reports progress in order', { timeout: 15_000 }, async () => {
    const updates: ProgressUpdate[] = [];
    const outcome = await client.callTool(
      'trigger-long-running-operation',
      { duration: 0.8, steps: 4 },
      { onProgress: (u) => updates.push(u) },
    );
    assert.match(textOf(outcome.result.content), /Long running operation completed/);
    assert.deepEqual(
      updates.map((u) => [u.progress, u.total]),
      [
        [1, 4],
        [2, 4],
        [3, 4],
        [4, 4],
      ],
    );
    const request = wire.find(
      (w) =>
        w.direction === 'send' &&
        w.message.method === 'tools/call' &&
        (w.message.params as { name: string }).name === 'trigger-long-running-operation',
    );
    const token = (request?.message.params as { _meta?: { progressToken?: unknown } })._meta?.progressToken;
    assert.ok(typeof token === 'string' || typeof token === 'number', 'a progress token was sent');
  });

  test(
    'cancelling through an AbortSignal rejects at once and sends notifications/cancelled',
    { timeout: 15_000 },
    async () => {
      const controller = new AbortController();
      let progressCount = 0;
      const call = client.callTool(
        'trigger-long-running-operation',
        { duration: 20, steps: 40 },
        {
          signal: controller.signal,
          onProgress: () => {
            progressCount++;
            controller.abort();
          },
        },
      );
      await assert.rejects(call, (error) => {
        assert.ok(error instanceof LocalError);
        assert.equal(error.kind, 'cancelled');
        assert.match(error.message, /tools\/call/);
        return true;
      });
      assert.ok(progressCount >= 1);
      const toolCall = [...wire]
        .reverse()
        .find(
          (w) =>
            w.direction === 'send' &&
            (w.message.params as { name?: string } | undefined)?.name === 'trigger-long-running-operation',
        );
      const cancels = sentMethods('notifications/cancelled').map((m) => (m.params as { requestId: unknown }).requestId);
      assert.ok(
        cancels.includes(toolCall?.message.id),
        `notifications/cancelled names request ${String(toolCall?.message.id)}`,
      );
      await client.ping();
      assert.equal(
        textOf((await client.callTool('echo', { message: 'still here' })).result.content),
        'Echo: still here',
      );
    },
  );

  test(
    'logging: setLevel debug, then simulated log messages arrive through onLogMessage',
    { timeout: 15_000 },
    async () => {
      const messages: LogMessage[] = [];
      const subscription = client.onLogMessage((m) => messages.push(m));
      try {
        await client.setLoggingLevel('debug');
        const started = await client.callTool('toggle-simulated-logging');
        assert.match(textOf(started.result.content), /Started simulated/);
        await waitFor(
          () => messages.some((m) => typeof m.data === 'string' && /message/.test(m.data)),
          'a simulated log message',
        );
        const stopped = await client.callTool('toggle-simulated-logging');
        assert.match(textOf(stopped.result.content), /Stopped simulated/);
        const levels = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
        assert.ok(messages.every((m) => levels.includes(m.level)));
      } finally {
        subscription.dispose();
      }
    },
  );

  test(
    'get-env: the env option is applied and a null value unsets an inherited variable',
    { timeout: 10_000 },
    async () => {
      const { result } = await client.callTool('get-env');
      const env = JSON.parse(textOf(result.content)) as Record<string, string>;
      assert.equal(env.MCP_WORKBENCH_TEST_ENV, 'from-the-env-option');
      assert.equal(process.env[INHERITED_VAR], 'inherited-value', 'the variable exists in the parent');
      assert.equal(env[INHERITED_VAR], undefined, 'and was removed for the child');
      assert.ok(env.PATH, 'the rest is inherited');
    },
  );

  test('get-roots-list shows the roots the host provides', { timeout: 10_000 }, async () => {
    const { result } = await client.callTool('get-roots-list');
    const text = textOf(result.content);
    assert.match(text, /Current MCP Roots \(1 total\)/);
    assert.ok(text.includes(ROOT.uri) && text.includes(ROOT.name), text);
    assert.ok(wire.some((w) => w.direction === 'receive' && w.message.method === 'roots/list'));
  });

  test('trigger-sampling-request goes through the host SamplingHandler', { timeout: 10_000 }, async () => {
    const { result } = await client.callTool('trigger-sampling-request', { prompt: 'tell me a joke', maxTokens: 50 });
    assert.equal(samplingRequests.length, 1);
    const [request] = samplingRequests;
    assert.equal(request.maxTokens, 50);
    assert.match(JSON.stringify(request.messages), /tell me a joke/);
    const text = textOf(result.content);
    assert.match(text, /sampled answer from the host/);
    assert.match(text, /test-model/);
  });

  test('trigger-elicitation-request goes through the host ElicitationHandler', { timeout: 10_000 }, async () => {
    const { result } = await client.callTool('trigger-elicitation-request');
    assert.equal(elicitationRequests.length, 1);
    assert.equal(elicitationRequests[0].mode, 'form');
    assert.ok(elicitationRequests[0].requestedSchema);
    const text = textOf(result.content);
    assert.match(text, /User provided the requested information/);
    assert.match(text, /- Name: Ada Lovelace/);
    assert.match(text, /- Favorite Integer: 7/);
  });

  test('resources: every page is listed, templates, text and blob reads', { timeout: 10_000 }, async () => {
    const resources = await client.listResources();
    assert.ok(
      resources.some((r) => r.uri === 'demo://resource/static/document/instructions.md'),
      resources.map((r) => r.uri).join(', '),
    );
    const pages = wire.filter(
      (w) =>
        w.direction === 'receive' && (w.message.result as { resources?: unknown } | undefined)?.resources !== undefined,
    );
    const requests = sentMethods('resources/list');
    assert.equal(requests.length, pages.length, 'one request per page');
    assert.equal(
      (pages.at(-1)?.message.result as { nextCursor?: unknown }).nextCursor,
      undefined,
      'the last page has no nextCursor',
    );
    for (let i = 1; i < requests.length; i++) {
      assert.equal(
        (requests[i].params as { cursor?: unknown }).cursor,
        (pages[i - 1].message.result as { nextCursor?: unknown }).nextCursor,
      );
    }

    const templates = await client.listResourceTemplates();
    assert.deepEqual(templates.map((t) => t.uriTemplate).sort(), [
      'demo://resource/dynamic/blob/{resourceId}',
      'demo://resource/dynamic/text/{resourceId}',
    ]);

    const doc = await client.readResource('demo://resource/static/document/instructions.md');
    assert.match((doc.contents[0] as { text: string }).text, /Everything Server/);
    const text = await client.readResource('demo://resource/dynamic/text/5');
    assert.match((text.contents[0] as { text: string }).text, /^Resource 5: This is a plaintext resource/);
    const blob = await client.readResource('demo://resource/dynamic/blob/6');
    const content = blob.contents[0] as { blob?: string; text?: string };
    assert.equal(content.text, undefined);
    assert.match(Buffer.from(content.blob ?? '', 'base64').toString('utf8'), /^Resource 6: This is a base64 blob/);
  });

  test('resource subscription: updates arrive through onResourceUpdated', { timeout: 15_000 }, async () => {
    const uri = 'demo://resource/dynamic/text/1';
    const updates: string[] = [];
    const subscription = client.onResourceUpdated((u) => updates.push(u));
    try {
      await client.subscribeResource(uri);
      await client.callTool('toggle-subscriber-updates');
      await waitFor(() => updates.includes(uri), `notifications/resources/updated for ${uri}`);
      await client.callTool('toggle-subscriber-updates');
      await client.unsubscribeResource(uri);
      assert.equal(sentMethods('resources/unsubscribe').length, 1);
    } finally {
      subscription.dispose();
    }
  });

  test('prompts: list and get with arguments', { timeout: 10_000 }, async () => {
    const prompts = await client.listPrompts();
    const names = prompts.map((p) => p.name);
    for (const name of ['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt'])
      assert.ok(names.includes(name), name);
    const args = prompts.find((p) => p.name === 'args-prompt');
    assert.deepEqual(
      args?.arguments?.map((a) => [a.name, a.required ?? false]),
      [
        ['city', true],
        ['state', false],
      ],
    );

    const weather = await client.getPrompt('args-prompt', { city: 'Paris', state: 'TX' });
    assert.equal((weather.messages[0].content as { text: string }).text, "What's weather in Paris, TX?");
    const embedded = await client.getPrompt('resource-prompt', { resourceType: 'Blob', resourceId: '2' });
    const resource = embedded.messages[1].content as { type: string; resource: { uri: string } };
    assert.equal(resource.type, 'resource');
    assert.equal(resource.resource.uri, 'demo://resource/dynamic/blob/2');
  });

  test('completion/complete for prompt and resource-template arguments', { timeout: 10_000 }, async () => {
    const departments = await client.complete(
      { type: 'ref/prompt', name: 'completable-prompt' },
      { name: 'department', value: 'S' },
    );
    assert.deepEqual(departments.values.sort(), ['Sales', 'Support']);
    const people = await client.complete(
      { type: 'ref/prompt', name: 'completable-prompt' },
      { name: 'name', value: '' },
      { department: 'Sales' },
    );
    assert.deepEqual(people.values, ['David', 'Eve', 'Frank']);
    const ids = await client.complete(
      { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
      { name: 'resourceId', value: '12' },
    );
    assert.deepEqual(ids.values, ['12']);
  });

  test('ping', { timeout: 10_000 }, async () => {
    await client.ping();
    const pings = sentMethods('ping');
    assert.ok(pings.length >= 1);
    // As sent on the wire: no params at all, or an object (never vscode-jsonrpc's [null]).
    const onWire = JSON.parse(JSON.stringify(pings.at(-1))) as { params?: unknown };
    assert.ok(
      onWire.params === undefined || (typeof onWire.params === 'object' && !Array.isArray(onWire.params)),
      JSON.stringify(onWire),
    );
  });

  test(
    'a request timeout rejects with a timeout LocalError, cancels, and the connection stays usable',
    { timeout: 15_000 },
    async () => {
      await assert.rejects(
        client.callTool('trigger-long-running-operation', { duration: 5, steps: 1 }, { timeoutMs: 300 }),
        (error) => {
          assert.ok(error instanceof LocalError);
          assert.equal(error.kind, 'timeout');
          assert.ok(error.message.includes(SERVER_NAME) && error.message.includes('tools/call'), error.message);
          return true;
        },
      );
      const last = sentMethods('notifications/cancelled').at(-1) as { params: { requestId: unknown; reason?: string } };
      assert.match(last.params.reason ?? '', /timed out/);
      assert.equal(
        textOf((await client.callTool('echo', { message: 'after timeout' })).result.content),
        'Echo: after timeout',
      );
      assert.deepEqual(
        logger.warns.filter((w) => w.includes('broke the protocol')),
        [],
        'server-everything never broke the protocol',
      );
    },
  );
});

describe('server-everything version negotiation', { timeout: 30_000 }, () => {
  test('offering an older revision gets that revision back', { timeout: 15_000 }, async () => {
    const tracked = trackedStdio({
      command: process.execPath,
      args: [EVERYTHING_SERVER, 'stdio'],
      shutdownGraceMs: 1000,
    });
    const older = new McpClient({
      serverName: 'everything-old',
      transport: tracked.transport,
      protocolVersions: ['2025-06-18', '2025-03-26'],
    });
    try {
      const session = await older.connect();
      assert.equal(session.protocolVersion, '2025-06-18');
      await older.ping();
    } finally {
      await older.close();
      const id = tracked.pid();
      if (id !== undefined) await assertProcessGone(id, 'the second server-everything');
    }
  });
});
