/**
 * `mcp-workbench gateway` on real peers: the official SDK clients (1.32.2, handshake only; 2.4.0 pinned to
 * 2026-07-28) reach a server through `node dist/cli.js gateway --json`, in the other era than the server speaks;
 * sampling and elicitation relayed to the agent that declared them (a 2026-07-28 agent through input-required
 * rounds); progress and cancellation end to end; the refusals; and nothing left running after SIGTERM.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as http from 'node:http';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import * as SdkV2 from '@modelcontextprotocol/client';
import { descendantsOf, isRunning } from '../../support/processes';
import { EVERYTHING_SERVER, REPO_ROOT, waitFor } from '../../support/testSupport';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'modern', 'server.mjs');
const MODERN_ONLY = `"${process.execPath}" "${FIXTURE}" --transport stdio --legacy reject`;

interface Endpoint {
  name: string;
  url: string;
  headers: Record<string, string>;
}

interface RunningCli {
  child: ChildProcess;
  endpoint: Endpoint;
  /** The CLI's descendants while it served (the server it started), to prove they end with it. */
  descendants: number[];
  stop(): Promise<number | null>;
}

const started: RunningCli[] = [];
after(async () => {
  for (const cli of started) await cli.stop();
});

async function startGatewayCli(stdio: string): Promise<RunningCli> {
  const child = spawn(process.execPath, [CLI, 'gateway', '--stdio', stdio, '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    void exited.then((code) => reject(new Error(`the gateway exited with ${code} before it was ready: ${stderr}`)));
  });
  const parsed = JSON.parse(line) as { servers: Endpoint[] };
  assert.equal(parsed.servers.length, 1);
  const cli: RunningCli = {
    child,
    endpoint: parsed.servers[0],
    descendants: descendantsOf(child.pid!),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  started.push(cli);
  return cli;
}

/** The server and the stdio watchdog (which ends once its parent's pipe closes) end with the CLI. */
async function allEnded(pids: readonly number[]): Promise<void> {
  for (const pid of pids) await waitFor(() => !isRunning(pid), `process ${pid} ended with the gateway`, 5_000);
}

function legacyAgent(
  endpoint: Endpoint,
  capabilities: Record<string, unknown> = {},
): {
  client: Client;
  transport: StreamableHTTPClientTransport;
} {
  const client = new Client({ name: 'agent-v1', version: '1.32.2' }, { capabilities });
  const transport = new StreamableHTTPClientTransport(new URL(endpoint.url), {
    requestInit: { headers: endpoint.headers },
  });
  return { client, transport };
}

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((item) => item.text ?? '').join('');
}

/** A raw request to the gateway with the headers given (node:http: fetch does not let a test set Host). */
function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: options.method ?? 'POST', headers: { 'content-type': 'application/json', ...options.headers } },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('mcp-workbench gateway', () => {
  test('the 1.32.2 SDK client (handshake only) lists and calls a tool of a 2026-07-28-only server through the gateway, and SIGTERM leaves nothing running', async () => {
    const cli = await startGatewayCli(MODERN_ONLY);
    assert.match(cli.endpoint.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.match(cli.endpoint.headers.Authorization, /^Bearer [0-9a-f]{64}$/);
    assert.ok(cli.descendants.length > 0, 'the server runs under the CLI');
    const { client, transport } = legacyAgent(cli.endpoint);
    await client.connect(transport);
    assert.equal(client.getServerVersion()?.name, 'modern-fixture');
    assert.equal(client.getInstructions(), 'A fixture for the 2026-07-28 era.');
    const { tools } = await client.listTools();
    assert.ok(tools.some((tool) => tool.name === 'add'));
    assert.equal(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } })), '42');
    // A server's error reaches the agent with the server's code.
    await assert.rejects(client.getPrompt({ name: 'no-such-prompt' }), (error: Error & { code?: number }) => {
      assert.equal(error.code, -32602);
      return true;
    });
    await client.close();
    assert.equal(await cli.stop(), 0);
    await allEnded(cli.descendants);
  });

  test('the 2.4.0 SDK client in the 2026-07-28 era lists and calls a tool of server-everything (handshake only, stdio) through the gateway', async () => {
    const cli = await startGatewayCli(`"${process.execPath}" "${EVERYTHING_SERVER}"`);
    const client = new SdkV2.Client(
      { name: 'agent-v2', version: '2.4.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new SdkV2.StreamableHTTPClientTransport(new URL(cli.endpoint.url), {
        requestInit: { headers: cli.endpoint.headers },
      }),
    );
    const { tools } = await client.listTools();
    assert.ok(tools.some((tool) => tool.name === 'echo'));
    assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { message: 'through' } })), 'Echo: through');
    await client.close();
    assert.equal(await cli.stop(), 0);
    await allEnded(cli.descendants);
  });

  test("a server's elicitation and sampling during an agent's call go to that agent, which declared them", async () => {
    const cli = await startGatewayCli(MODERN_ONLY);
    const { client, transport } = legacyAgent(cli.endpoint, { sampling: {}, elicitation: {} });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(`elicit: ${request.params.message}`);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      const first = request.params.messages[0]?.content as { text?: string };
      asked.push(`sample: ${first.text ?? ''}`);
      return { role: 'assistant', model: 'agent-model', content: { type: 'text', text: 'Hello, Ada!' } };
    });
    await client.connect(transport);
    const result = await client.callTool({ name: 'greet_with_input', arguments: {} });
    assert.equal(textOf(result), 'Hello, Ada! (Ada)');
    // The fixture asks who you are, then (its second round) asks again with the model's question.
    assert.equal(asked[0], 'elicit: Who are you?');
    assert.ok(asked.includes('sample: Say hello to Ada'), asked.join('; '));
    await client.close();
  });

  test("a 2026-07-28 agent (SDK 2.4.0) that declared elicitation and sampling answers the server's rounds through the CLI gateway", async () => {
    const cli = await startGatewayCli(MODERN_ONLY);
    const client = new SdkV2.Client(
      { name: 'agent-v2', version: '2.4.0' },
      {
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        capabilities: { sampling: {}, elicitation: { form: {} } },
      },
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(`elicit: ${request.params.message}`);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    client.setRequestHandler('sampling/createMessage', async (request) => {
      const first = request.params.messages[0]?.content as { text?: string };
      asked.push(`sample: ${first.text ?? ''}`);
      return { role: 'assistant', model: 'agent-model', content: { type: 'text', text: 'Hello, Ada!' } };
    });
    await client.connect(
      new SdkV2.StreamableHTTPClientTransport(new URL(cli.endpoint.url), {
        requestInit: { headers: cli.endpoint.headers },
      }),
    );
    assert.equal(textOf(await client.callTool({ name: 'greet_with_input', arguments: {} })), 'Hello, Ada! (Ada)');
    assert.equal(asked[0], 'elicit: Who are you?');
    assert.ok(asked.includes('sample: Say hello to Ada'), asked.join('; '));
    await client.close();
  });

  test("without the agent's capability, the CLI declines the elicitation", async () => {
    const cli = await startGatewayCli(MODERN_ONLY);
    const { client, transport } = legacyAgent(cli.endpoint);
    await client.connect(transport);
    assert.equal(textOf(await client.callTool({ name: 'ask_name', arguments: {} })), 'you chose decline');
    await client.close();
  });

  test("progress reaches the agent and the agent's cancel cancels the server's call", async () => {
    const cli = await startGatewayCli(MODERN_ONLY);
    const { client, transport } = legacyAgent(cli.endpoint);
    await client.connect(transport);
    const steps: string[] = [];
    const counted = await client.callTool({ name: 'count_up', arguments: { steps: 3 } }, undefined, {
      onprogress: (progress) => steps.push(`${progress.progress}/${progress.total}`),
    });
    assert.equal(textOf(counted), 'counted to 3');
    assert.deepEqual(steps, ['1/3', '2/3', '3/3']);

    const abort = new AbortController();
    let started = false;
    const slow = client.callTool({ name: 'slow', arguments: {} }, undefined, {
      signal: abort.signal,
      onprogress: () => {
        started = true;
      },
    });
    await waitFor(() => started, 'the slow call reported progress');
    abort.abort();
    await assert.rejects(slow);
    // The server counts the cancel when its notification arrives, a moment after the agent's call failed.
    let cancelled = '';
    for (let attempt = 0; attempt < 50 && cancelled !== '1'; attempt++) {
      cancelled = textOf(await client.callTool({ name: 'cancelled_count', arguments: {} }));
      if (cancelled !== '1') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(cancelled, '1');
    await client.close();
  });

  test('refusals: no or a wrong secret is 401 with nothing else; a foreign Host or Origin is 403; OPTIONS is refused; no CORS header', async () => {
    const cli = await startGatewayCli(MODERN_ONLY);
    const { url, headers } = cli.endpoint;
    const port = new URL(url).port;
    const missing = await rawRequest(url, { body: INITIALIZE });
    assert.equal(missing.status, 401);
    assert.equal(missing.body, '');
    const wrong = await rawRequest(url, { body: INITIALIZE, headers: { Authorization: `Bearer ${'0'.repeat(64)}` } });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body, '');
    const short = await rawRequest(url, { body: INITIALIZE, headers: { Authorization: 'Bearer 00' } });
    assert.equal(short.status, 401);
    const host = await rawRequest(url, { body: INITIALIZE, headers: { ...headers, Host: `evil.example:${port}` } });
    assert.equal(host.status, 403);
    assert.equal(host.body, '');
    const origin = await rawRequest(url, { body: INITIALIZE, headers: { ...headers, Origin: 'http://evil.example' } });
    assert.equal(origin.status, 403);
    const preflight = await rawRequest(url, {
      method: 'OPTIONS',
      headers: { ...headers, Origin: `http://127.0.0.1:${port}`, 'Access-Control-Request-Method': 'POST' },
    });
    assert.equal(preflight.status, 405);
    const accepted = await rawRequest(url, {
      body: INITIALIZE,
      headers: { ...headers, Accept: 'application/json, text/event-stream', Origin: `http://localhost:${port}` },
    });
    assert.equal(accepted.status, 200);
    assert.match(accepted.body, /modern-fixture/);
    for (const response of [missing, host, preflight, accepted])
      assert.equal(
        Object.keys(response.headers).some((name) => name.startsWith('access-control-')),
        false,
        'no CORS header',
      );
  });
});
