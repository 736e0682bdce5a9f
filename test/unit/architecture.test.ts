import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const root = path.resolve(__dirname, '..', '..');
const VSCODE_IMPORT = /(?:from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\))/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

test('src/core and src/cli never import vscode', () => {
  const offenders = [...sourceFiles(path.join(root, 'src/core')), ...sourceFiles(path.join(root, 'src/cli'))].filter((file) =>
    VSCODE_IMPORT.test(readFileSync(file, 'utf8')),
  );
  assert.deepEqual(offenders, []);
});

test('the bundled CLI contains no reference to the vscode module and runs without it', { timeout: 60_000 }, () => {
  // npm test builds once before the unit tests; rebuilding here would race with tests that run dist/cli.js.
  const cli = path.join(root, 'dist/cli.js');
  assert.ok(existsSync(cli), `${cli} is missing: run "npm run build" first (npm test does)`);
  const bundle = readFileSync(cli, 'utf8');
  assert.doesNotMatch(bundle, VSCODE_IMPORT);
  const help = execFileSync(process.execPath, [cli, '--help'], { encoding: 'utf8' });
  assert.match(help, /Usage: mcp-workbench/);
});

test('the lint rule rejects a vscode import in src/core', { timeout: 60_000 }, () => {
  const probe = 'import * as vscode from "vscode";\nexport const v = vscode;\n';
  let output = '';
  try {
    execFileSync(process.execPath, [path.join(root, 'node_modules/eslint/bin/eslint.js'), '--stdin', '--stdin-filename', 'src/core/probe.ts'], {
      cwd: root,
      input: probe,
      encoding: 'utf8',
      stdio: 'pipe',
    });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? '');
  }
  assert.match(output, /no-restricted-imports/);
});
