/**
 * A hostile server's malformed answers never hang an agent through the gateway (issue 37, "Never": an agent's hang).
 * One gateway in front of test/fixtures/hostile/malformed-answers-server.mjs, and for each malformed answer and each
 * path an agent's request takes — a 2025 session's request served directly, a 2025 session's request the SDK serves
 * (completion, an extension's method), a 2026-07-28 agent's request served directly, and a 2026-07-28 agent's request
 * the SDK serves (an agent that declared sampling and elicitation: rounds and the SDK's handlers) — an official SDK
 * client (1.x for 2025, 2.4.0 pinned to 2026-07-28) asks, and the request settles within SETTLE_MS: a result, or a
 * JSON-RPC error -32603 that names the server and the cause and carries none of the server's secrets. Meanwhile
 * another agent's calls are answered, and after every case every agent and a new one are still served.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as SdkV2 from '@modelcontextprotocol/client';
import { McpClient } from '../../../../src/protocol/client';
import { StdioTransport } from '../../../../src/protocol/node/stdio';
import { GatewayHostRelay } from '../../../../src/workbench/gateway/hostRelay';
import { clientUpstream } from '../../../../src/workbench/gateway/upstream';
import { startGateway, type RunningGateway } from '../../../../src/workbench/node/gateway/listener';
import { REPO_ROOT } from '../../../support/testSupport';

const SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'hostile', 'malformed-answers-server.mjs');
const SERVER_NAME = 'hostile-upstream';
const SECRET = 's3cret-5e7a1';
/** A request that has neither an answer nor an error after this long is a hang (a call here takes milliseconds). */
const SETTLE_MS = 5_000;
/** The gateway's client reads at most this much of one message; the "huge" answer is larger. */
const MAX_MESSAGE_BYTES = 256 * 1024;

/** Takes any result as it came (the 1.x client's request validates against the schema it is given). */
const ANY_V1 = { safeParse: (data: unknown) => ({ success: true, data }) } as never;
/** The same for the 2.4.0 client (a Standard Schema); a spec method's result it still checks against its own. */
const ANY_V2 = {
  '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) },
} as never;

/** Every malformed answer: the cases that break any result, and those that break one method's result shape. */
const ANY_METHOD_CASES = [
  'meta-string',
  'meta-array',
  'meta-null',
  'result-array',
  'result-number',
  'result-null',
  'result-type-input-required',
  'result-type-bogus',
  'huge',
  'error-code-float',
  'error-code-string',
  'error-message-number',
  'error-not-object',
  'duplicate-answer',
];
const SHAPE_CASES = ['list-not-array', 'item-unknown-type', 'item-missing-fields'];
const METHOD_CASES: Readonly<Record<string, readonly string[]>> = {
  'tools/list': ['tools-not-array', 'tool-without-name', 'cursor-number'],
  'tools/call': ['structured-array'],
};
/** An extension's method: the gateway cannot know its result's shape, so only what breaks any result is refused. */
const EXTENSION_METHOD = 'x/hostile';
/** A 2025 tools/call that asks for a task: the SDK's own tools/call handler serves it (and checks its result). */
const TASK_CALL = 'tools/call (task-augmented)';

type Outcome =
  | { kind: 'result'; result: Record<string, unknown> }
  | { kind: 'error'; code: unknown; message: string }
  | { kind: 'hang' };

interface AgentPath {
  name: string;
  /** Whether the gateway serves this path's requests itself (Gateway.serveDirect) or hands them to the SDK. */
  direct: boolean;
  methods: readonly string[];
  ask(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>;
}

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

let running: RunningGateway;
let upstreamClient: McpClient;
/** How many requests the gateway served itself. */
let servedDirect = 0;

before(async () => {
  const relay = new GatewayHostRelay({});
  upstreamClient = new McpClient({
    serverName: SERVER_NAME,
    transport: new StdioTransport({
      command: process.execPath,
      args: [SERVER, `--huge-bytes=${MAX_MESSAGE_BYTES + 64 * 1024}`, `--secret=${SECRET}`],
      limits: { maxMessageBytes: MAX_MESSAGE_BYTES },
    }),
    host: relay.host,
    // Far past SETTLE_MS: a request that waits for its deadline counts as a hang.
    requestTimeoutMs: 120_000,
  });
  cleanups.push(() => upstreamClient.close());
  await upstreamClient.connect();
  running = await startGateway({
    upstream: clientUpstream(upstreamClient),
    relay,
    secrets: [SECRET],
    maxBodyBytes: 1024 * 1024,
  });
  cleanups.push(() => running.close());
  const serveDirect = running.gateway.serveDirect.bind(running.gateway);
  running.gateway.serveDirect = (...args) => {
    const call = serveDirect(...args);
    if (call) servedDirect++;
    return call;
  };
});

async function agent2025(name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(running.url), { requestInit: { headers: running.headers } }),
  );
  cleanups.push(() => client.close());
  return client;
}

async function agent2026(name: string, asks: boolean): Promise<SdkV2.Client> {
  const client = new SdkV2.Client(
    { name, version: '2.4.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      ...(asks ? { capabilities: { sampling: {}, elicitation: { form: {} } } } : {}),
    },
  );
  if (asks) {
    client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
    client.setRequestHandler('sampling/createMessage', async () => ({
      role: 'assistant',
      model: 'agent',
      content: { type: 'text', text: 'from the agent' },
    }));
  }
  await client.connect(
    new SdkV2.StreamableHTTPClientTransport(new URL(running.url), { requestInit: { headers: running.headers } }),
  );
  cleanups.push(() => client.close());
  return client;
}

function paramsFor(method: string, kase: string): Record<string, unknown> {
  switch (method) {
    case TASK_CALL:
      return { name: kase, arguments: {}, task: { ttl: 60_000 } };
    case 'tools/call':
      return { name: kase, arguments: {} };
    case 'tools/list':
      return { cursor: kase };
    case 'prompts/get':
      return { name: kase };
    case 'resources/read':
      return { uri: `hostile://${kase}` };
    case 'completion/complete':
      return { ref: { type: 'ref/prompt', name: 'well' }, argument: { name: 'who', value: kase } };
    default:
      return { case: kase };
  }
}

function casesOf(method: string): string[] {
  if (method === EXTENSION_METHOD) return [...ANY_METHOD_CASES, ...SHAPE_CASES];
  return [...ANY_METHOD_CASES, ...SHAPE_CASES, ...(METHOD_CASES[wireMethod(method)] ?? [])];
}

function wireMethod(method: string): string {
  return method === TASK_CALL ? 'tools/call' : method;
}

/** The request's outcome, or a hang once SETTLE_MS pass without one. */
async function settle(pending: Promise<unknown>): Promise<Outcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<Outcome>((resolve) => (timer = setTimeout(() => resolve({ kind: 'hang' }), SETTLE_MS)));
  try {
    return await Promise.race([
      pending.then(
        (result): Outcome => ({ kind: 'result', result: result as Record<string, unknown> }),
        (error: unknown): Outcome => ({
          kind: 'error',
          code: (error as { code?: unknown }).code,
          message: String((error as { message?: unknown }).message),
        }),
      ),
      hang,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether a case answers an extension's method as it is (its shape is not the gateway's to judge). */
function passesAsIs(method: string, kase: string): boolean {
  return kase === 'duplicate-answer' || (method === EXTENSION_METHOD && SHAPE_CASES.includes(kase));
}

function textOf(result: Record<string, unknown>): string {
  return JSON.stringify(result);
}

describe('malformed answers through the gateway', () => {
  let bystander: Client;
  let paths: AgentPath[];

  before(async () => {
    const v1 = await agent2025('agent-2025');
    const plain = await agent2026('agent-2026', false);
    const asking = await agent2026('agent-2026-asks', true);
    bystander = await agent2025('bystander');
    const options = (signal?: AbortSignal) => ({ timeout: 120_000, ...(signal ? { signal } : {}) });
    paths = [
      {
        name: '2025 session, direct',
        direct: true,
        methods: ['tools/call', 'tools/list', 'prompts/get', 'resources/read'],
        ask: (method, params, signal) => v1.request({ method, params } as never, ANY_V1, options(signal)),
      },
      {
        name: '2025 session, through the SDK',
        direct: false,
        methods: [TASK_CALL, 'completion/complete', EXTENSION_METHOD],
        ask: (method, params, signal) =>
          v1.request({ method: wireMethod(method), params } as never, ANY_V1, options(signal)),
      },
      {
        name: '2026-07-28, direct',
        direct: true,
        methods: ['tools/call', 'tools/list', 'prompts/get', 'resources/read'],
        ask: (method, params, signal) => plain.request({ method, params } as never, ANY_V2, options(signal)),
      },
      {
        name: '2026-07-28 agent that declared sampling and elicitation, through the SDK',
        direct: false,
        methods: ['tools/call', 'prompts/get', 'resources/read', 'tools/list', 'completion/complete', EXTENSION_METHOD],
        ask: (method, params, signal) => asking.request({ method, params } as never, ANY_V2, options(signal)),
      },
    ];
  });

  for (const pathIndex of [0, 1, 2, 3])
    test(`every malformed answer settles on path ${pathIndex + 1} (2025 direct, 2025 SDK, 2026-07-28 direct, 2026-07-28 SDK), and another agent is served meanwhile`, async () => {
      const agentPath = paths[pathIndex];
      const wrong: string[] = [];
      for (const method of agentPath.methods)
        for (const kase of casesOf(method)) {
          const label = `${agentPath.name}: ${method} ${kase}`;
          const directBefore = servedDirect;
          const [outcome, other] = await Promise.all([
            settle(agentPath.ask(method, paramsFor(method, kase))),
            settle(bystander.callTool({ name: 'echo', arguments: {} })),
          ]);
          if (other.kind !== 'result' || !textOf(other.result).includes('well echo'))
            wrong.push(`${label}: the other agent got ${JSON.stringify(other)}`);
          // The bystander's call is a 2025 session's tools/call, always served directly.
          const direct = servedDirect - directBefore - 1 === 1;
          if (direct !== agentPath.direct) wrong.push(`${label}: served ${direct ? 'directly' : 'by the SDK'}`);
          if (outcome.kind === 'hang') {
            wrong.push(`${label}: no answer within ${SETTLE_MS} ms`);
            continue;
          }
          if (JSON.stringify(outcome).includes(SECRET)) wrong.push(`${label}: the server's secret reached the agent`);
          if (passesAsIs(method, kase)) {
            if (outcome.kind !== 'result')
              wrong.push(`${label}: expected the server's result, got ${JSON.stringify(outcome)}`);
            continue;
          }
          if (
            outcome.kind !== 'error' ||
            outcome.code !== -32603 ||
            !outcome.message.includes(`${SERVER_NAME}: `) ||
            !/malformed|invalid response|discarded: message too large/.test(outcome.message)
          )
            wrong.push(
              `${label}: expected -32603 naming the server and the cause, got ${JSON.stringify(outcome).slice(0, 300)}`,
            );
        }
      assert.deepEqual(wrong, []);
    });

  test('an answer after a cancel and a duplicate answer are dropped: each path settles its cancelled request and serves the next', async () => {
    for (const agentPath of paths) {
      const method = agentPath.methods[0];
      const report = async () =>
        JSON.parse(((await upstreamClient.callTool('report', {})).result.content[0] as { text: string }).text) as {
          held: unknown[];
          late: unknown[];
        };
      const before = await report();
      const controller = new AbortController();
      const pending = settle(agentPath.ask(method, paramsFor(method, 'answer-after-cancel'), controller.signal));
      let now = before;
      const reportUntil = async (what: string, done: () => boolean) => {
        const deadline = Date.now() + SETTLE_MS;
        while (!done()) {
          assert.ok(Date.now() < deadline, `${agentPath.name}: ${what}`);
          now = await report();
        }
      };
      await reportUntil('the server got the request', () => now.held.length > before.held.length);
      controller.abort();
      const cancelled = await pending;
      assert.equal(cancelled.kind, 'error', `${agentPath.name}: ${JSON.stringify(cancelled)}`);
      // The server answers once it sees the cancel; the report's answer comes after that late one on its stdout.
      await reportUntil('the cancel reached the server', () => now.late.length > before.late.length);
      const next = await settle(agentPath.ask(method, paramsFor(method, 'duplicate-answer')));
      assert.equal(next.kind, 'result', `${agentPath.name}: ${JSON.stringify(next)}`);
    }
  });

  test('the gateway still serves every agent, and a new one', async () => {
    for (const agentPath of paths) {
      const outcome = await settle(agentPath.ask(agentPath.methods[0], paramsFor(agentPath.methods[0], 'echo')));
      assert.equal(outcome.kind, 'result', `${agentPath.name}: ${JSON.stringify(outcome)}`);
    }
    const fresh = await agent2025('late-comer');
    const result = await fresh.callTool({ name: 'echo', arguments: {} });
    assert.match(JSON.stringify(result), /well echo/);
    assert.equal(running.gateway.relayedCalls, 0, 'no call is left waiting for an agent');
  });
});
