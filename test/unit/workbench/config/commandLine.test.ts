import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseHeaderLines, splitCommandLine } from '../../../../src/workbench/config/commandLine';

test('command lines split like a shell would quote them, with nothing expanded', () => {
  assert.deepEqual(splitCommandLine('npx -y @modelcontextprotocol/server-everything'), [
    'npx',
    '-y',
    '@modelcontextprotocol/server-everything',
  ]);
  assert.deepEqual(splitCommandLine(`node "my server.js" 'single $HOME' a\\ b ""`), [
    'node',
    'my server.js',
    'single $HOME',
    'a b',
    '',
  ]);
  assert.deepEqual(splitCommandLine('C:\\tools\\server.exe --flag'), ['C:\\tools\\server.exe', '--flag']);
  assert.deepEqual(splitCommandLine('echo "say \\"hi\\""'), ['echo', 'say "hi"']);
  assert.deepEqual(splitCommandLine('   '), []);
  assert.throws(() => splitCommandLine('node "unterminated'), /unterminated " quote/);
});

test('header lines', () => {
  assert.deepEqual(parseHeaderLines('Authorization: Bearer x; X-Api: 1'), { Authorization: 'Bearer x', 'X-Api': '1' });
  assert.throws(() => parseHeaderLines('no colon'), /Name: value/);
});
