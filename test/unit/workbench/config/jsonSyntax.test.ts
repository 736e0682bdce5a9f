import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeJsonErrorCode } from '../../../../src/workbench/config/jsonSyntax';
import { hasSyntaxErrors, parseMcpConfig } from '../../../../src/workbench/config/mcpConfig';

test('a half-typed property name is reported in words with its line and column, not as a code and offset', () => {
  const text = '{\n  "servers": {\n    "a": { "command": "node" },\n    \n    12\n  }\n}\n';
  const parsed = parseMcpConfig(text);
  assert.ok(hasSyntaxErrors(parsed));
  const first = parsed.problems[0];
  assert.equal(first?.message, 'expected a property name at line 5, column 5');
  assert.deepEqual(first?.syntax && { line: first.syntax.line, column: first.syntax.column }, { line: 5, column: 5 });
  assert.equal(text.slice(first?.syntax?.offset, (first?.syntax?.offset ?? 0) + (first?.syntax?.length ?? 0)), '12');
  for (const problem of parsed.problems) assert.doesNotMatch(problem.message, /Expected|offset/);
});

test('a missing comma, a stray character and an unclosed string are named as such', () => {
  assert.equal(parseMcpConfig('{\n  x\n}').problems[0]?.message, 'unexpected character at line 2, column 3');
  assert.equal(
    parseMcpConfig('{\n"servers": {}\n"inputs": []\n}').problems[0]?.message,
    'expected a comma at line 3, column 1',
  );
  assert.match(
    parseMcpConfig('{ "servers": { "a": { "command": "no').problems[0]?.message ?? '',
    /^a string is not closed at line 1, column \d+$/,
  );
});

test('every jsonc-parser error code has words of its own', () => {
  const reasons = new Set<string>();
  for (let code = 1; code <= 16; code++) {
    const reason = describeJsonErrorCode(code);
    assert.notEqual(reason, 'invalid JSON', `code ${code}`);
    reasons.add(reason);
  }
  assert.equal(reasons.size, 16);
});

test('a file that parses but has a bad entry is not a syntax error', () => {
  const parsed = parseMcpConfig('{ "servers": { "a": { "command": 3 } } }');
  assert.equal(hasSyntaxErrors(parsed), false);
  assert.equal(parsed.problems.length, 1);
});
