/** The scaffold of the CLI's own commands (events, eval, load, lint, doctor, card, gateway): flags, parse, exit codes. */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { UsageError } from '../../../src/cli/args';
import { connectedRun, ownCommand, reportFailure, stopExitCode, takeFlags } from '../../../src/cli/ownCommand';

let written: string[] = [];
const realWrite = process.stderr.write.bind(process.stderr);
beforeEach(() => {
  written = [];
  process.stderr.write = ((chunk: string) => {
    written.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
});
afterEach(() => {
  process.stderr.write = realWrite;
});

describe('takeFlags', () => {
  test('takes a flag with its value given either way, and leaves every other word in order', () => {
    const seen: [string, string | undefined][] = [];
    const rest = takeFlags(['demo', '--a', 'one', '--stdio', 'x', '--a=two', '--on', 'tail'], (flag, value, arg) => {
      if (flag === '--a') seen.push([flag, value()]);
      else if (arg === '--on') seen.push([flag, undefined]);
      else return false;
      return true;
    });
    assert.deepEqual(seen, [
      ['--a', 'one'],
      ['--a', 'two'],
      ['--on', undefined],
    ]);
    assert.deepEqual(rest, ['demo', '--stdio', 'x', 'tail']);
  });

  test('a flag at the end has no value; an = in a word that is not a flag does not split it', () => {
    const values: (string | undefined)[] = [];
    const rest = takeFlags(['a=b', '--a'], (flag, value) => {
      if (flag !== '--a') return false;
      values.push(value());
      return true;
    });
    assert.deepEqual(values, [undefined]);
    assert.deepEqual(rest, ['a=b']);
  });
});

describe('ownCommand', () => {
  const command = (checked: string[]) => ({
    name: 'demo',
    flags: (argv: readonly string[]) => {
      if (argv.includes('--bad')) throw new UsageError('--bad is not a flag');
      return { rest: argv.filter((arg) => arg !== '--x') };
    },
    check: (args: { positionals: string[] }) => {
      checked.push(...args.positionals);
      if (args.positionals.includes('wrong')) throw new UsageError('demo takes no wrong');
    },
    run: () => Promise.resolve(7),
  });

  test("answers only a command line whose subcommand is its name, and not for --help (main's usage then)", async () => {
    assert.equal(ownCommand(['other'], 'USAGE', command([])), undefined);
    assert.equal(ownCommand(['call', 'demo'], 'USAGE', command([])), undefined);
    assert.equal(ownCommand(['demo', '--help'], 'USAGE', command([])), undefined);
    assert.equal(await ownCommand(['demo', '--x'], 'USAGE', command([])), 7);
    assert.deepEqual(written, []);
  });

  test('a flag or a check that fails prints the error and the usage and exits 2, without running', async () => {
    const checked: string[] = [];
    assert.equal(await ownCommand(['demo', '--bad'], 'USAGE', command(checked)), 2);
    assert.equal(await ownCommand(['demo', 'wrong'], 'USAGE', command(checked)), 2);
    assert.deepEqual(written, ['--bad is not a flag\n\nUSAGE\n', 'demo takes no wrong\n\nUSAGE\n']);
    assert.deepEqual(checked, ['wrong']);
  });
});

describe('exit codes and failures', () => {
  test('a stop exits as a shell reports the signal; a stop of the run itself (--duration) exits 0', () => {
    assert.deepEqual(['SIGINT', 'SIGTERM', 'SIGPIPE', 'duration', undefined].map(stopExitCode), [130, 143, 141, 0, 0]);
  });

  test('a failure is masked, its control characters escaped, named by its server once; usage 2, else 1', () => {
    assert.equal(reportFailure(new UsageError('bad s3cret'), 'srv', ['s3cret']), 2);
    assert.equal(reportFailure(new Error('srv: gone\u001b[2J'), 'srv', []), 1);
    assert.equal(reportFailure(new Error('no server yet'), undefined, []), 1);
    assert.equal(written.length, 3);
    assert.ok(written[0].startsWith('srv: bad ') && !written[0].includes('s3cret'), written[0]);
    assert.ok(written[1].startsWith('srv: gone') && !written[1].includes('srv: srv') && !written[1].includes('\u001b'));
    assert.equal(written[2], 'no server yet\n');
  });

  test('connectedRun reports what the work throws, and a stop during the work exits with the stop, unreported', async () => {
    assert.equal(await connectedRun(() => Promise.reject(new UsageError('nothing to do')), { secrets: [] }), 2);
    assert.deepEqual(written, ['nothing to do\n']);
    const stopped = await connectedRun((run) => {
      run.stop.abort('SIGTERM');
      return Promise.reject(new Error('aborted'));
    });
    assert.equal(stopped, 143);
    assert.equal(written.length, 1);
  });
});
