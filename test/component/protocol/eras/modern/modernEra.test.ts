/**
 * The 2026-07-28 ("modern") era against REAL servers built with the official v2 SDK
 * (@modelcontextprotocol/server 2.4.0, test/fixtures/modern/server.mjs), over stdio and Streamable HTTP:
 * server/discover, tools, resources, prompts, an input-required round answered by host handlers, the
 * subscription stream, caching, x-mcp-header mirroring, and the auto selection falling back to the
 * handshake for a legacy server (server-everything). Every message the client sends in the modern era is
 * validated against the 2026-07-28 schema.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { McpClient, type McpClientOptions } from '../../../../../src/protocol/client';
import { LocalError } from '../../../../../src/protocol/errors';
import type { ClientHost } from '../../../../../src/protocol/host';
import { createHttpTransport } from '../../../../../src/protocol/transports/http';
import type { Transport } from '../../../../../src/protocol/transports/transport';
import { StdioTransport } from '../../../../../src/protocol/node/stdio';
import {
  EVERYTHING_SERVER,
  REPO_ROOT,
  collectingLogger,
  delay,
  startEverythingHttp,
  textOf,
  waitFor,
} from '../../../../support/testSupport';

const FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'modern', 'server.mjs');
const SCHEMA = JSON.parse(fs.readFileSync('/work/shared/mcp-schema/2026-07-28/schema.json', 'utf8')) as {
  $defs: Record<string, { properties?: { method?: { const?: string } } }>;
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(SCHEMA, 'mcp');
const definitionByMethod = new Map<string, string>();
for (const [name, definition] of Object.entries(SCHEMA.$defs)) {
  const method = definition.properties?.method?.const;
  if (method) definitionByMethod.set(method, name);
}

type Json = Record<string, unknown>;

/** Every modern message sent, validated at the end of the file. */
const sentModern: { label: string; message: Json }[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function schemaProblems(message: Json): string[] {
  const method = typeof message.method === 'string' ? message.method : undefined;
  const definition = method ? definitionByMethod.get(method) : undefined;
  if (!definition) return [`no 2026-07-28 schema definition for ${String(method)}`];
  const validate = ajv.getSchema(`mcp#/$defs/${definition}`) as ValidateFunction;
  return validate(message)
    ? []
    : (validate.errors ?? []).map((error) => `${definition}${error.instancePath} ${error.message}`);
}

const host: ClientHost = {
  elicitation: { modes: ['form'], elicit: async () => ({ action: 'accept', content: { name: 'octocat' } }) },
  sampling: {
    createMessage: async () => ({ role: 'assistant', content: { type: 'text', text: 'Hello!' }, model: 'test-model' }),
  },
  roots: { listRoots: () => [{ uri: 'file:///work', name: 'work' }] },
};

function open(
  label: string,
  transport: Transport,
  options: Partial<McpClientOptions> = {},
): { client: McpClient; sent: Json[]; received: Json[]; logger: ReturnType<typeof collectingLogger> } {
  const sent: Json[] = [];
  const received: Json[] = [];
  const logger = collectingLogger();
  const client = new McpClient({
    serverName: label,
    transport,
    host,
    logger,
    requestTimeoutMs: 20_000,
    trace: (direction, message) => {
      (direction === 'send' ? sent : received).push(message as Json);
    },
    ...options,
  });
  cleanups.push(() => client.close());
  return { client, sent, received, logger };
}

function stdioFixture(legacy: 'serve' | 'reject'): Transport {
  return new StdioTransport({
    command: process.execPath,
    args: [FIXTURE, '--transport', 'stdio', '--legacy', legacy],
    shutdownGraceMs: 1000,
  });
}

async function httpFixture(legacy: 'serve' | 'reject'): Promise<string> {
  const child = spawn(process.execPath, [FIXTURE, '--transport', 'http', '--legacy', legacy], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => stop(child));
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the modern HTTP fixture did not start')), 15_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /listening (\S+)/.exec(chunk.toString());
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const transports = [
  { name: 'stdio', make: async (legacy: 'serve' | 'reject') => stdioFixture(legacy) },
  {
    name: 'Streamable HTTP',
    make: async (legacy: 'serve' | 'reject') => createHttpTransport({ url: await httpFixture(legacy) }),
  },
] as const;

for (const kind of transports) {
  describe(`2026-07-28 era over ${kind.name} (v2 SDK server)`, () => {
    test('discover, tools, resources, prompts, an input-required round, caching and a subscription', async () => {
      const { client, sent, received, logger } = open(`modern-${kind.name}`, await kind.make('reject'), {
        era: '2026-07-28',
      });
      const session = await client.connect();
      assert.equal(session.kind, 'modern');
      assert.equal(session.protocolVersion, '2026-07-28');
      assert.equal(session.serverInfo.name, 'modern-fixture');
      assert.equal(session.instructions, 'A fixture for the 2026-07-28 era.');
      assert.equal(sent[0]?.method, 'server/discover');
      assert.ok(
        !sent.some((m) => m.method === 'initialize' || m.method === 'notifications/initialized'),
        'no handshake in the modern era',
      );

      const tools = await client.listTools();
      const names = tools.map((t) => t.name);
      assert.ok(names.includes('add') && names.includes('regional'));
      // Over Streamable HTTP a tool with an invalid x-mcp-header is dropped; stdio MAY ignore annotations.
      assert.equal(names.includes('bad_header'), kind.name === 'stdio');
      if (kind.name !== 'stdio') {
        assert.ok(
          logger.warns.some((line) => /ignoring tool "bad_header": .*"number"/.test(line)),
          `the reason is logged: ${logger.warns.join(' | ')}`,
        );
      }

      const { result } = await client.callTool('add', { a: 2, b: 3 });
      assert.equal(textOf(result.content), '5');

      const read = await client.readResource('fixture://greeting');
      assert.match(String((read.contents[0] as { text?: string }).text), /^hello at /);
      const prompt = await client.getPrompt('greet', { name: 'Ada' });
      assert.match(JSON.stringify(prompt.messages), /Please greet Ada/);

      // MRTR: elicitation, then sampling + elicitation again; requestState echoed verbatim, then omitted.
      const greeted = await client.callTool('greet_with_input', {});
      assert.equal(greeted.result.isError, undefined, textOf(greeted.result.content));
      assert.equal(textOf(greeted.result.content), 'Hello! (octocat)');
      const rounds = sent.filter((m) => m.method === 'tools/call' && (m.params as Json).name === 'greet_with_input');
      assert.equal(rounds.length, 3);
      assert.equal(new Set(rounds.map((m) => m.id)).size, 3, 'every retry has a new id');
      assert.equal((rounds[1].params as Json).requestState, 'round-1 ✓ {"opaque":true}');
      assert.ok(!('requestState' in (rounds[2].params as Json)));
      assert.deepEqual(((rounds[2].params as Json).inputResponses as Json).who, {
        action: 'accept',
        content: { name: 'octocat' },
      });

      // tools/list came with ttlMs 60000: served from the cache until a manual refresh.
      const listsBefore = sent.filter((m) => m.method === 'tools/list').length;
      await client.listTools();
      assert.equal(
        sent.filter((m) => m.method === 'tools/list').length,
        listsBefore,
        'a fresh list is served from the cache',
      );
      await client.listTools({ refresh: true });
      assert.equal(sent.filter((m) => m.method === 'tools/list').length, listsBefore + 1, 'a manual refresh refetches');

      // The subscription stream delivers list changes and resource updates, correlated by subscription id. It is
      // opened only once something listens: until now nothing did, and no stream was opened (issue 23).
      assert.ok(!sent.some((m) => m.method === 'subscriptions/listen'), 'no subscription stream while nothing listens');
      let toolsChanged = 0;
      const updated: string[] = [];
      client.onToolsChanged(() => toolsChanged++);
      client.onResourceUpdated((uri) => updated.push(uri));
      await waitFor(() => sent.some((m) => m.method === 'subscriptions/listen'), 'the stream opened for the listener');
      await client.subscribeResource('fixture://greeting');
      await waitFor(
        () => sent.filter((m) => m.method === 'subscriptions/listen').length === 2,
        'the stream reopened with the resource',
      );
      // The server notifies the streams it holds: touch only once it acknowledged the reopened one.
      const reopened = sent.filter((m) => m.method === 'subscriptions/listen')[1];
      const acknowledges = (m: Json) =>
        m.method === 'notifications/subscriptions/acknowledged' &&
        ((m.params as Json)?._meta as Json | undefined)?.['io.modelcontextprotocol/subscriptionId'] === reopened.id;
      await waitFor(() => received.some(acknowledges), 'the reopened stream acknowledged');
      await client.callTool('touch', {});
      await waitFor(() => toolsChanged > 0, 'notifications/tools/list_changed');
      await waitFor(() => updated.includes('fixture://greeting'), 'notifications/resources/updated');
      // The change made the cached list stale.
      await client.listTools();
      assert.equal(sent.filter((m) => m.method === 'tools/list').length, listsBefore + 2);

      for (const message of sent) sentModern.push({ label: kind.name, message });
      assert.ok(
        !sent.some((m) => m.method === 'ping' || m.method === 'logging/setLevel' || m.method === 'resources/subscribe'),
      );
    });

    test('a tool added on the server shows up in the next list after tools/list_changed, despite the cached list', async () => {
      const { client, received } = open(`added-${kind.name}`, await kind.make('reject'), { era: '2026-07-28' });
      await client.connect();
      assert.ok(!(await client.listTools()).some((tool) => tool.name === `late_${kind.name.length}`));
      let toolsChanged = 0;
      client.onToolsChanged(() => toolsChanged++);
      // The listener opens the subscription stream; the server notifies it once it acknowledged it.
      await waitFor(
        () => received.some((m) => m.method === 'notifications/subscriptions/acknowledged'),
        'the stream acknowledged',
      );
      const name = `late_${kind.name.length}`;
      assert.equal(textOf((await client.callTool('add_tool', { name })).result.content), `added ${name}`);
      await waitFor(() => toolsChanged > 0, 'notifications/tools/list_changed');
      assert.ok(
        (await client.listTools()).some((tool) => tool.name === name),
        'the added tool is listed',
      );
      assert.equal(textOf((await client.callTool(name, {})).result.content), `${name} ran`);
      const asked = await client.callTool('ask_model', { question: 'hi?' });
      assert.match(textOf(asked.result.content), /^model said: /);
    });

    test('prompt argument completion', async () => {
      const { client } = open(`complete-${kind.name}`, await kind.make('reject'), { era: '2026-07-28' });
      await client.connect();
      const completion = await client.complete(
        { type: 'ref/prompt', name: 'review_code' },
        { name: 'language', value: 'py' },
      );
      assert.deepEqual(completion.values, ['python']);
      const prompt = await client.getPrompt('review_code', { language: 'python' });
      assert.match(JSON.stringify(prompt.messages), /Review this python code/);
    });

    test('cancelling a running call stops it on the server', async () => {
      const { client, sent } = open(`cancel-${kind.name}`, await kind.make('reject'), { era: '2026-07-28' });
      await client.connect();
      await client.listTools();
      const abort = new AbortController();
      const running = client.callTool('slow', {}, { signal: abort.signal, onProgress: () => abort.abort() });
      await assert.rejects(running, (error: unknown) => error instanceof LocalError && error.kind === 'cancelled');
      // The server learns of it asynchronously: ask until it reports it (or the deadline passes).
      const deadline = Date.now() + 10_000;
      let cancelled = textOf((await client.callTool('cancelled_count', {})).result.content);
      while (cancelled !== '1' && Date.now() < deadline) {
        await delay(50);
        cancelled = textOf((await client.callTool('cancelled_count', {})).result.content);
      }
      assert.equal(cancelled, '1', 'the server saw the call cancelled');
      if (kind.name === 'stdio') {
        assert.ok(
          sent.some((m) => m.method === 'notifications/cancelled'),
          'stdio cancels with notifications/cancelled',
        );
      } else {
        // HTTP: closing the response stream is the cancellation; no notification is POSTed.
        const posted = JSON.parse(textOf((await client.callTool('posted_methods', {})).result.content)) as string[];
        assert.ok(!posted.includes('notifications/cancelled'), `POSTed: ${posted.join(', ')}`);
      }
    });

    test('auto selects the modern era against a dual-era server', async () => {
      const { client, sent } = open(`dual-${kind.name}`, await kind.make('serve'), { era: 'auto' });
      const session = await client.connect();
      assert.equal(session.kind, 'modern');
      assert.ok(!sent.some((m) => m.method === 'initialize'));
      assert.equal(textOf((await client.callTool('add', { a: 1, b: 1 })).result.content), '2');
    });

    test('legacy speaks the handshake to the same dual-era server', async () => {
      const { client, sent } = open(`dual-legacy-${kind.name}`, await kind.make('serve'), { era: 'legacy' });
      const session = await client.connect();
      assert.equal(session.kind, 'handshake');
      assert.equal(sent[0]?.method, 'initialize');
      assert.equal(textOf((await client.callTool('add', { a: 1, b: 2 })).result.content), '3');
    });
  });
}

describe('2026-07-28 HTTP request metadata', () => {
  test('MCP-Protocol-Version, Mcp-Method, Mcp-Name and Mcp-Param-* reach the server; no session id', async () => {
    const { client } = open('modern-headers', createHttpTransport({ url: await httpFixture('reject') }), {
      era: '2026-07-28',
    });
    await client.connect();
    await client.listTools();
    await client.callTool('regional', { region: 'Zürich', query: 'SELECT 1' });
    const headers = JSON.parse(textOf((await client.callTool('last_headers', {})).result.content)) as Record<
      string,
      string
    >;
    assert.equal(headers['mcp-protocol-version'], '2026-07-28');
    assert.equal(headers['mcp-method'], 'tools/call');
    assert.equal(headers['mcp-name'], 'regional');
    assert.equal(headers['mcp-param-region'], `=?base64?${Buffer.from('Zürich').toString('base64')}?=`);
    assert.equal(headers['mcp-session-id'], undefined);
  });
});

describe('auto era selection against legacy servers', () => {
  test('stdio: server-everything answers server/discover with an error, so the client falls back to initialize', async () => {
    const { client, sent, logger } = open(
      'everything-auto',
      new StdioTransport({ command: process.execPath, args: [EVERYTHING_SERVER], shutdownGraceMs: 1000 }),
      { era: 'auto' },
    );
    const session = await client.connect();
    assert.equal(session.kind, 'handshake');
    assert.deepEqual(
      sent.slice(0, 2).map((m) => m.method),
      ['server/discover', 'initialize'],
    );
    assert.ok(
      logger.lines.some((line) => /not a 2026-07-28 server/.test(line.message)),
      'the fallback is logged with its reason',
    );
    assert.ok((await client.listTools()).length > 0);
  });

  test('pinned to 2026-07-28, a legacy server is a clear error that names the way out', async () => {
    const { client, sent } = open(
      'everything-pinned',
      new StdioTransport({ command: process.execPath, args: [EVERYTHING_SERVER], shutdownGraceMs: 1000 }),
      { era: '2026-07-28' },
    );
    await assert.rejects(
      client.connect(),
      (error: unknown) =>
        error instanceof LocalError &&
        error.kind === 'unsupported-version' &&
        /everything-pinned does not seem to speak protocol 2026-07-28 \(server\/discover was answered with error .*\); connect with era "auto" or "handshake"/.test(
          error.message,
        ),
    );
    assert.ok(!sent.some((m) => m.method === 'initialize'), 'no fallback when pinned');
  });

  test('Streamable HTTP: server-everything refuses the sessionless probe with 400, so the client falls back', async () => {
    const { server, url } = await startEverythingHttp();
    cleanups.push(() => stop(server));
    const { client, sent } = open('everything-http-auto', createHttpTransport({ url }), { era: 'auto' });
    const session = await client.connect();
    assert.equal(session.kind, 'handshake');
    assert.equal(
      client.transport.kind,
      'streamable-http',
      'the refused probe did not push the client onto the 2024-11-05 SSE transport',
    );
    assert.deepEqual(
      sent.slice(0, 2).map((m) => m.method),
      ['server/discover', 'initialize'],
    );
    assert.ok((await client.listTools()).length > 0);
  });
});

describe('outgoing 2026-07-28 messages', () => {
  test('every message sent in the modern era is valid against the 2026-07-28 schema', () => {
    assert.ok(sentModern.length > 10, 'the modern tests above recorded their traffic');
    const problems = sentModern.flatMap(({ label, message }) =>
      schemaProblems(message).map((problem) => `${label} ${String(message.method)}: ${problem}`),
    );
    assert.deepEqual(problems, []);
  });
});
