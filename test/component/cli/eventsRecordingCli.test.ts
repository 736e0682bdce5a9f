/**
 * `mcp-workbench test` with an `events/subscribe` step, against our Events fixture (test/fixtures/events/eventsServer.mjs,
 * over stdio): a recording of ticks resumed from a cursor passes in push and poll mode, and by webhook with a rule
 * ignoring which ticks came, each subscription stopped at the step's bound; the same recording with one expected payload edited fails with exit 1, naming the step's event
 * type and where that event differs, with the expected and the actual value.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli } from '../../support/cliRun';
import { repoRoot } from '../../support/paths';
import { serializeRecording, type Recording } from '../../../src/workbench/recordings/format';

const SERVER = path.join(repoRoot, 'test', 'fixtures', 'events', 'eventsServer.mjs');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-events-test-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const ticks = (...numbers: number[]) => numbers.map((n) => ({ name: 'ticks', data: { n } }));

/** Ticks 1, 2, 3 (from cursor t-0: the fixture keeps its log, so they are the same at every run) by push and poll. */
function recording(statsFile: string, pushed = ticks(1, 2, 3)): Recording {
  return {
    mcptest: 1,
    server: { kind: 'stdio', command: process.execPath, args: [SERVER, '--tick-ms', '20', '--stats', statsFile] },
    steps: [
      {
        request: {
          method: 'events/subscribe',
          params: { name: 'ticks', mode: 'push', arguments: {}, cursor: 't-0', until: { count: 3, withinMs: 20_000 } },
        },
        answer: { result: { events: pushed } },
      },
      {
        request: {
          method: 'events/subscribe',
          params: { name: 'ticks', mode: 'poll', arguments: {}, cursor: 't-0', until: { count: 2, withinMs: 20_000 } },
        },
        answer: { result: { events: ticks(1, 2) } },
      },
      {
        // A webhook delivers what happens from now on: which ticks is the recording's rule to ignore.
        request: {
          method: 'events/subscribe',
          params: { name: 'ticks', mode: 'webhook', arguments: {}, until: { count: 2, withinMs: 20_000 } },
        },
        answer: { result: { events: ticks(0, 0) } },
        rules: [{ path: '$.result.events[*].data.n', ignore: true }],
      },
    ],
  };
}

function write(name: string, value: Recording): string {
  const file = path.join(dir, `${name}.mcptest.json`);
  fs.writeFileSync(file, serializeRecording(value));
  return file;
}

describe('CLI test with events/subscribe steps', () => {
  test('a recording of events passes, and each subscription is stopped at its bound', async () => {
    const statsFile = path.join(dir, 'pass.json');
    const run = await runCli(['test', write('pass', recording(statsFile))]);
    assert.equal(run.code, 0, run.stderr + run.stdout);
    const report = JSON.parse(run.stdout) as { passed: boolean; steps: { name: string; passed: boolean }[] };
    assert.deepEqual(
      report.steps.map((step) => [step.name, step.passed]),
      [
        ['events/subscribe ticks', true],
        ['events/subscribe ticks', true],
        ['events/subscribe ticks', true],
      ],
    );
    const stats = JSON.parse(fs.readFileSync(statsFile, 'utf8')) as Record<string, number>;
    assert.equal(stats.streams, 1, JSON.stringify(stats));
    assert.equal(stats.open, 0, `the push stream was left open: ${JSON.stringify(stats)}`);
    assert.ok(stats.polls >= 1, JSON.stringify(stats));
    assert.deepEqual(
      [stats.subscribes, stats.unsubscribes],
      [1, 1],
      `the webhook was left on: ${JSON.stringify(stats)}`,
    );
  });

  test('an edited expectation fails, naming the event type, the event and both values', async () => {
    const statsFile = path.join(dir, 'fail.json');
    const run = await runCli(['test', write('fail', recording(statsFile, ticks(1, 99, 3)))]);
    assert.equal(run.code, 1, run.stderr + run.stdout);
    assert.match(
      run.stderr,
      /step 1 \(events\/subscribe ticks\) differs at \$\.result\.events\[1\]\.data\.n: the value changed; expected 99, got 2/,
    );
  });
});
