/**
 * What the connection keeps per request in flight (issue 42), counted, never timed: requests waiting behind one send
 * promise (a pipe that is full hands the whole burst its one drain wait) share one failure handler, and a caller's
 * ResponseReader reads the outcome in the turn the request settles, in place of a `then` of its own. The behaviour
 * around both is checked with them: a send that fails still fails every request behind it; a reader's answer and its
 * throw are what the request's promise settles with, for responses, for local failures and for a closed connection.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { LocalError, McpError } from '../../../../src/protocol/errors';
import type { ResponseReader } from '../../../../src/protocol/jsonrpc/outgoingRequest';
import { RpcConnection } from '../../../../src/protocol/jsonrpc/rpcConnection';
import { SENT } from '../../../../src/protocol/jsonrpc/sent';
import type { Disposable } from '../../../../src/protocol/disposable';
import type { Transport, TransportSink } from '../../../../src/protocol/transports/transport';
import { promisesMadeBy } from '../../../support/promiseCount';

/** A transport the test drives: send() answers with `sendResult()` (SENT unless the test says otherwise). */
class DrivenTransport implements Transport {
  readonly kind = 'stdio' as const;
  readonly sent: Array<{ id?: number; method?: string }> = [];
  sendResult: () => Promise<void> = () => SENT;
  sink: TransportSink | undefined;

  start(sink: TransportSink): Promise<void> {
    this.sink = sink;
    return Promise.resolve();
  }

  send(message: object): Promise<void> {
    this.sent.push(message as { id?: number; method?: string });
    return this.sendResult();
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
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function started(): Promise<{ rpc: RpcConnection; transport: DrivenTransport }> {
  const transport = new DrivenTransport();
  const rpc = new RpcConnection(transport, { serverName: 'driven', defaultTimeoutMs: 60_000 });
  cleanups.push(() => rpc.close());
  await rpc.start();
  return { rpc, transport };
}

describe('requests behind one pending send', () => {
  it('share one failure handler: a burst of N requests makes N promises and one more', async () => {
    const { rpc, transport } = await started();
    let failDrain: (error: Error) => void = () => undefined;
    const drain = new Promise<void>((_resolve, reject) => (failDrain = reject));
    transport.sendResult = () => drain;
    const count = 1000;
    const { value: calls, promises } = promisesMadeBy(() =>
      Array.from({ length: count }, (_, i) =>
        rpc.request('hang', { i }).then(
          () => assert.fail('a request behind a failed send cannot succeed'),
          (error: unknown) => error,
        ),
      ),
    );
    // Each call's own `.then` above is the test's: count - its promises is what the connection made.
    assert.equal(promises - count, count + 1, 'one promise per request and one handler for the shared send');
    assert.equal(rpc.bookkeeping.pending, count);

    const broken = new LocalError('transport', 'the pipe broke');
    failDrain(broken);
    const errors = await Promise.all(calls);
    assert.ok(
      errors.every((error) => error === broken),
      'every request behind the send fails with its error',
    );
    assert.equal(rpc.bookkeeping.pending, 0);
    assert.equal(rpc.bookkeeping.deadlines, 0);
  });

  it('a new send promise after the last one settled is watched on its own', async () => {
    const { rpc, transport } = await started();
    let settleFirst: () => void = () => undefined;
    const first = new Promise<void>((resolve) => (settleFirst = resolve));
    transport.sendResult = () => first;
    const before = rpc.request('one');
    settleFirst();
    await first;
    const broken = new LocalError('transport', 'the second send failed');
    transport.sendResult = () => Promise.reject(broken);
    await assert.rejects(rpc.request('two'), (error: unknown) => error === broken);
    transport.sink?.onMessage({ jsonrpc: '2.0', id: transport.sent[0].id, result: { first: true } });
    assert.deepEqual(await before, { first: true }, 'the request behind the send that succeeded is answered');
  });
});

describe('a ResponseReader', () => {
  const reader: ResponseReader = {
    onResult: (result) => {
      if (result.bad === true) throw new LocalError('invalid-result', 'read as bad');
      return { read: result };
    },
    onError: (error) => {
      if (error instanceof McpError && error.code === -1) return { recovered: error.rawMessage };
      throw new LocalError('protocol-violation', `read: ${error.message}`);
    },
  };

  it('makes the promise settle with what it reads, in the turn the response arrives', async () => {
    const { rpc, transport } = await started();
    const { value: answered, promises } = promisesMadeBy(() => rpc.request('a', undefined, undefined, reader));
    assert.equal(promises, 1, 'the request is its promise alone');
    const read: unknown[] = [];
    void answered.then((value) => read.push(value));
    transport.sink?.onMessage({ jsonrpc: '2.0', id: transport.sent[0].id, result: { x: 1 } });
    assert.deepEqual(await answered, { read: { x: 1 } });
    assert.deepEqual(read, [{ read: { x: 1 } }]);

    const refused = rpc.request('b', undefined, undefined, reader);
    transport.sink?.onMessage({ jsonrpc: '2.0', id: transport.sent[1].id, result: { bad: true } });
    await assert.rejects(refused, /read as bad/);

    const recovered = rpc.request('c', undefined, undefined, reader);
    transport.sink?.onMessage({ jsonrpc: '2.0', id: transport.sent[2].id, error: { code: -1, message: 'gone' } });
    assert.deepEqual(await recovered, { recovered: 'gone' });
  });

  it('reads local failures too: a cancel, and a request on a closed connection', async () => {
    const { rpc } = await started();
    const controller = new AbortController();
    const cancelled = rpc.request('hang', undefined, { signal: controller.signal }, reader);
    controller.abort();
    await assert.rejects(cancelled, /read: hang was cancelled/);
    await rpc.close();
    await assert.rejects(rpc.request('late', undefined, undefined, reader), /read: driven: connection closed/);
  });
});
