/**
 * A 2026-07-28 agent (the official 2.4.0 client pinned to 2026-07-28) answers the server's questions through the
 * gateway's input-required rounds: a 2026-07-28 server's rounds (the modern fixture's greet_with_input) and a
 * handshake server's real sampling request (server-everything over stdio) both reach it; the requestState it holds is
 * the gateway's, sealed, and a forged or replayed one is refused.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import * as SdkV2 from '@modelcontextprotocol/client';
import { McpClient } from '../../../../src/protocol/client';
import type { ClientHost } from '../../../../src/protocol/host';
import { StdioTransport } from '../../../../src/protocol/node/stdio';
import { GatewayHostRelay } from '../../../../src/workbench/gateway/hostRelay';
import { clientUpstream } from '../../../../src/workbench/gateway/upstream';
import { startGateway, type RunningGateway } from '../../../../src/workbench/node/gateway/listener';
import { EVERYTHING_SERVER, REPO_ROOT, waitFor } from '../../../support/testSupport';

const MODERN_FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'modern', 'server.mjs');

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

/** What the host would answer when no agent takes a question: the test sees it was not asked. */
const hostAsked: string[] = [];
const fallback: ClientHost = {
  sampling: {
    createMessage: async () => {
      hostAsked.push('sampling');
      return { role: 'assistant', model: 'host', content: { type: 'text', text: 'from the host' } };
    },
  },
  elicitation: {
    modes: ['form'],
    elicit: async () => {
      hostAsked.push('elicitation');
      return { action: 'decline' };
    },
  },
};

async function gatewayTo(args: string[], inputRoundTtlMs?: number): Promise<RunningGateway> {
  const relay = new GatewayHostRelay(fallback);
  const client = new McpClient({
    serverName: 'upstream',
    transport: new StdioTransport({ command: process.execPath, args }),
    host: relay.host,
    era: 'auto',
  });
  cleanups.push(() => client.close());
  await client.connect();
  const running = await startGateway({
    upstream: clientUpstream(client),
    relay,
    maxBodyBytes: 1024 * 1024,
    ...(inputRoundTtlMs !== undefined ? { inputRoundTtlMs } : {}),
  });
  cleanups.push(() => running.close());
  return running;
}

async function modernAgent(running: RunningGateway, asked: string[]): Promise<SdkV2.Client> {
  const client = new SdkV2.Client(
    { name: 'agent-v2', version: '2.4.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      capabilities: { sampling: {}, elicitation: { form: {} } },
    },
  );
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
    new SdkV2.StreamableHTTPClientTransport(new URL(running.url), { requestInit: { headers: running.headers } }),
  );
  cleanups.push(() => client.close());
  return client;
}

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((item) => item.text ?? '').join('');
}

/** One raw 2026-07-28 request to the gateway; its JSON-RPC answer. */
async function modernPost(running: RunningGateway, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await fetch(running.url, {
    method: 'POST',
    headers: {
      ...running.headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': String(params.name),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: globalThis.crypto.randomUUID(),
      method: 'tools/call',
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, sampling: {} },
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        },
      },
    }),
  });
  const text = await response.text();
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice(6));
  return JSON.parse(data.at(-1) ?? text) as Record<string, unknown>;
}

describe('input-required rounds for 2026-07-28 agents', () => {
  test("a 2026-07-28 server's elicitation and sampling rounds reach the 2026-07-28 agent that declared them", async () => {
    const running = await gatewayTo([MODERN_FIXTURE, '--transport', 'stdio', '--legacy', 'reject']);
    const asked: string[] = [];
    const agent = await modernAgent(running, asked);
    hostAsked.length = 0;
    const result = await agent.callTool({ name: 'greet_with_input', arguments: {} });
    assert.equal(textOf(result), 'Hello, Ada! (Ada)');
    assert.equal(asked[0], 'elicit: Who are you?');
    assert.ok(asked.includes('sample: Say hello to Ada'), asked.join('; '));
    assert.deepEqual(hostAsked, [], 'the host was asked nothing');
    assert.equal(running.gateway.relayedCalls, 0, 'no call is left waiting');
  });

  test("a handshake server's sampling request during a 2026-07-28 agent's call reaches the agent as a round", async () => {
    const running = await gatewayTo([EVERYTHING_SERVER]);
    const asked: string[] = [];
    const agent = await modernAgent(running, asked);
    hostAsked.length = 0;
    const result = await agent.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hi' } });
    assert.match(JSON.stringify(result), /Hello, Ada!/);
    assert.deepEqual(asked, ['sample: Resource trigger-sampling-request context: hi']);
    assert.deepEqual(hostAsked, []);
  });

  test('the requestState is sealed: a forged, altered or foreign one is refused, and the real one answers once', async () => {
    const running = await gatewayTo([MODERN_FIXTURE, '--transport', 'stdio', '--legacy', 'reject']);
    const first = await modernPost(running, { name: 'greet_with_input', arguments: {} });
    const round = first.result as { resultType: string; inputRequests: Record<string, unknown>; requestState: string };
    assert.equal(round.resultType, 'input_required');
    const [key] = Object.keys(round.inputRequests);
    assert.match(JSON.stringify(round.inputRequests[key]), /Who are you\?/);
    const answers = { [key]: { action: 'accept', content: { name: 'Ada' } } };
    for (const requestState of [
      'v1.e30.AAAA',
      `${round.requestState.slice(0, -2)}${round.requestState.endsWith('A') ? 'BB' : 'AA'}`,
      'x'.repeat(5000),
    ]) {
      const refused = await modernPost(running, {
        name: 'greet_with_input',
        arguments: {},
        inputResponses: answers,
        requestState,
      });
      assert.equal((refused.error as { code?: number } | undefined)?.code, -32602, JSON.stringify(refused));
    }
    const next = await modernPost(running, {
      name: 'greet_with_input',
      arguments: {},
      inputResponses: answers,
      requestState: round.requestState,
    });
    const second = next.result as { resultType: string; requestState: string };
    assert.equal(second.resultType, 'input_required', JSON.stringify(next));
    // The first round's state was spent: replaying it is refused.
    const replay = await modernPost(running, {
      name: 'greet_with_input',
      arguments: {},
      inputResponses: answers,
      requestState: round.requestState,
    });
    assert.equal((replay.error as { code?: number } | undefined)?.code, -32602, JSON.stringify(replay));
  });

  test("a call whose agent does not come back within the round's time ends, and its requestState is refused after", async () => {
    const running = await gatewayTo([MODERN_FIXTURE, '--transport', 'stdio', '--legacy', 'reject'], 300);
    const first = await modernPost(running, { name: 'greet_with_input', arguments: {} });
    const round = first.result as { resultType: string; inputRequests: Record<string, unknown>; requestState: string };
    assert.equal(round.resultType, 'input_required');
    assert.equal(running.gateway.relayedCalls, 1);
    await waitFor(() => running.gateway.relayedCalls === 0, 'the unanswered call ended', 5_000);
    const [key] = Object.keys(round.inputRequests);
    const late = await modernPost(running, {
      name: 'greet_with_input',
      arguments: {},
      inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } },
      requestState: round.requestState,
    });
    assert.equal((late.error as { code?: number } | undefined)?.code, -32602, JSON.stringify(late));
  });
});
