/**
 * esbuild.js itself: a build leaves nothing of an earlier one behind, and --watch writes what a build writes. What
 * loading extension.js evaluates is bundleLoad.test.ts's; that the CLI's files never name vscode, architecture.test.ts's.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot as REPO_ROOT } from '../../support/paths';
import { EVERYTHING_SERVER } from '../../support/testSupport';

test('a build removes the files an earlier build left in its folder (chunk names change with their content)', () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'mcp-bundle-stale-'));
  try {
    // An older layout's files and a chunk no build makes any more: the VSIX packs whatever dist/ holds.
    for (const name of ['shared-startup.js', 'extension.mjs', 'chunk-GONE0000.js', 'chunk-GONE0000.js.map'])
      writeFileSync(path.join(out, name), '// stale\n');
    execFileSync(process.execPath, [path.join(REPO_ROOT, 'esbuild.js'), `--outdir=${out}`], {
      cwd: REPO_ROOT,
      stdio: 'pipe',
    });
    const files = readdirSync(out);
    assert.ok(files.includes('extension.js') && files.includes('cli.js') && files.includes('media'), files.join(', '));
    assert.deepEqual(
      files.filter((name) => /^(shared-|extension\.mjs|chunk-GONE)/.test(name)),
      [],
    );
    assert.ok(files.includes('extension.js.map'), 'the source maps this build made are kept');
    // Every file is CommonJS (scripts/build-commonjs.js), and the conversion's helpers are written once, in
    // chunk-runtime.js, which the others require.
    const code = files.filter((name) => name.endsWith('.js'));
    const text = (name: string) => readFileSync(path.join(out, name), 'utf8');
    assert.ok(code.length > 20 && code.includes('chunk-runtime.js'), code.join(', '));
    for (const name of code) {
      assert.doesNotMatch(text(name), /^(import|export)\b/m, `${name} is an ES module`);
      // (the conversion's helpers open a file; a bundled package's own helpers may stand inside one)
      const opening = text(name)
        .replace(/^#!.*\n/, '')
        .trimStart();
      if (name !== 'chunk-runtime.js') assert.doesNotMatch(opening, /^var __\w+ = /, `${name} defines a helper`);
    }
    assert.match(text('extension.js'), /require\("\.\/chunk-runtime\.js"\)/);
    assert.match(
      execFileSync(process.execPath, [path.join(out, 'cli.js'), '--help'], { encoding: 'utf8' }),
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
        .filter((name) => name.endsWith('.js') || name.endsWith('.js.map'))
        .sort();
    assert.ok(code(built).includes('extension.js') && code(built).includes('cli.js'), code(built).join(', '));
    assert.deepEqual(code(watched), code(built));
    for (const file of code(built))
      assert.ok(readFileSync(path.join(watched, file)).equals(readFileSync(path.join(built, file))), `${file} differs`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('a production build packs the small chunks (scripts/pack-chunks.js): a few files, and the CLI runs through them', () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'mcp-bundle-packed-'));
  try {
    execFileSync(process.execPath, [path.join(REPO_ROOT, 'esbuild.js'), '--production', `--outdir=${out}`], {
      cwd: REPO_ROOT,
      stdio: 'pipe',
    });
    const code = readdirSync(out).filter((name) => name.endsWith('.js'));
    // ~170 chunks before; each file is compressed on its own in the VSIX.
    assert.ok(code.length < 40, `${code.length} files: ${code.join(', ')}`);
    for (const pack of ['chunk-start.js', 'chunk-cli.js', 'chunk-later.js'])
      assert.ok(code.includes(pack), `${pack} in ${code.join(', ')}`);
    for (const name of code)
      assert.doesNotMatch(
        readFileSync(path.join(out, name), 'utf8'),
        /require\("\.\/chunk-(?!runtime)/,
        `${name} requires a chunk past the loader`,
      );
    // A tool call reaches the client, its transport and the era (later chunks and packs) through the loader.
    const called = execFileSync(
      process.execPath,
      [
        path.join(out, 'cli.js'),
        'call',
        '--stdio',
        `"${process.execPath}" "${EVERYTHING_SERVER}"`,
        'echo',
        '{"message":"packed"}',
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    assert.match(called, /Echo: packed/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
