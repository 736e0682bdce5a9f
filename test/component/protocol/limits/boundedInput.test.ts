/**
 * Bounded input everywhere (issue 17): a hostile HTTP server (test/fixtures/http/hostileHttpServer.ts, real sockets on
 * 127.0.0.1) sends an endless JSON body, an endless SSE line, an endless SSE event and an endless legacy `endpoint`
 * event. Each attempt runs in a child process (test/fixtures/http/limitProbe.ts) whose peak RSS growth must stay
 * under twice the cap plus a margin (unbounded, each would grow by the 1.5 GiB the server offers), whose request
 * settles with an error naming the limit and its setting, and whose server sees the client stop reading (its writes
 * end soon after the cap, far short of what it would send). Caps are 4 MiB here so the runs stay quick; one run keeps
 * the default caps and stops a body past 256 MiB.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startHostileHttpServer, type Attack, type HostileHttpServer } from '../../../fixtures/http/hostileHttpServer';
import { DEFAULT_INPUT_LIMITS } from '../../../../src/protocol/limits/inputLimits';
import { REPO_ROOT } from '../../../support/testSupport';

const PROBE = path.join(REPO_ROOT, 'test', 'fixtures', 'http', 'limitProbe.ts');
const MiB = 1024 * 1024;
const OFFERED = 1.5 * 1024 * MiB;
/** What the socket buffers on both ends may hold beyond what the client read, and the heap's slack. */
const WRITE_SLACK = 64 * MiB;
const RSS_MARGIN = 100 * MiB;

interface ProbeResult {
  kind: string;
  message: string;
  rssGrowth: number;
}

function probe(url: string, mode: 'streamable-http' | 'sse', limits: Record<string, number>): Promise<ProbeResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', PROBE, url, mode, JSON.stringify(limits)], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        resolve(JSON.parse(stdout.trim()) as ProbeResult);
      } catch {
        reject(new Error(`the probe exited with ${code} and printed no result:\n${stdout}\n${stderr}`));
      }
    });
  });
}

let server: HostileHttpServer;
before(async () => {
  server = await startHostileHttpServer(OFFERED);
});
after(() => server.close());

const SMALL = 4 * MiB;
const small = { maxMessageBytes: SMALL, maxSseLineBytes: SMALL };

const cases: { attack: Attack; mode: 'streamable-http' | 'sse'; setting: string; what: RegExp }[] = [
  {
    attack: 'json',
    mode: 'streamable-http',
    setting: 'maxMessageBytes',
    what: /the response to tools\/list from http:\/\/127\.0\.0\.1:\d+\/json exceeds the limit/,
  },
  {
    attack: 'sse-line',
    mode: 'streamable-http',
    setting: 'maxSseLineBytes',
    what: /the response to tools\/list was discarded: .*an SSE line exceeds the limit/,
  },
  {
    attack: 'sse-event',
    mode: 'streamable-http',
    setting: 'maxMessageBytes',
    what: /the response to tools\/list was discarded: .*an SSE event's data exceeds the limit/,
  },
  {
    attack: 'legacy',
    mode: 'sse',
    setting: 'maxSseLineBytes',
    what: /the SSE stream of http:\/\/127\.0\.0\.1:\d+\/legacy: an SSE line exceeds the limit/,
  },
];

describe('a hostile HTTP server cannot make the client hold more than the caps', () => {
  for (const { attack, mode, setting, what } of cases) {
    test(
      `${attack}: the request fails naming ${setting}, reading stops at the cap, memory stays bounded`,
      { timeout: 120_000 },
      async () => {
        const result = await probe(server.url(attack), mode, small);
        assert.equal(result.kind, 'message-too-large', result.message);
        assert.match(result.message, what);
        assert.ok(result.message.includes(`limit of ${SMALL} bytes (setting ${setting})`), result.message);
        await server.finished(attack);
        const written = server.written(attack);
        assert.ok(written > SMALL, `the server wrote past the cap (${written} bytes): the attack was real`);
        assert.ok(
          written < SMALL + WRITE_SLACK,
          `the client stopped reading: the server wrote ${written} of ${OFFERED} bytes`,
        );
        assert.ok(
          result.rssGrowth < 2 * SMALL + RSS_MARGIN,
          `peak RSS grew by ${(result.rssGrowth / MiB).toFixed(1)} MiB`,
        );
      },
    );
  }

  test(
    'with the default caps a JSON body past 256 MiB is stopped at maxMessageBytes',
    { timeout: 180_000 },
    async () => {
      const cap = DEFAULT_INPUT_LIMITS.maxMessageBytes;
      const result = await probe(server.url('json'), 'streamable-http', {});
      assert.equal(result.kind, 'message-too-large', result.message);
      assert.ok(result.message.includes(`limit of ${cap} bytes (setting maxMessageBytes)`), result.message);
      await server.finished('json');
      const written = server.written('json');
      assert.ok(written > cap && written < cap + WRITE_SLACK, `the server wrote ${written} of ${OFFERED} bytes`);
      assert.ok(result.rssGrowth < 2 * cap + RSS_MARGIN, `peak RSS grew by ${(result.rssGrowth / MiB).toFixed(1)} MiB`);
    },
  );
});
