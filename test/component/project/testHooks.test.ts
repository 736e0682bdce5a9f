/**
 * What ships is the product: the test hooks (pre-answered consents, prompts and modals, simulated trust, a replaced
 * URL opener) and the live services the suites use exist only in the test build. Both bundles are built here from
 * the sources, exactly as esbuild.js builds them, and their text is searched: the production bundle must hold none
 * of the hooks' names, the test build must hold them all (the positive control: the names are the ones in use).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { repoRoot } from '../../support/paths';

const root = repoRoot;
/** Names only the hooks use: each is a property of the test API, so a bundle that has it carries that hook. */
const HOOK_NAMES = [
  'setPromptAnswerer',
  'setLaunchConfirmer',
  'answerSignInModal',
  'answerUrlModal',
  'simulateWorkspaceTrust',
  'simulateWorkspaceFoldersChanged',
  'storedSecret',
  'storedState',
  'profileFolders',
  'completionPick',
  // NotificationRecorder's (notifications.ts): only the test build records or answers notifications.
  'startRecording',
  'MCP_WORKBENCH_E2E_SIGNIN_URL_FILE',
  'MCP_WORKBENCH_E2E_WALKTHROUGH',
  'MCP_WORKBENCH_TEST_HOOKS',
  'MCP_WORKBENCH_TEST_BUILD',
];

let out: string;
before(() => {
  out = mkdtempSync(path.join(os.tmpdir(), 'mcp-bundles-'));
  for (const [folder, flags] of [
    ['production', ['--production']],
    ['test-build', ['--production', '--test-hooks']],
  ] as const) {
    execFileSync(process.execPath, [path.join(root, 'esbuild.js'), ...flags, `--outdir=${path.join(out, folder)}`], {
      cwd: root,
      stdio: 'pipe',
    });
  }
});
after(() => rmSync(out, { recursive: true, force: true }));

function bundle(folder: string, file: string): string {
  return readFileSync(path.join(out, folder, file), 'utf8');
}

/** The extension's own code: extension-main.js behind the entry of a packed (production) build (scripts/pack-chunks.js). */
const MAIN = 'extension-main.js';

/** What the extension host may load: extension.js, the extension's code and every chunk (some it shares with the CLI). */
function extensionCode(folder: string): string {
  const files = readdirSync(path.join(out, folder)).filter((name) => /^(chunk-\w+|extension(-main)?)\.js$/.test(name));
  return files.map((file) => bundle(folder, file)).join('\n');
}

test('the production extension bundle (built with --production) holds no test hook', () => {
  const text = extensionCode('production');
  assert.ok(
    bundle('production', MAIN).length > 100_000,
    `the bundle is suspiciously small (${text.length} characters)`,
  );
  assert.deepEqual(
    HOOK_NAMES.filter((name) => text.includes(name)),
    [],
  );
});

test('the test build holds every hook the suites use (the names above are the real ones)', () => {
  const text = extensionCode('test-build');
  const expectedAbsent = new Set(['MCP_WORKBENCH_TEST_HOOKS', 'MCP_WORKBENCH_TEST_BUILD']);
  assert.deepEqual(
    HOOK_NAMES.filter((name) => !expectedAbsent.has(name) && !text.includes(name)),
    [],
  );
});

test('the CLI bundle is built beside the extension, minified, and holds no hook either', () => {
  const cli = bundle('production', 'cli.js');
  assert.ok(cli.startsWith('#!/usr/bin/env node'), 'the CLI bundle starts with its shebang');
  // Minified: main.ts's comments and its own names are gone (the usage texts keep their line breaks, so the lines
  // are not counted).
  assert.ok(
    !cli.includes('OWN_COMMANDS') && !cli.includes('Subcommands with their own arguments'),
    'the production CLI bundle is minified',
  );
  assert.deepEqual(
    HOOK_NAMES.filter((name) => cli.includes(name)),
    [],
  );
});

test('activate returns nothing outside the test build', () => {
  const source = readFileSync(path.join(root, 'src', 'extension', 'extension.ts'), 'utf8');
  assert.match(
    source,
    /if \(MCP_WORKBENCH_TEST_BUILD && testHost\) \{\n(?: {4}(?!return).*\n)* {4}return createTestHooks\([^\n]*\);\n {2}\}\n {2}return undefined;\n\}/,
  );
  // The test build's host (its trust, folder changes and crash policy) is made only in the test build.
  assert.match(source, /const testHost = MCP_WORKBENCH_TEST_BUILD \? new TestBuildHost\(\) : undefined;/);
  assert.equal(
    source.match(/new TestBuildHost\(/g)?.length,
    1,
    'the test build host is made outside the test-build branch',
  );
  assert.equal(
    source.match(/createTestHooks\(/g)?.length,
    1,
    'createTestHooks is called outside the test-build branch',
  );
});

test('the extension takes the vscode API as it is, never through a copy', () => {
  // The CommonJS conversion (scripts/build-commonjs.js) wraps a required module in __toESM, which copies the API's
  // ~200 properties into a new object in every file that imports it, as the window opens; the build leaves vscode's
  // unwrapped.
  const text = extensionCode('production');
  assert.match(bundle('production', MAIN), /=require\("vscode"\)/);
  assert.doesNotMatch(text, /\(require\("vscode"\)\)/);
});
