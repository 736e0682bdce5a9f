/**
 * What a tools/call in flight holds (issue 42): the connection's promise and nothing chained onto it. Every layer
 * that used to add a `then` (the request loop reading the era's verdict, callTool checking the result) held a derived
 * promise, a reaction and closures per call for as long as the call was in flight, and a burst of 10,000 calls kept
 * 10,000 of each. Counted with async_hooks over a transport that takes every message at once (as a pipe does), so
 * the count is exact; the results and the errors of the calls are checked too, so the count is of calls that work.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { McpClient } from '../../../src/protocol/client';
import { LocalError, McpError } from '../../../src/protocol/errors';
import { SENT } from '../../../src/protocol/jsonrpc/sent';
import type { Disposable } from '../../../src/protocol/disposable';
import type { Transport, TransportSink } from '../../../src/protocol/transports/transport';
import { promisesMadeBy } from '../../support/promiseCount';

/** A transport whose send() takes each message at once (SENT, as StdioTransport when its pipe takes the line). */
class TakingTransport implements Transport {
  readonly kind = 'stdio' as const;
  readonly sent: Array<{ id?: number; method?: string; params?: Record<string, unknown> }> = [];
  private sink: TransportSink | undefined;

  start(sink: TransportSink): Promise<void> {
    this.sink = sink;
    return Promise.resolve();
  }

  send(message: object): Promise<void> {
    this.sent.push(message as { id?: number; method?: string });
    return SENT;
  }

  close(): Promise<void> {
    this.sink?.onClose();
    return Promise.resolve();
  }

  onDiagnostic(): Disposable {
    return { dispose: () => undefined };
  }

  dispose(): void {
    void this.close();
  }

  /** The server's answer to the request sent with `id`. */
  answer(id: number | undefined, result: Record<string, unknown>): void {
    this.sink?.onMessage({ jsonrpc: '2.0', id, result });
  }

  /** The server's error answer to the request sent with `id`. */
  refuse(id: number | undefined, error: { code: number; message: string }): void {
    this.sink?.onMessage({ jsonrpc: '2.0', id, error });
  }

  /** The request sent last with `method`. */
  last(method: string): { id?: number; method?: string; params?: Record<string, unknown> } {
    const found = this.sent.filter((message) => message.method === method).at(-1);
    assert.ok(found, `no ${method} was sent`);
    return found;
  }
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function connectedClient(): Promise<{ client: McpClient; transport: TakingTransport }> {
  const transport = new TakingTransport();
  const client = new McpClient({ serverName: 'taking', transport, requestTimeoutMs: 60_000 });
  cleanups.push(() => client.close());
  const connecting = client.connect();
  // The handshake: initialize is written in a later turn (after the transport started).
  await new Promise((resolve) => setImmediate(resolve));
  transport.answer(transport.last('initialize').id, {
    protocolVersion: '2025-11-25',
    capabilities: { tools: {} },
    serverInfo: { name: 'taking', version: '1.0.0' },
  });
  await connecting;
  return { client, transport };
}

describe('a tools/call in flight', () => {
  it('is one promise, however many layers read and check its result', async () => {
    const { client, transport } = await connectedClient();
    const calls = 100;
    const { value: pending, promises } = promisesMadeBy(() =>
      Array.from({ length: calls }, (_, i) => client.callTool('echo', { text: `hello ${i}` })),
    );
    assert.equal(promises, calls, `one promise per call in flight, not ${promises / calls}`);
    const requests = transport.sent.filter((message) => message.method === 'tools/call');
    assert.equal(requests.length, calls);
    for (const request of requests) {
      const { text } = request.params?.arguments as { text: string };
      transport.answer(request.id, { content: [{ type: 'text', text }] });
    }
    const outcomes = await Promise.all(pending);
    outcomes.forEach((outcome, i) => assert.deepEqual(outcome.result.content, [{ type: 'text', text: `hello ${i}` }]));
  });

  it('still gets the result check: a result without a content array rejects with the tool named', async () => {
    const { client, transport } = await connectedClient();
    const call = client.callTool('broken', {});
    transport.answer(transport.last('tools/call').id, { nothing: true });
    await assert.rejects(call, (error: unknown) => {
      assert.ok(error instanceof LocalError && error.kind === 'protocol-violation');
      assert.equal(error.message, 'taking: tools/call result for broken has no content array');
      return true;
    });
  });

  it('still fails with the server error as the era reads it', async () => {
    const { client, transport } = await connectedClient();
    const call = client.callTool('missing', {});
    transport.refuse(transport.last('tools/call').id, { code: -32602, message: 'Unknown tool: missing' });
    await assert.rejects(call, (error: unknown) => {
      assert.ok(error instanceof McpError && error.code === -32602);
      assert.match(error.message, /Unknown tool: missing/);
      return true;
    });
  });
});
