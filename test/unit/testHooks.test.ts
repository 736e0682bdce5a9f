/**
 * The test hooks (pre-answered consents and prompts, a replaced URL opener, ...) exist only behind the test-only
 * switch. The switch is vscode-free and tested directly; that activation goes through it is checked in the source
 * of src/extension/extension.ts, which imports vscode and cannot load here.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TEST_HOOKS_ENV, testHooksEnabled, withTestHooks } from '../../src/extension/testHooksSwitch';

const root = path.resolve(__dirname, '..', '..');
const extensionDir = path.join(root, 'src', 'extension');
const HOOK_KEYS = ['sampling', 'browse', 'config', 'simulateWorkspaceFoldersChanged', 'simulateWorkspaceTrust'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

test('without the variable (or with another value) no hook is attached and none is built', () => {
  for (const env of [{}, { [TEST_HOOKS_ENV]: '' }, { [TEST_HOOKS_ENV]: '0' }, { [TEST_HOOKS_ENV]: 'true' }]) {
    const api = { manager: 'the manager' };
    const result = withTestHooks(api, env, () => {
      throw new Error('the hooks were built without the switch');
    });
    assert.equal(testHooksEnabled(env), false);
    assert.deepEqual(Object.keys(result), ['manager']);
  }
});

test(`with ${TEST_HOOKS_ENV}=1 the hooks are attached beside the public API`, () => {
  const result = withTestHooks({ manager: 'the manager' }, { [TEST_HOOKS_ENV]: '1' }, () => ({ config: 'hooks' }));
  assert.deepEqual(result, { manager: 'the manager', config: 'hooks' });
});

test('activate returns the public API and builds the hooks only through the switch', () => {
  const source = readFileSync(path.join(extensionDir, 'extension.ts'), 'utf8');
  assert.match(source, /return withTestHooks\(api, process\.env, \(\) =>\s*createTestHooks\(/);
  assert.equal(source.match(/createTestHooks\(/g)?.length, 1, 'createTestHooks is called outside the switch');
  const literal = /const api: McpWorkbenchPublicApi = \{([\s\S]*?)\n {2}\};/.exec(source);
  assert.ok(literal, 'extension.ts builds no "const api: McpWorkbenchPublicApi = { ... }"');
  const keys = [...literal[1].matchAll(/^ {4}(\w+)\s*[:,(]/gm)].map((match) => match[1]);
  assert.ok(keys.includes('manager'), `public API keys read from the source: ${keys.join(', ')}`);
  assert.deepEqual(keys.filter((key) => HOOK_KEYS.includes(key)), [], 'the public API carries test hooks');
});

test('only the composition root and testHooks.ts reach the hook builder', () => {
  const users = sourceFiles(extensionDir)
    .filter((file) => /\bcreateTestHooks\b/.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(extensionDir, file).split(path.sep).join('/'))
    .sort();
  assert.deepEqual(users, ['extension.ts', 'testHooks.ts']);
});
