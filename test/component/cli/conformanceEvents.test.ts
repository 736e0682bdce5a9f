/**
 * The conformance repository's Events client scenarios (modelcontextprotocol/conformance `src/scenarios/client/events/`
 * at commits 375f6da28cf5ee6b3bfcbbec46bb99a7427260b4 (poll, webhook, no-extension, helpers) and
 * a293f4ef767a3723eb7c6e201a25c9ba299e2871 (push)), which no released suite carries (0.2.0-alpha.12 is the newest):
 * a peer of ours plays each scenario's server as the scenario does (the same descriptors, scripted answers, grant
 * lengths, heartbeat timing and `durationMs` context) and grades the same checks, against `dist/cli.js conformance`
 * started as the suite starts a client (MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_CONTEXT, the URL appended).
 * Written from their checks; none of their code is copied here.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { CLI_PATH } from '../../support/cliRun';
import { repoRoot } from '../../support/paths';

const EXT = 'io.modelcontextprotocol/events';
const SUB = 'io.modelcontextprotocol/subscriptionId';
const REPLAY = 'conformance.ticks';
const CURSORLESS = 'conformance.cursorless';

type Mode = 'poll' | 'push' | 'webhook';
type Json = Record<string, unknown>;
interface Recorded {
  method: string;
  params: Json;
  at: number;
}

/** What a scenario's server does beyond discover and events/list; answers whether it handled the request. */
type Handler = (request: Json, res: http.ServerResponse, peer: Peer) => boolean;

class Peer {
  readonly requests: Recorded[] = [];
  private server: http.Server | undefined;
  readonly timers = new Set<NodeJS.Timeout>();
  private readonly sessionId = `session-${Date.now()}`;

  constructor(
    private readonly mode: Mode,
    private readonly settings: Json | undefined,
    private readonly handler: Handler,
  ) {}

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => this.serve(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, resolve));
    return `http://localhost:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  for(method: string, name?: string): Recorded[] {
    return this.requests.filter((r) => r.method === method && (name === undefined || r.params.name === name));
  }

  json(res: http.ServerResponse, body: Json): void {
    res.writeHead(200, { 'Content-Type': 'application/json', 'mcp-session-id': this.sessionId });
    res.end(JSON.stringify(body));
  }

  sse(res: http.ServerResponse): (message: Json) => void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'mcp-session-id': this.sessionId,
    });
    return (message) => void (!res.writableEnded && res.write(`data: ${JSON.stringify(message)}\n\n`));
  }

  private serve(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (req.method === 'GET') {
      this.sse(res)({});
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(req.method === 'DELETE' ? 200 : 405).end();
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const request = JSON.parse(body) as Json;
      const params = (request.params ?? {}) as Json;
      this.requests.push({ method: String(request.method), params, at: Date.now() });
      if (request.method === 'server/discover') {
        const capabilities =
          this.settings === undefined ? { tools: {} } : { tools: {}, extensions: { [EXT]: this.settings } };
        this.json(res, {
          jsonrpc: '2.0',
          id: request.id,
          result: {
            resultType: 'complete',
            supportedVersions: ['2026-07-28'],
            capabilities,
            serverInfo: { name: 'events-peer', version: '1.0.0' },
          },
        });
        return;
      }
      if (request.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      if (request.method === 'events/list') {
        const describe = (name: string) => ({
          name,
          description: name === REPLAY ? 'A counter that replays from a cursor.' : 'No history: every cursor is null.',
          delivery: [this.mode],
          inputSchema: { type: 'object', properties: {} },
        });
        this.json(res, {
          jsonrpc: '2.0',
          id: request.id,
          result: { events: [describe(REPLAY), describe(CURSORLESS)] },
        });
        return;
      }
      if (this.handler(request, res, this)) return;
      this.json(res, { jsonrpc: '2.0', id: request.id, result: { resultType: 'complete' } });
    });
  }
}

/** Runs the CLI as the suite does and waits for it to exit; answers its exit code and stderr. */
function runClient(url: string, scenario: string, durationMs: number): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI_PATH, 'conformance', url],
      {
        cwd: repoRoot,
        timeout: 30_000,
        killSignal: 'SIGKILL',
        env: {
          ...process.env,
          MCP_CONFORMANCE_SCENARIO: scenario,
          MCP_CONFORMANCE_CONTEXT: JSON.stringify({ durationMs }),
          // The suite names its latest dated revision when run without --spec-version.
          MCP_CONFORMANCE_PROTOCOL_VERSION: '2025-11-25',
        },
      },
      (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
    ).stdin?.end();
  });
}

const cursorOf = (params: Json): unknown => (params.cursor === undefined ? null : params.cursor);
const occurrence = (name: string, eventId: string, cursor: string | null) => ({
  eventId,
  name,
  timestamp: new Date().toISOString(),
  data: { eventId },
  cursor,
});

describe('the Events client scenarios of the conformance repository, played by our peer', { concurrency: 1 }, () => {
  test(
    'events-client-poll: drain on hasMore, nextPollMs, the floor, the fresh cursor, re-list, null and absent cursors',
    { timeout: 40_000 },
    async () => {
      let listChangedAt: number | undefined;
      const peer = new Peer('poll', { listChanged: true }, (request, res, self) => {
        if (request.method !== 'events/poll') return false;
        const params = request.params as Json;
        const step = self.for('events/poll', String(params.name)).length - 1;
        const reply = (result: Json) => self.json(res, { jsonrpc: '2.0', id: request.id, result });
        if (params.name === CURSORLESS) {
          const result: Json = {
            events: step === 0 ? [occurrence(CURSORLESS, 'cursorless-1', null)] : [],
            hasMore: false,
            nextPollMs: 1000,
          };
          if (step === 0) result.cursor = null; // later answers omit the field
          reply(result);
          return true;
        }
        if (step === 0)
          reply({
            events: [occurrence(REPLAY, 'tick-1', 'tick-1')],
            cursor: 'tick-1',
            hasMore: true,
            nextPollMs: 3000,
          });
        else if (step === 1)
          reply({
            events: [occurrence(REPLAY, 'tick-2', 'tick-2')],
            cursor: 'tick-2',
            hasMore: false,
            nextPollMs: 2000,
          });
        else if (step === 2) reply({ events: [], cursor: 'tick-3', hasMore: false, nextPollMs: 0 });
        else if (step === 3)
          reply({ events: [], cursor: 'tick-fresh', truncated: true, hasMore: false, nextPollMs: 0 });
        else if (step === 4) {
          const send = self.sse(res);
          send({ jsonrpc: '2.0', method: 'notifications/events/list_changed' });
          listChangedAt = Date.now();
          send({
            jsonrpc: '2.0',
            id: request.id,
            result: { events: [], cursor: 'tick-5', hasMore: false, nextPollMs: 1000 },
          });
          res.end();
        } else reply({ events: [], cursor: 'tick-6', hasMore: false, nextPollMs: 1000 });
        return true;
      });
      const url = await peer.start();
      try {
        const run = await runClient(url, 'events-client-poll', 10_000);
        assert.equal(run.code, 0, run.stderr);
        const ticks = peer.for('events/poll', REPLAY);
        const gap = (i: number) => ticks[i + 1].at - ticks[i].at;
        assert.ok(ticks.length >= 5, run.stderr);
        assert.ok(gap(0) < 1000, `drain on hasMore: ${gap(0)} ms`);
        assert.ok(gap(1) >= 2000 * 0.9, `nextPollMs 2000: ${gap(1)} ms`);
        assert.ok(gap(2) >= 1000 * 0.9, `the 1000 ms floor: ${gap(2)} ms`);
        assert.equal(cursorOf(ticks[4].params), 'tick-fresh');
        assert.ok(
          listChangedAt !== undefined && peer.for('events/list').some((r) => r.at >= (listChangedAt ?? 0)),
          're-listed',
        );
        const cursorless = peer.for('events/poll', CURSORLESS);
        assert.ok(cursorless.length >= 3, 'kept polling after an answer without a cursor');
        assert.deepEqual(
          cursorless.slice(1).filter((r) => cursorOf(r.params) !== null),
          [],
          'a null cursor is never replayed',
        );
      } finally {
        await peer.stop();
      }
    },
  );

  test(
    'events-client-push: a stream silent after its heartbeats is reopened with the last heartbeat’s cursor',
    { timeout: 40_000 },
    async () => {
      const lastCursor = new Map<string, string | null>();
      const peer = new Peer('push', {}, (request, res, self) => {
        if (request.method !== 'events/stream') return false;
        const name = String((request.params as Json).name);
        const first = self.for('events/stream', name).length === 1;
        const meta = { [SUB]: request.id };
        const send = self.sse(res);
        let n = 0;
        const position = () => (name === REPLAY ? `p-${n}` : null);
        send({
          jsonrpc: '2.0',
          method: 'notifications/events/active',
          params: { cursor: position(), truncated: false, _meta: meta },
        });
        send({
          jsonrpc: '2.0',
          method: 'notifications/events/event',
          params: { ...occurrence(name, `${name}-1`, position()), data: {}, _meta: meta },
        });
        const timer = setInterval(() => {
          if (first && n >= 4) {
            clearInterval(timer);
            return;
          }
          n++;
          send({
            jsonrpc: '2.0',
            method: 'notifications/events/heartbeat',
            params: { cursor: position(), _meta: meta },
          });
          if (first) lastCursor.set(name, position());
        }, 500);
        self.timers.add(timer);
        res.on('close', () => clearInterval(timer));
        return true;
      });
      const url = await peer.start();
      try {
        const run = await runClient(url, 'events-client-push', 9_000);
        assert.equal(run.code, 0, run.stderr);
        const ticks = peer.for('events/stream', REPLAY);
        assert.ok(ticks.length >= 2, `reconnected within the run: ${run.stderr}`);
        assert.equal(cursorOf(ticks[1].params), lastCursor.get(REPLAY));
        const later = peer.for('events/stream', CURSORLESS).slice(1);
        assert.ok(later.length >= 1);
        assert.deepEqual(
          later.filter((r) => cursorOf(r.params) !== null),
          [],
        );
      } finally {
        await peer.stop();
      }
    },
  );

  test(
    'events-client-webhook: events/subscribe again with the same key before each 2.5 s grant ends',
    { timeout: 40_000 },
    async () => {
      const grants: number[] = [];
      const peer = new Peer('webhook', {}, (request, res, self) => {
        if (request.method !== 'events/subscribe') return false;
        const name = String((request.params as Json).name);
        const n = self.for('events/subscribe', name).length;
        const refreshBefore = Date.now() + 2500;
        if (name === REPLAY) grants.push(refreshBefore);
        self.json(res, {
          jsonrpc: '2.0',
          id: request.id,
          result: {
            id: `sub-${name}`,
            cursor: name === REPLAY ? `w-${n}` : null,
            refreshBefore: new Date(refreshBefore).toISOString(),
          },
        });
        return true;
      });
      const url = await peer.start();
      try {
        const run = await runClient(url, 'events-client-webhook', 8_000);
        assert.equal(run.code, 0, run.stderr);
        const subs = peer.for('events/subscribe', REPLAY);
        assert.ok(subs.length >= 3, run.stderr);
        const key = (r: Recorded) =>
          JSON.stringify([(r.params.delivery as Json | undefined)?.url, r.params.name, r.params.arguments ?? {}]);
        subs.slice(1).forEach((r, i) => {
          assert.ok(r.at < grants[i], `refresh ${i + 1} came ${r.at - grants[i]} ms after the grant expired`);
          assert.equal(key(r), key(subs[0]), 'the same subscription key');
          assert.equal(cursorOf(r.params), `w-${i + 1}`, 'the cursor of the last grant');
        });
        assert.match(
          String((subs[0].params.delivery as Json).url),
          /^http:\/\/127\.0\.0\.1:\d+\//,
          'a loopback callback',
        );
        const later = peer.for('events/subscribe', CURSORLESS).slice(1);
        assert.ok(later.length >= 1);
        assert.deepEqual(
          later.filter((r) => cursorOf(r.params) !== null),
          [],
        );
        assert.equal(peer.for('events/unsubscribe').length, 2, 'both subscriptions unsubscribed at the end');
      } finally {
        await peer.stop();
      }
    },
  );

  test(
    'events-client-no-extension: no events/* request to a server that does not declare the extension',
    { timeout: 40_000 },
    async () => {
      const peer = new Peer('poll', undefined, (request, res, self) => {
        if (request.method !== 'events/poll') return false;
        self.json(res, {
          jsonrpc: '2.0',
          id: request.id,
          result: { events: [], cursor: null, hasMore: false, nextPollMs: 1000 },
        });
        return true;
      });
      const url = await peer.start();
      try {
        const run = await runClient(url, 'events-client-no-extension', 2_000);
        assert.equal(run.code, 0, run.stderr);
        assert.ok(peer.requests.length > 0, 'the client reached the server');
        assert.deepEqual(
          peer.requests.filter((r) => r.method.startsWith('events/')),
          [],
        );
      } finally {
        await peer.stop();
      }
    },
  );
});
