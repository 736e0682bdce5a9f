/**
 * The recording format (`*.mcptest.json`) and the comparison rules: paths, ignore, match (on the linear engine),
 * tolerance, unordered, and a changed answer naming where it changed with what was expected and what came.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import Ajv from 'ajv';
import { HistoryLog } from '../../../../src/workbench/history/historyLog';
import { historyStep, splitAtLatestStart } from '../../../../src/workbench/recordings/fromHistory';
import { rerecordStep } from '../../../../src/workbench/recordings/rerecord';
import { describe, test } from 'node:test';
import { compareAnswers } from '../../../../src/workbench/recordings/compare';
import {
  MCPTEST_FORMAT_VERSION,
  RecordingFormatError,
  parseRecording,
  serializeRecording,
  type Recording,
} from '../../../../src/workbench/recordings/format';
import {
  PathSyntaxError,
  advance,
  formatPath,
  isMatch,
  parsePathPattern,
  startState,
  type PathSegment,
} from '../../../../src/workbench/recordings/jsonPath';
import { RuleError, compileRule, compileRules } from '../../../../src/workbench/recordings/rules';
import { describeFailure } from '../../../../src/workbench/recordings/replay';
import { proposedTestPath, withTestSuffix } from '../../../../src/workbench/recordings/testFile';
import { repoRoot } from '../../../support/paths';

function matches(pattern: string, segments: PathSegment[]): boolean {
  const compiled = parsePathPattern(pattern);
  let state = startState(compiled);
  for (const segment of segments) state = advance(compiled, state, segment);
  return isMatch(compiled, state);
}

function recording(overrides: Partial<Recording> = {}): Recording {
  return {
    mcptest: MCPTEST_FORMAT_VERSION,
    server: { kind: 'stdio', command: 'node', args: ['server.mjs'], env: { API_KEY: '••••' } },
    steps: [
      {
        request: { method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } },
        answer: { result: { content: [{ type: 'text', text: 'Echo: hi' }] } },
      },
      {
        request: { method: 'tools/call', params: { name: 'missing' } },
        answer: { error: { code: -32602, message: 'Tool missing not found' } },
      },
    ],
    ...overrides,
  };
}

describe('rule paths', () => {
  test('keys, indexes, wildcards, quoted keys and .. (zero or more levels)', () => {
    assert.equal(matches('$', []), true);
    assert.equal(matches('$.result.content[0].text', ['result', 'content', 0, 'text']), true);
    assert.equal(matches('$.result.content[0].text', ['result', 'content', 1, 'text']), false);
    assert.equal(matches('$.result.content[*].text', ['result', 'content', 7, 'text']), true);
    assert.equal(matches('$.result.*', ['result', 'anything']), true);
    assert.equal(matches('$.result.*', ['result']), false);
    assert.equal(matches('$["odd key"].x', ['odd key', 'x']), true);
    assert.equal(matches('$..timestamp', ['timestamp']), true, '.. matches zero levels');
    assert.equal(matches('$..timestamp', ['result', 'items', 3, 'timestamp']), true);
    assert.equal(matches('$..timestamp', ['result', 'timestamp', 'x']), false);
    assert.equal(matches('$.result..id', ['error', 'id']), false);
    assert.equal(matches('$..[0]', ['a', 'b', 0]), true);
  });

  test('a wrong path is refused saying where', () => {
    for (const bad of ['result.x', '$.', '$..', '$[abc]', '$[0', '$["x]', '$ x', '$.a..']) {
      assert.throws(() => parsePathPattern(bad), PathSyntaxError, bad);
    }
    assert.throws(() => parsePathPattern('$[abc]'), /\[abc\] at column 2 of \$\[abc\] must be an index/);
  });

  test('concrete paths are written back readably', () => {
    assert.equal(formatPath(['result', 'content', 0, 'text']), '$.result.content[0].text');
    assert.equal(formatPath(['a b', 'x']), '$["a b"].x');
  });
});

describe('rules', () => {
  test('each rule needs a path and exactly one action; mistakes name the rule', () => {
    assert.equal(compileRule({ path: '$..ts', ignore: true }, 'rules[0]').kind, 'ignore');
    assert.throws(
      () => compileRule({ path: '$..ts' }, 'rules[0]'),
      /rules\[0\] must have exactly one of ignore, match, tolerance, unordered; it has none/,
    );
    assert.throws(
      () => compileRule({ path: '$..ts', ignore: true, match: 'x' }, 'rules[1]'),
      /it has ignore and match/,
    );
    assert.throws(
      () => compileRule({ path: '$..ts', ignore: true, ignored: true }, 'rules[2]'),
      /unknown key "ignored"/,
    );
    assert.throws(
      () => compileRule({ path: 'ts', ignore: true }, 'rules[3]'),
      /rules\[3\]\.path: a path starts with \$/,
    );
    assert.throws(
      () => compileRule({ path: '$.x', tolerance: -1 }, 'rules[4]'),
      /tolerance must be a number of at least 0/,
    );
    assert.throws(() => compileRules({}, 'rules'), RuleError);
  });

  test('match patterns run on the linear engine: backreferences are refused, a catastrophic pattern is harmless', () => {
    assert.throws(
      () => compileRule({ path: '$.x', match: '(a)\\1' }, 'rules[0]'),
      /rules\[0\]\.match "\(a\)\\\\1" cannot be used/,
    );
    const rule = compileRule({ path: '$.x', match: '^(a+)+$' }, 'rules[0]');
    assert.equal(rule.kind, 'match');
    // A backtracking engine takes exponential time on this subject; the linear one answers at once.
    const subject = `${'a'.repeat(5_000)}!`;
    assert.deepEqual(
      compareAnswers({ x: 'aaa' }, { x: subject }, [rule]).map((d) => d.path),
      ['$.x'],
    );
    assert.deepEqual(compareAnswers({ x: 'aaa' }, { x: 'aaaa' }, [rule]), []);
  });
});

describe('comparison', () => {
  const noRules = compileRules([], 'rules');

  test('equal answers have no difference; key order does not matter', () => {
    assert.deepEqual(
      compareAnswers(
        { result: { a: 1, b: [1, 'x', null, true] } },
        { result: { b: [1, 'x', null, true], a: 1 } },
        noRules,
      ),
      [],
    );
  });

  test('a changed value is named by path with the recorded and the new value', () => {
    const [difference, ...rest] = compareAnswers(
      { result: { content: [{ type: 'text', text: 'Echo: hi' }] } },
      { result: { content: [{ type: 'text', text: 'Echo: bye' }] } },
      noRules,
    );
    assert.deepEqual(difference, {
      path: '$.result.content[0].text',
      expected: '"Echo: hi"',
      actual: '"Echo: bye"',
      reason: 'the value changed',
      expectedValue: 'Echo: hi',
      actualValue: 'Echo: bye',
    });
    assert.equal(rest.length, 0);
  });

  test('missing and added keys, other lengths and other types are differences, in document order', () => {
    const differences = compareAnswers(
      { result: { a: 1, list: [1, 2], kind: 'x' } },
      { result: { list: [1], kind: 3, extra: true } },
      noRules,
    );
    assert.deepEqual(
      differences.map((d) => [d.path, d.reason]),
      [
        ['$.result.a', 'the recorded value is missing'],
        ['$.result.list[1]', 'the recorded value is missing'],
        ['$.result.kind', 'expected a string, got a number'],
        ['$.result.extra', 'this value was not in the recording'],
      ],
    );
    assert.equal(differences[3].expected, '(absent)');
    assert.deepEqual(
      compareAnswers({ result: {} }, { error: { message: 'x' } }, noRules).map((d) => d.path),
      ['$.result', '$.error'],
    );
  });

  test('volatile fields: ignored by path (present, absent or changed), matched by pattern, numbers within tolerance', () => {
    const rules = compileRules(
      [
        { path: '$..timestamp', ignore: true },
        { path: '$.result.content[*].text', match: '^request [0-9a-f]{8}$' },
        { path: '$.result.load', tolerance: 0.5 },
      ],
      'rules',
    );
    const recorded = {
      result: {
        timestamp: '2026-12-01T00:00:00Z',
        content: [{ type: 'text', text: 'request 0badf00d' }],
        load: 1.0,
        meta: { timestamp: 1 },
      },
    };
    assert.deepEqual(
      compareAnswers(
        recorded,
        { result: { timestamp: 'later', content: [{ type: 'text', text: 'request deadbeef' }], load: 1.4, meta: {} } },
        rules,
      ),
      [],
    );
    // The positive control: the same rules still catch what they do not cover.
    const differences = compareAnswers(
      recorded,
      {
        result: {
          timestamp: 'later',
          content: [{ type: 'text', text: 'request nothex!!' }],
          load: 2,
          meta: { timestamp: 2 },
        },
      },
      rules,
    );
    assert.deepEqual(
      differences.map((d) => [d.path, d.reason]),
      [
        ['$.result.content[0].text', 'expected a string matching "^request [0-9a-f]{8}$"'],
        ['$.result.load', 'expected a number within ±0.5 of the recorded one'],
      ],
    );
  });

  test('unordered arrays pair equal items in any order, and still fail on a changed item', () => {
    const rules = compileRules(
      [
        { path: '$.result.tools', unordered: true },
        { path: '$.result.tools[*].version', ignore: true },
      ],
      'rules',
    );
    const recorded = {
      result: {
        tools: [
          { name: 'a', version: 1 },
          { name: 'b', version: 1 },
        ],
      },
    };
    assert.deepEqual(
      compareAnswers(
        recorded,
        {
          result: {
            tools: [
              { name: 'b', version: 2 },
              { name: 'a', version: 3 },
            ],
          },
        },
        rules,
      ),
      [],
    );
    const [difference] = compareAnswers(recorded, { result: { tools: [{ name: 'b' }, { name: 'c' }] } }, rules);
    assert.equal(difference.path, '$.result.tools');
    assert.match(difference.reason, /recorded item 0 \(\{"name":"a","version":1\}\) has no equal item/);
    assert.match(
      compareAnswers(recorded, { result: { tools: [{ name: 'a' }] } }, rules)[0].reason,
      /expected 2 items \(in any order\), got 1/,
    );
  });

  test('an answer nested 100,000 levels deep is compared without overflowing the stack', () => {
    let deep: unknown = 'leaf';
    let other: unknown = 'changed';
    for (let level = 0; level < 100_000; level++) {
      deep = [deep];
      other = [other];
    }
    const [difference] = compareAnswers({ result: deep }, { result: other }, noRules);
    assert.equal(difference.reason, 'the value changed');
    assert.equal(difference.path.length, '$.result'.length + 100_000 * 3);
  });

  test('a failure line names the step, the path, what was expected and what came', () => {
    const differences = compareAnswers({ result: { text: 'a' } }, { result: { text: 'b', more: 1 } }, noRules);
    const line = describeFailure({
      index: 1,
      label: 'tools/call echo',
      actual: { result: {} },
      verdict: { kind: 'failed', differences },
    });
    assert.equal(
      line,
      'step 2 (tools/call echo) differs at $.result.text: the value changed; expected "a", got "b" (and 1 more difference)',
    );
  });
});

describe('recording files', () => {
  test('a written recording reads back the same, with shared and per-step rules combined', () => {
    const original = recording({ rules: [{ path: '$..timestamp', ignore: true }] });
    original.steps[0].rules = [{ path: '$.result.content[0].text', match: '^Echo' }];
    const text = serializeRecording(original);
    assert.ok(text.endsWith('}\n'));
    const loaded = parseRecording(text, 'echo.mcptest.json');
    assert.deepEqual(loaded.recording, original);
    assert.deepEqual(
      loaded.rulesOf(0).map((rule) => rule.kind),
      ['ignore', 'match'],
    );
    assert.deepEqual(
      loaded.rulesOf(1).map((rule) => rule.kind),
      ['ignore'],
    );
  });

  test('a wrong file is refused naming the file and the place in it', () => {
    const cases: [unknown, RegExp][] = [
      [{ ...recording(), mcptest: 2 }, /"mcptest" must be 1/],
      [{ ...recording(), server: { kind: 'ftp' } }, /server\.kind must be stdio, http or config, got "ftp"/],
      [
        { ...recording(), steps: [{ request: { method: 'tools/delete' }, answer: { result: {} } }] },
        /steps\[0\]\.request\.method must be one of ping, tools\/list/,
      ],
      [
        { ...recording(), steps: [{ request: { method: 'ping' }, answer: {} }] },
        /steps\[0\]\.answer must have exactly one of "result" and "error"/,
      ],
      [
        {
          ...recording(),
          steps: [{ request: { method: 'ping' }, answer: { result: {} }, rules: [{ path: '$', match: '(?=x)' }] }],
        },
        /steps\[0\]\.rules\[0\]\.match "\(\?=x\)" cannot be used/,
      ],
      [
        { ...recording(), server: { kind: 'stdio', command: 'node', env: { A: 1 } } },
        /server\.env values must be strings/,
      ],
    ];
    for (const [value, message] of cases) {
      assert.throws(
        () => parseRecording(JSON.stringify(value), 'bad.mcptest.json'),
        (error: unknown) =>
          error instanceof RecordingFormatError &&
          error.message.startsWith('bad.mcptest.json: ') &&
          message.test(error.message),
      );
    }
    assert.throws(() => parseRecording('{', 'broken.mcptest.json'), /broken\.mcptest\.json is not JSON/);
  });
});

describe('History entries as steps, and re-recording a step', () => {
  test("entries are split at their server's latest start: answers before it came from an earlier process", () => {
    const log = new HistoryLog();
    const record = (serverId: string, startedAt: number) =>
      log.record({
        server: { id: serverId, name: 'notes' },
        startedAt,
        operation: { kind: 'tool', toolName: 'count', arguments: {} },
        outcome: { kind: 'succeeded' },
        result: { content: [] },
      });
    const entries = [record('a', 10), record('a', 20), record('a', 30), record('b', 5), record('c', 50)];
    const starts: Record<string, number> = { a: 20, b: 1 };
    const { earlier, since } = splitAtLatestStart(
      entries.map((entry) => ({ entry })),
      (id) => starts[id],
    );
    // a: 10 is before its restart at 20, 20 and 30 are not; b has not restarted since 5; c never started here.
    assert.deepEqual(
      earlier.map(({ entry }) => [entry.server.id, entry.startedAt]),
      [
        ['a', 10],
        ['c', 50],
      ],
    );
    assert.deepEqual(
      since.map(({ entry }) => [entry.server.id, entry.startedAt]),
      [
        ['a', 20],
        ['a', 30],
        ['b', 5],
      ],
    );
  });

  test('tool calls, reads and prompts answered in full become steps; the rest is refused with a reason', async () => {
    const log = new HistoryLog({ maxResultChars: 200 });
    const server = { id: 's1', name: 'everything' };
    const toolResult = { content: [{ type: 'text', text: 'Echo: hi' }] };
    log.record({
      server,
      startedAt: 1,
      operation: { kind: 'tool', toolName: 'echo', arguments: { message: 'hi' } },
      outcome: { kind: 'succeeded' },
      result: { result: toolResult, outputValidation: { kind: 'none' } },
    });
    log.record({
      server,
      startedAt: 2,
      operation: { kind: 'resource', uri: 'demo://a' },
      outcome: { kind: 'succeeded' },
      result: { contents: [{ uri: 'demo://a', text: 'A' }] },
    });
    log.record({
      server,
      startedAt: 3,
      operation: { kind: 'prompt', promptName: 'greet', arguments: { name: 'Ada' } },
      outcome: { kind: 'succeeded' },
      result: { messages: [] },
    });
    log.record({
      server,
      startedAt: 4,
      operation: { kind: 'tool', toolName: 'slow', arguments: {} },
      outcome: { kind: 'failed', message: 'timed out' },
    });
    log.record({
      server,
      startedAt: 5,
      operation: { kind: 'tool', toolName: 'big', arguments: {} },
      outcome: { kind: 'succeeded' },
      result: { content: [{ type: 'text', text: 'x'.repeat(500) }] },
    });
    log.record({
      server,
      startedAt: 6,
      operation: { kind: 'sampling', request: 'hi' },
      outcome: { kind: 'succeeded' },
      result: { response: 'hello' },
    });
    const choices = log.entries().map(historyStep);
    assert.deepEqual(
      choices.map((choice) => choice.kind),
      ['step', 'step', 'step', 'unusable', 'unusable', 'unusable'],
    );
    assert.deepEqual(choices[0].kind === 'step' && choices[0].step, {
      request: { method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } },
      answer: { result: toolResult },
    });
    assert.deepEqual(choices[1].kind === 'step' && choices[1].step.request, {
      method: 'resources/read',
      params: { uri: 'demo://a' },
    });
    assert.deepEqual(choices[2].kind === 'step' && choices[2].step.request, {
      method: 'prompts/get',
      params: { name: 'greet', arguments: { name: 'Ada' } },
    });
    assert.match(choices[3].kind === 'unusable' ? choices[3].reason : '', /ended failed/);
    assert.match(choices[4].kind === 'unusable' ? choices[4].reason : '', /did not keep its whole result/);
    assert.match(choices[5].kind === 'unusable' ? choices[5].reason : '', /the server asking/);
  });

  test("re-recording replaces one step's answer and keeps the rest of the file as written", async () => {
    const original = recording({ rules: [{ path: '$..timestamp', ignore: true }] });
    const text = serializeRecording(original);
    const edited = rerecordStep(text, 0, { result: { content: [{ type: 'text', text: 'Echo: bye' }] } });
    const reread = parseRecording(edited, 'x.mcptest.json').recording;
    assert.deepEqual(reread.steps[0].answer, { result: { content: [{ type: 'text', text: 'Echo: bye' }] } });
    assert.deepEqual(reread.steps[1], original.steps[1]);
    assert.deepEqual(reread.rules, original.rules);
    assert.ok(edited.startsWith(text.slice(0, text.indexOf('"steps"'))), 'everything before the steps is untouched');
  });
});

describe('where Save as Test writes', () => {
  const call = (name: string) => ({
    request: { method: 'tools/call' as const, params: { name, arguments: {} } },
    answer: { result: {} },
  });
  const none = async () => false;

  test('tests/<server>-<tool>.mcptest.json, and a free name when it is taken (never a replaced file)', async () => {
    assert.equal(
      await proposedTestPath('greeter', [call('greet'), call('other')], none),
      'tests/greeter-greet.mcptest.json',
    );
    const existing = new Set(['tests/greeter-greet.mcptest.json', 'tests/greeter-greet-2.mcptest.json']);
    assert.equal(
      await proposedTestPath('greeter', [call('greet')], async (file) => existing.has(file)),
      'tests/greeter-greet-3.mcptest.json',
    );
    assert.equal(
      await proposedTestPath(
        'docs',
        [{ request: { method: 'resources/read' as const, params: { uri: 'file:///a' } }, answer: { result: {} } }],
        none,
      ),
      'tests/docs-resource.mcptest.json',
    );
  });

  test('a tool name from the server cannot leave the folder or hide characters in the name', async () => {
    assert.equal(
      await proposedTestPath('my server', [call('../../etc/passwd')], none),
      'tests/my-server-etc-passwd.mcptest.json',
    );
    assert.equal(await proposedTestPath('s', [call('a\u202Eb\n/..')], none), 'tests/s-a-b.mcptest.json');
    assert.equal(await proposedTestPath('..', [call('...')], none), 'tests/session.mcptest.json');
    assert.equal(
      await proposedTestPath('s', [call('x'.repeat(500))], none),
      `tests/s-${'x'.repeat(60)}.mcptest.json`,
      'a long name is cut',
    );
  });

  test('a path from the save dialog is named so Test Explorer finds it', () => {
    assert.equal(withTestSuffix('/w/tests/a.mcptest.json'), '/w/tests/a.mcptest.json');
    assert.equal(withTestSuffix('/w/tests/a.json'), '/w/tests/a.mcptest.json');
    assert.equal(withTestSuffix('/w/tests/a'), '/w/tests/a.mcptest.json');
  });
});

describe('schemas/mcptest.schema.json', () => {
  test('a written recording validates against the schema; a rule with two actions or an unknown method does not', async () => {
    const schema = JSON.parse(await readFile(path.join(repoRoot, 'schemas', 'mcptest.schema.json'), 'utf8')) as object;
    const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    const good = recording({ rules: [{ path: '$..timestamp', ignore: true }] });
    good.steps[0].rules = [{ path: '$.result.content[0].text', match: '^Echo' }];
    assert.equal(validate(JSON.parse(serializeRecording(good))), true, JSON.stringify(validate.errors));
    assert.equal(validate({ ...good, rules: [{ path: '$.x', ignore: true, tolerance: 1 }] }), false);
    assert.equal(
      validate({ ...good, steps: [{ request: { method: 'tools/remove' }, answer: { result: {} } }] }),
      false,
    );
  });
});
