/**
 * Per-id bookkeeping stays bounded however many requests are cancelled, from either side: the client cancelling
 * thousands of its own requests, and a peer cancelling ids it never sent or requests already settled. Real
 * pipe, real peer process (test/fixtures/processes/bookkeeping-server.mjs); sizes come from
 * RpcConnection.bookkeeping, never from timing.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Disposable } from '../../../../src/protocol/disposable';
import { LocalError, McpError } from '../../../../src/protocol/errors';
import { DeadlineTimer, UNARMED } from '../../../../src/protocol/jsonrpc/deadlines';
import { ABANDONED_MEMORY, RpcConnection } from '../../../../src/protocol/jsonrpc/rpcConnection';
import { StdioTransport } from '../../../../src/protocol/node/stdio';
import type { Transport, TransportSink } from '../../../../src/protocol/transports/transport';
import { REPO_ROOT } from '../../../support/testSupport';

const PEER = path.join(REPO_ROOT, 'test', 'fixtures', 'processes', 'bookkeeping-server.mjs');

describe('bookkeeping over a real pipe', () => {
  let rpc: RpcConnection;

  before(async () => {
    rpc = new RpcConnection(new StdioTransport({ command: process.execPath, args: [PEER], shutdownGraceMs: 500 }), {
      serverName: 'bookkeeping-peer',
    });
    rpc.setRequestHandler('ping', () => ({}));
    await rpc.start();
  });

  after(async () => {
    await rpc.close();
  });

  test(
    'cancelling 10,000 requests leaves nothing pending and a capped memory of abandoned ids',
    { timeout: 60_000 },
    async () => {
      const count = 10_000;
      const controller = new AbortController();
      const calls = Array.from({ length: count }, (_, i) =>
        rpc
          .request('hang', { i }, { signal: controller.signal, ...(i % 2 ? { onProgress: () => undefined } : {}) })
          .then(
            () => assert.fail('a hanging request cannot succeed'),
            (error: unknown) => error,
          ),
      );
      assert.equal(rpc.bookkeeping.pending, count, 'all in flight before the cancel');
      assert.equal(rpc.bookkeeping.deadlines, count);
      controller.abort();
      const errors = await Promise.all(calls);
      assert.ok(errors.every((error) => error instanceof LocalError && error.kind === 'cancelled'));

      const sizes = rpc.bookkeeping;
      assert.equal(sizes.pending, 0);
      assert.equal(sizes.deadlines, 0);
      assert.equal(sizes.progressHandlers, 0);
      assert.equal(sizes.abandoned, ABANDONED_MEMORY, `capped at ${ABANDONED_MEMORY}, not ${count}`);
      assert.deepEqual(await rpc.request('echo'), {}, 'the connection still works');
    },
  );

  test(
    "a peer's cancellations of unknown ids are not remembered; its cancelled requests get no response",
    { timeout: 60_000 },
    async () => {
      await rpc.request('flood', { unknownCancels: 10_000, cancelledPings: 1000 });
      const sizes = rpc.bookkeeping;
      assert.equal(sizes.cancelledIncoming, 0, 'no cancellation outlives its request, none is kept for an unknown id');
      assert.equal(sizes.incomingRequests, 0, 'every request of the peer was answered or dropped');
      assert.deepEqual(await rpc.request('report'), { pingResponses: 0 }, 'a cancelled request is not answered');
    },
  );
});

describe('DeadlineTimer', () => {
  const target = (onDeadline: () => void) => ({ onDeadline, ...UNARMED });

  test('cancelled deadlines leave at once, in any order, and the heap holds at most about twice the waiting ones', () => {
    const timer = new DeadlineTimer();
    const never = Array.from({ length: 10_000 }, () => target(() => assert.fail('cancelled deadline fired')));
    never.forEach((each, i) => timer.schedule(60_000 + (i % 97) * 10, each));
    assert.equal(timer.size, 10_000);
    let largestHeap = 0;
    for (let i = 0; i < never.length; i += 2) {
      timer.cancel(never[i]);
      largestHeap = Math.max(largestHeap, timer.heapSize);
      assert.ok(timer.heapSize <= 2 * timer.size + 65, `heap ${timer.heapSize} for ${timer.size} waiting`);
    }
    for (let i = never.length - 1; i > 0; i -= 2) {
      timer.cancel(never[i]);
      assert.ok(timer.heapSize <= 2 * timer.size + 65, `heap ${timer.heapSize} for ${timer.size} waiting`);
    }
    timer.cancel(never[0]); // twice: no effect
    assert.equal(timer.size, 0);
    assert.equal(timer.heapSize, 0);
    assert.equal(largestHeap, 10_000, 'positive control: entries were held until swept');
    timer.dispose();
  });

  test('deadlines fire in deadline order, not scheduling order; a cancelled one never fires; a re-armed one fires once', async () => {
    const timer = new DeadlineTimer();
    const fired: string[] = [];
    const named = (name: string) => target(() => void fired.push(name));
    const done = new Promise<void>((resolve) => {
      timer.schedule(
        40,
        target(() => {
          fired.push('late');
          resolve();
        }),
      );
    });
    const cancelled = named('cancelled');
    timer.schedule(5, cancelled);
    timer.schedule(20, named('middle'));
    timer.schedule(1, named('early'));
    const rearmed = named('rearmed');
    timer.schedule(2, rearmed);
    timer.schedule(30, rearmed);
    timer.cancel(cancelled);
    await done;
    assert.deepEqual(fired, ['early', 'middle', 'rearmed', 'late']);
    assert.equal(timer.size, 0);
  });
});

/**
 * A transport of the smallest kind, for what a real pipe cannot be made to do on demand: refuse a write while the
 * connection is open, or answer inside send() itself (as an in-memory peer may).
 */
class ScriptedTransport implements Transport {
  readonly kind = 'stdio' as const;
  private sink: TransportSink | undefined;
  constructor(private readonly onSend: (message: Record<string, unknown>, sink: TransportSink) => Promise<void>) {}
  async start(sink: TransportSink): Promise<void> {
    this.sink = sink;
  }
  send(message: object): Promise<void> {
    return this.onSend(message as Record<string, unknown>, this.sink as TransportSink);
  }
  async close(): Promise<void> {
    this.sink?.onClose();
  }
  onDiagnostic(): Disposable {
    return { dispose: () => undefined };
  }
  dispose(): void {}
}

describe('requests settle however their write or response goes', () => {
  test("a refused write fails the request with the transport's own error, and leaves nothing behind", async () => {
    const refusal = new LocalError('connection-closed', 'the server closed its input');
    const rpc = new RpcConnection(new ScriptedTransport(() => Promise.reject(refusal)), { serverName: 'refusing' });
    await rpc.start();
    await assert.rejects(rpc.request('tools/list'), (error: unknown) => error === refusal);
    const { pending, deadlines, abandoned } = rpc.bookkeeping;
    assert.deepEqual({ pending, deadlines, abandoned }, { pending: 0, deadlines: 0, abandoned: 0 });
    await rpc.close();
  });

  test('a write refused with a non-error names the server and the method', async () => {
    const rpc = new RpcConnection(new ScriptedTransport(() => Promise.reject('pipe gone')), { serverName: 'refusing' });
    await rpc.start();
    await assert.rejects(rpc.request('tools/list'), (error: unknown) => {
      assert.ok(error instanceof LocalError && error.kind === 'transport', String(error));
      assert.match(error.message, /refusing: sending tools\/list failed: pipe gone/);
      return true;
    });
    await rpc.close();
  });

  test('a response delivered during send() settles its request, result and error alike', async () => {
    const rpc = new RpcConnection(
      new ScriptedTransport(async (message, sink) => {
        if (message.method === 'good') sink.onMessage({ jsonrpc: '2.0', id: message.id, result: { ok: true } });
        else
          sink.onMessage({
            jsonrpc: '2.0',
            id: message.id,
            error: { code: -32042, message: 'nope', data: { why: 'test' } },
          });
      }),
      { serverName: 'eager' },
    );
    await rpc.start();
    assert.deepEqual(await rpc.request('good'), { ok: true });
    await assert.rejects(rpc.request('bad'), (error: unknown) => {
      assert.ok(error instanceof McpError, String(error));
      assert.deepEqual(
        [error.code, error.rawMessage, error.data, error.serverName],
        [-32042, 'nope', { why: 'test' }, 'eager'],
      );
      return true;
    });
    const { pending, deadlines } = rpc.bookkeeping;
    assert.deepEqual(
      { pending, deadlines },
      { pending: 0, deadlines: 0 },
      'no deadline is armed for a request already answered',
    );
    await rpc.close();
  });
});
