/**
 * esbuild.js itself: a module of the core cannot land in a chunk silently (one missing from CHUNKS fails the build; so
 * does a module in two files), and --watch writes what a build writes. What the chunks hold and what loading
 * extension.js evaluates are architecture.test.ts's and bundleLoad.test.ts's.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot as REPO_ROOT } from '../../support/paths';

interface Metafile {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}
const build = createRequire(__filename)(path.join(REPO_ROOT, 'esbuild.js')) as {
  chunkOf(file: string): string | undefined;
  checkEachModuleOnce(results: { metafile: Metafile }[]): void;
};

test('each module of the core is in the chunk of the longest entry of CHUNKS that holds it', () => {
  assert.equal(build.chunkOf('src/workbench/node/historyFile.ts'), 'startup');
  assert.equal(build.chunkOf('src/workbench/node/launch.ts'), 'client');
  assert.equal(build.chunkOf('src/workbench/node/auth/fileAuthStore.ts'), 'auth');
  assert.equal(build.chunkOf('src/protocol/validation/jsonSchema/keywords.ts'), 'forms');
  // A package by its folder in node_modules, wherever that is (here a symbolic link may lead to another checkout).
  assert.equal(build.chunkOf('../elsewhere/node_modules/oauth4webapi/build/index.js'), 'oauth');
  // extension.js's and cli.js's own modules, and a package in no chunk, are bundled where they are imported.
  assert.equal(build.chunkOf('src/extension/extension.ts'), undefined);
  assert.equal(build.chunkOf('node_modules/some-package/index.js'), undefined);
});

test('a module of the core in a folder CHUNKS does not list fails the build (it used to land in the start-up chunk)', () => {
  assert.throws(
    () => build.chunkOf('src/workbench/newFeature/thing.ts'),
    /src\/workbench\/newFeature\/thing\.ts is in no chunk of the core: add its folder or file to CHUNKS/,
  );
  assert.throws(() => build.chunkOf('src/protocol/newModule.ts'), /is in no chunk/);
});

test('a module in two files fails the build', () => {
  const output = (file: string, ...inputs: string[]) => ({
    metafile: { outputs: { [file]: { inputs: Object.fromEntries(inputs.map((input) => [input, {}])) } } },
  });
  // A chunk's entry and its facades are esbuild's virtual modules (namespace:path), in every file by design.
  build.checkEachModuleOnce([
    output('dist/shared-startup.js', '<stdin>', 'lazy-chunks:lazy-exports', 'src/protocol/errors.ts'),
    output('dist/extension.js', 'lazy-chunks:lazy-exports', 'src/extension/extension.ts'),
  ]);
  assert.throws(
    () =>
      build.checkEachModuleOnce([
        output('dist/shared-startup.js', 'node_modules/pkg/index.js'),
        output('dist/shared-client.js', 'node_modules/pkg/index.js'),
      ]),
    /node_modules\/pkg\/index\.js is in both shared-startup\.js and shared-client\.js/,
  );
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
        .filter((name) => name.endsWith('.js'))
        .sort();
    assert.ok(code(built).includes('shared-startup.js'), code(built).join(', '));
    assert.deepEqual(code(watched), code(built));
    for (const file of code(built))
      assert.ok(readFileSync(path.join(watched, file)).equals(readFileSync(path.join(built, file))), `${file} differs`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
