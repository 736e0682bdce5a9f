/**
 * esbuild.js itself: a build leaves nothing of an earlier one behind, and --watch writes what a build writes. What
 * loading extension.mjs evaluates is bundleLoad.test.ts's; that the CLI's files never name vscode, architecture.test.ts's.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot as REPO_ROOT } from '../../support/paths';

test('a build removes the files an earlier build left in its folder (chunk names change with their content)', () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'mcp-bundle-stale-'));
  try {
    // An older layout's files and a chunk no build makes any more: the VSIX packs whatever dist/ holds.
    for (const name of ['shared-startup.js', 'extension.js', 'chunk-GONE0000.mjs', 'chunk-GONE0000.mjs.map'])
      writeFileSync(path.join(out, name), '// stale\n');
    execFileSync(process.execPath, [path.join(REPO_ROOT, 'esbuild.js'), `--outdir=${out}`], {
      cwd: REPO_ROOT,
      stdio: 'pipe',
    });
    const files = readdirSync(out);
    assert.ok(
      files.includes('extension.mjs') && files.includes('cli.mjs') && files.includes('media'),
      files.join(', '),
    );
    assert.deepEqual(
      files.filter((name) => /^(shared-|extension\.js|chunk-GONE)/.test(name)),
      [],
    );
    assert.ok(files.includes('extension.mjs.map'), 'the source maps this build made are kept');
    // The `require` banner stays only on the files that name `require` (the bundled CommonJS packages' chunks); the
    // others get its two lines as empty lines (the source maps still match), and the CLI still runs.
    const code = files.filter((name) => name.endsWith('.mjs'));
    const banner = "import { createRequire as __mcpCreateRequire } from 'node:module';\n";
    // (after the hashbang of cli.mjs)
    const text = (name: string) => readFileSync(path.join(out, name), 'utf8').replace(/^#!.*\n/, '');
    const withBanner = code.filter((name) => text(name).startsWith(banner));
    const without = code.filter((name) => text(name).startsWith('\n\n'));
    assert.equal(withBanner.length + without.length, code.length, code.join(', '));
    assert.ok(without.length > 0 && withBanner.length > 0, `with: ${withBanner.join(', ')}`);
    for (const name of without) assert.doesNotMatch(text(name), /\brequire\b/, `${name} names require`);
    assert.match(
      execFileSync(process.execPath, [path.join(out, 'cli.mjs'), '--help'], { encoding: 'utf8' }),
      /Usage: mcp-workbench/,
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('--watch writes what a build writes', { timeout: 120_000 }, async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'mcp-bundle-build-'));
  try {
    const built = path.join(out, 'built');
    const watched = path.join(out, 'watched');
    execFileSync(process.execPath, [path.join(REPO_ROOT, 'esbuild.js'), `--outdir=${built}`], {
      cwd: REPO_ROOT,
      stdio: 'pipe',
    });
    const watcher = spawn(process.execPath, [path.join(REPO_ROOT, 'esbuild.js'), '--watch', `--outdir=${watched}`], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    try {
      await new Promise<void>((resolve, reject) => {
        const read = (data: Buffer) => {
          log += data.toString();
          if (log.includes('[ERROR]')) reject(new Error(log));
          else if (log.includes('[watch] build finished')) resolve();
        };
        watcher.stdout.on('data', read);
        watcher.stderr.on('data', read);
        watcher.on('exit', (code) => reject(new Error(`--watch exited (${code}): ${log}`)));
      });
    } finally {
      // Waited for: esbuild.js stops its esbuild service as it exits, so nothing of the watch outlives the test.
      const exited = new Promise((resolve) => watcher.once('exit', resolve));
      watcher.kill();
      await exited;
    }
    const code = (dir: string) =>
      readdirSync(dir)
        .filter((name) => name.endsWith('.mjs') || name.endsWith('.mjs.map'))
        .sort();
    assert.ok(code(built).includes('extension.mjs') && code(built).includes('cli.mjs'), code(built).join(', '));
    assert.deepEqual(code(watched), code(built));
    for (const file of code(built))
      assert.ok(readFileSync(path.join(watched, file)).equals(readFileSync(path.join(built, file))), `${file} differs`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
