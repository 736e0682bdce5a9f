/**
 * `mcp-workbench events` end to end against our Events fixture (test/fixtures/events/eventsServer.mjs, written from
 * SEP-3415) over stdio and HTTP: the list, a poll resumed from a stale cursor (a truncated gap), duplicates dropped and
 * counted, a push stream that falls silent reopened from its cursor, a webhook refreshed before its TTL and
 * unsubscribed at the end, a flood bounded, and Ctrl+C leaving nothing running.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CLI_PATH, runCli } from '../../support/cliRun';
import { repoRoot } from '../../support/paths';
import { assertProcessGone } from '../../support/testSupport';

const SERVER = path.join(repoRoot, 'test', 'fixtures', 'events', 'eventsServer.mjs');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-events-cli-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

type Item = Record<string, unknown> & { kind: string };

function lines(stdout: string): Item[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Item);
}

function statsFile(name: string): string {
  return path.join(dir, `${name}.json`);
}

function stats(file: string): Record<string, number> {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, number>;
}

function stdio(extra = ''): string {
  return `"${process.execPath}" "${SERVER}" ${extra}`;
}

function eventIds(items: Item[]): number[] {
  return items.filter((item) => item.kind === 'event').map((item) => Number(String(item.eventId).slice(2)));
}

function summary(items: Item[]): Item {
  const last = items.at(-1);
  assert.equal(last?.kind, 'summary', JSON.stringify(items.slice(-3)));
  return last;
}

describe('events over stdio', () => {
  test('list prints one JSON line per event type, with its delivery modes and schemas', async () => {
    const run = await runCli(['events', 'list', '--stdio', stdio()]);
    assert.equal(run.code, 0, run.stderr);
    const types = lines(run.stdout);
    assert.deepEqual(
      types.map((type) => [type.name, type.delivery]),
      [
        ['ticks', ['poll', 'push', 'webhook']],
        ['flood', ['push']],
      ],
    );
    assert.ok((types[0] as { payloadSchema?: unknown }).payloadSchema);
  });

  test('poll from a stale cursor: the truncated gap first, then every event once (duplicates counted)', async () => {
    const file = statsFile('poll');
    const run = await runCli([
      'events',
      'poll',
      'ticks',
      '--cursor',
      'stale',
      '--poll-floor-ms',
      '150',
      '--duration',
      '1.5',
      '--stdio',
      stdio(`--stats ${file}`),
    ]);
    assert.equal(run.code, 0, run.stderr);
    const items = lines(run.stdout);
    assert.equal(items[0].kind, 'status');
    assert.deepEqual([items[1].kind, items[1].reason], ['gap', 'truncated']);
    const ids = eventIds(items);
    assert.ok(ids.length >= 5, run.stdout);
    assert.deepEqual(
      ids,
      [...new Set(ids)].sort((a, b) => a - b),
      'each event once, in order',
    );
    assert.ok(items.every((item) => item.kind !== 'event' || (item.payload as { kind: string }).kind === 'valid'));
    const end = summary(items);
    assert.ok((end.duplicates as number) >= 1, 'the server repeats the event at the cursor on each poll');
    assert.equal(end.gaps, 1);
    assert.ok(stats(file).polls >= 3);
  });

  test('push: a stream that falls silent is reopened from its last cursor and nothing is missed', async () => {
    const file = statsFile('push');
    const run = await runCli([
      'events',
      'stream',
      'ticks',
      '--duration',
      '3',
      '--stdio',
      stdio(`--stats ${file} --silent-after 5`),
    ]);
    assert.equal(run.code, 0, run.stderr);
    const items = lines(run.stdout);
    assert.ok(
      items.some((item) => item.kind === 'status' && item.status === 'reconnecting'),
      run.stdout,
    );
    const ids = eventIds(items);
    assert.deepEqual(
      ids,
      ids.map((_, index) => ids[0] + index),
      'no event lost or repeated across the reconnect',
    );
    assert.ok((summary(items).duplicates as number) >= 1);
    const server = stats(file);
    assert.equal(server.streams, 2);
    assert.ok(server.cancelled >= 1, 'the silent stream was cancelled (stdio: notifications/cancelled)');
  });

  test('webhook: refreshed before each grant ends, unsubscribed at the end, events delivered', async () => {
    const file = statsFile('webhook');
    const run = await runCli([
      'events',
      'subscribe',
      'ticks',
      '--args',
      '{"every":1}',
      '--duration',
      '2.5',
      '--stdio',
      stdio(`--stats ${file} --ttl-ms 1000`),
    ]);
    assert.equal(run.code, 0, run.stderr);
    const items = lines(run.stdout);
    const refreshed = items.filter((item) => item.kind === 'status' && item.status === 'refreshed').length;
    assert.ok(refreshed >= 3, run.stdout);
    assert.ok(eventIds(items).length >= 10);
    const server = stats(file);
    // A refresh in flight when the run stopped reached the server but was never answered to the client.
    assert.ok(server.subscribes === refreshed + 1 || server.subscribes === refreshed + 2, JSON.stringify(server));
    assert.equal(server.unsubscribes, 1);
  });

  test('a flood is held to the rate bound: the rest dropped, counted and marked as one gap', async () => {
    const run = await runCli(['events', 'stream', 'flood', '--duration', '1.2', '--stdio', stdio()]);
    assert.equal(run.code, 0, run.stderr);
    const items = lines(run.stdout);
    const end = summary(items);
    assert.deepEqual([end.delivered, end.floodDropped], [100, 400]);
    assert.ok(items.some((item) => item.kind === 'gap' && item.reason === 'flood' && item.dropped === 400));
  });

  test('an unknown event type or a mode it is not delivered by is a usage error', async () => {
    const unknown = await runCli(['events', 'poll', 'nope', '--stdio', stdio()]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /offers no event type "nope" \(it offers: ticks, flood\)/);
    const wrongMode = await runCli(['events', 'poll', 'flood', '--stdio', stdio()]);
    assert.equal(wrongMode.code, 2);
    assert.match(wrongMode.stderr, /flood is delivered by push, not by poll/);
  });

  test('a server without the extension: told so, and no events/* request is sent', async () => {
    const run = await runCli(['events', 'list', '--stdio', stdio('--no-extension')]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /does not offer events/);
  });

  test(
    'Ctrl+C stops the subscription, prints the summary and leaves no server running',
    { timeout: 30_000 },
    async () => {
      const file = statsFile('interrupt');
      const child = spawn(
        process.execPath,
        [CLI_PATH, 'events', 'stream', 'ticks', '--stdio', stdio(`--stats ${file}`)],
        { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      await new Promise<void>((resolve) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes('"kind":"event"')) resolve();
        });
      });
      child.kill('SIGINT');
      assert.equal(await exited, 130);
      const items = lines(stdout);
      assert.equal(summary(items).mode, 'push');
      assert.equal(items.at(-2)?.status, 'stopped');
      await assertProcessGone(stats(file).pid, 'the events server');
    },
  );
});

describe('events over HTTP', () => {
  let server: ChildProcessWithoutNullStreams;
  let url = '';
  const file = statsFile('http');
  before(async () => {
    server = spawn(process.execPath, [SERVER, '--http', '--stats', file, '--ttl-ms', '1000']);
    url = await new Promise<string>((resolve) => {
      let out = '';
      server.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening (\S+)/.exec(out);
        if (match) resolve(match[1]);
      });
    });
  });
  after(async () => {
    server.kill('SIGTERM');
    await assertProcessGone(server.pid ?? 0, 'the HTTP events server');
  });

  test('poll, push and webhook over Streamable HTTP; every stream and subscription released at the end', async () => {
    for (const verb of ['poll', 'stream', 'subscribe']) {
      const run = await runCli(['events', verb, 'ticks', '--poll-floor-ms', '200', '--duration', '2', '--url', url]);
      assert.equal(run.code, 0, `${verb}: ${run.stderr}`);
      const items = lines(run.stdout);
      assert.ok(eventIds(items).length >= 3, `${verb}: ${run.stdout}`);
      assert.equal(summary(items).mode, verb === 'poll' ? 'poll' : verb === 'stream' ? 'push' : 'webhook');
    }
    const counts = stats(file);
    assert.equal(counts.streams, 1);
    assert.equal(counts.open, 0, 'the push stream was closed');
    assert.ok(counts.subscribes >= 2, 'the webhook grant was refreshed');
    assert.equal(counts.unsubscribes, 1);
  });
});
