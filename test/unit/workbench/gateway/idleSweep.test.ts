/**
 * The gateway's sweep of idle sessions (issue 42: an idle editor stays idle): no timer while no agent session is
 * open, one wakeup a period (at most a minute) while one is, none again after the last ends. Fake timers for the
 * sweep itself; the Gateway's use of it with a spy on setInterval and a session opened through `fetch`.
 */
import assert from 'node:assert/strict';
import { afterEach, mock, test } from 'node:test';
import { Emitter } from '../../../../src/protocol/disposable';
import type { ServerSession } from '../../../../src/protocol/eras/era';
import type { JsonObject, LogMessage } from '../../../../src/protocol/types';
import { Gateway } from '../../../../src/workbench/gateway/gateway';
import { GatewayHostRelay } from '../../../../src/workbench/gateway/hostRelay';
import { IdleSweep } from '../../../../src/workbench/gateway/idleSweep';
import type { GatewayUpstream } from '../../../../src/workbench/gateway/upstream';

afterEach(() => mock.timers.reset());

test('the sweep wakes only while a session is open, once a period', () => {
  mock.timers.enable({ apis: ['setInterval'] });
  let sweeps = 0;
  const sweep = new IdleSweep(60_000, () => sweeps++);
  mock.timers.tick(60 * 60_000);
  assert.equal(sweeps, 0, 'no session: an hour without a wakeup');
  assert.equal(sweep.armed, false);

  sweep.sessionsOpen(1);
  sweep.sessionsOpen(2); // a second session arms no second timer
  mock.timers.tick(5 * 60_000);
  assert.equal(sweeps, 5, 'one sweep a minute while sessions are open');

  sweep.sessionsOpen(0);
  assert.equal(sweep.armed, false);
  mock.timers.tick(60 * 60_000);
  assert.equal(sweeps, 5, 'the last session ended: no wakeup after');

  sweep.dispose();
  sweep.sessionsOpen(1); // a session that finished opening while the gateway closed
  assert.equal(sweep.armed, false, 'a disposed sweep arms nothing');
});

class QuietUpstream implements GatewayUpstream {
  readonly name = 'quiet';
  private readonly never = new Emitter<void>();
  private readonly neverUri = new Emitter<string>();
  private readonly neverLog = new Emitter<LogMessage>();
  session(): ServerSession {
    return {
      kind: 'handshake',
      protocolVersion: '2025-11-25',
      capabilities: { tools: {} },
      serverInfo: { name: 'quiet-server', version: '1.0.0' },
    };
  }
  request = async (): Promise<JsonObject> => ({ tools: [] });
  ping = async () => undefined;
  subscribe = async () => undefined;
  unsubscribe = async () => undefined;
  setLogLevel = async () => undefined;
  onToolsChanged = this.never.event;
  onPromptsChanged = this.never.event;
  onResourcesChanged = this.never.event;
  onResourceUpdated = this.neverUri.event;
  onLogMessage = this.neverLog.event;
}

/** Every interval armed while it runs and not cleared since. */
function liveIntervals(): { live: Set<unknown>; restore(): void } {
  const realSet = globalThis.setInterval;
  const realClear = globalThis.clearInterval;
  const live = new Set<unknown>();
  globalThis.setInterval = ((callback: () => void, ms?: number) => {
    const handle = realSet(callback, ms);
    live.add(handle);
    return handle;
  }) as typeof setInterval;
  globalThis.clearInterval = ((handle: Parameters<typeof clearInterval>[0]) => {
    live.delete(handle);
    realClear(handle);
  }) as typeof clearInterval;
  return {
    live,
    restore: () => {
      globalThis.setInterval = realSet;
      globalThis.clearInterval = realClear;
    },
  };
}

test('a gateway arms its sweep with the first agent session and clears it with the last', async () => {
  const intervals = liveIntervals();
  const gateway = new Gateway({ upstream: new QuietUpstream(), relay: new GatewayHostRelay({}), maxBodyBytes: 65536 });
  try {
    assert.equal(intervals.live.size, 0, 'a gateway without agents arms no timer');
    const body = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'agent', version: '1.0.0' } },
    };
    const response = await gateway.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(body),
      }),
      body,
    );
    await response.body?.cancel();
    const id = response.headers.get('mcp-session-id');
    assert.ok(id, `a session was opened (${response.status})`);
    assert.equal(gateway.sessionCount, 1);
    assert.equal(intervals.live.size, 1, 'the sweep runs while a session is open');
    assert.equal(await gateway.disconnect(id), true);
    assert.equal(intervals.live.size, 0, 'the last session ended: the sweep stopped');
  } finally {
    await gateway.close();
    intervals.restore();
  }
});
