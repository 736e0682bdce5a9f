/**
 * Where the extension's code load goes (issue 42's activation row), outside VS Code, so that the machine's noise is
 * paid once per run and not per window: `node --import tsx bench/uiCodeLoad.ts`. Not part of `npm run bench:ui`.
 *
 * It builds the production bundle into a temp folder (`esbuild.js --production`: CommonJS files), and loads the
 * extension's code in fresh Node processes as its entry does at activation (extension-main.js through the loader of
 * scripts/pack-chunks.js, with its code cache folder), `require('vscode')` answered with a stub that only has the API's
 * names (as the extension host answers it, by hooking the module loader). Three variants, alternated,
 * BENCH_CODE_LOAD_RUNS (default 15) fresh processes each, the time of the load and the files of the build it read:
 *   - the first window: the code compiled (its code cache folder empty): extension-main.js and what it requires at
 *     once (the runtime and the start-up pack; what an `import()` of the sources loads is required later);
 *   - later windows: the same from the code cache the first one wrote;
 *   - an empty extension: the floor.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const RUNS = Number(process.env.BENCH_CODE_LOAD_RUNS ?? 15);
const REPO = path.join(__dirname, '..');

/** A `vscode` module with every exported name of @types/vscode, each a proxy that accepts anything. */
function vscodeStub(): string {
  const types = fs.readFileSync(path.join(REPO, 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8');
  const names = new Set(
    [...types.matchAll(/^\s*export (?:namespace|class|enum|function|const|let|var) ([A-Za-z0-9_]+)/gm)].map(
      (match) => match[1],
    ),
  );
  const any =
    'const P = new Proxy(function () {}, { get: (t, k) => (k === "prototype" ? {} : k === "then" ? undefined : P),' +
    ' apply: () => P, construct: () => P, set: () => true, defineProperty: () => true });';
  return [any, ...[...names].map((name) => `export const ${name} = P;`), 'export default P;'].join('\n');
}

function write(file: string, text: string): string {
  fs.writeFileSync(file, text);
  return file;
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-bench-code-load-'));
  try {
    const shipped = path.join(tmp, 'shipped');
    // The production build as esbuild.js writes it (CommonJS, scripts/build-commonjs.js), into the temp folder.
    execFileSync(process.execPath, [path.join(REPO, 'esbuild.js'), '--production', `--outdir=${shipped}`], {
      cwd: REPO,
    });
    const stub = write(path.join(tmp, 'vscode-stub.mjs'), vscodeStub());
    const stubCjs = path.join(tmp, 'vscode-stub.cjs');
    await esbuild.build({ entryPoints: [stub], format: 'cjs', outfile: stubCjs, logLevel: 'error' });
    const empty = write(path.join(tmp, 'empty.js'), "require('vscode');\nexports.activate = function () {};\n");
    const runner = write(
      path.join(tmp, 'run.js'),
      // The extension host answers require('vscode') by hooking Module._load; so does this.
      `const Module = require('node:module');\n` +
        `const fs = require('node:fs');\n` +
        `const load = Module._load;\n` +
        `Module._load = function (request, ...rest) { return load.call(this, request === 'vscode' ? ${JSON.stringify(stubCjs)} : request, ...rest); };\n` +
        `require(${JSON.stringify(stubCjs)});\n` +
        // The code files of the build it reads on the way (required or compiled by the loader).
        `const [file, cacheDir, then] = process.argv.slice(2);\n` +
        `const dir = require('node:path').dirname(file);\n` +
        `const read = new Set();\n` +
        `const readFileSync = fs.readFileSync;\n` +
        `fs.readFileSync = function (name, ...rest) { if (typeof name === 'string' && name.startsWith(dir) && name.endsWith('.js')) read.add(name); return readFileSync.call(this, name, ...rest); };\n` +
        `const started = performance.now();\n` +
        // A packed build's entry loads the extension's code at activation, through the loader, with its code cache.
        `if (cacheDir) { const rt = require(dir + '/chunk-runtime.js'); rt.__mcpwbUseCodeCache(cacheDir); rt.__mcpwbRequire('extension-main.js'); }\n` +
        `else require(file);\n` +
        `const ms = performance.now() - started;\n` +
        `if (then === 'write') require(dir + '/chunk-runtime.js').__mcpwbWriteCodeCache();\n` +
        `const bytes = [...read].reduce((sum, name) => sum + fs.statSync(name).size, 0);\n` +
        `console.log(JSON.stringify({ ms, files: read.size, bytes }));\n`,
    );
    const entry = path.join(shipped, 'extension.js');
    const warmCache = path.join(tmp, 'code-cache');
    const coldCache = path.join(tmp, 'no-code-cache');
    // Once, as the first window does after activating: the code cache written.
    execFileSync(process.execPath, [runner, entry, warmCache, 'write']);
    const variants: Record<string, string[]> = {
      "the extension's code compiled (the first window)": [entry, coldCache],
      "the extension's code from its code cache (later windows)": [entry, warmCache],
      'an empty extension (floor)': [empty],
    };
    const times: Record<string, number[]> = {};
    const read: Record<string, { files: number; bytes: number }> = {};
    for (let run = 0; run < RUNS; run++)
      for (const [name, args] of Object.entries(variants)) {
        // The first window's has no cache: none is written, and its folder stays empty.
        const out = JSON.parse(execFileSync(process.execPath, [runner, ...args], { encoding: 'utf8' })) as {
          ms: number;
          files: number;
          bytes: number;
        };
        (times[name] ??= []).push(out.ms);
        read[name] = out;
      }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const files = (name: string) => read[name].files;
    const bytes = (name: string) => read[name].bytes;
    console.log(
      `\nCode load outside VS Code: ${RUNS} fresh Node ${process.version} processes per variant, require('vscode') answered as the extension host answers it\n`,
    );
    console.log('| start-up code | files | KB | import, median | all runs |');
    console.log('| --- | ---: | ---: | ---: | --- |');
    for (const name of Object.keys(variants))
      console.log(
        `| ${name} | ${files(name)} | ${(bytes(name) / 1024).toFixed(0)} | ${median(times[name]).toFixed(0)} ms | ${times[name].map((ms) => ms.toFixed(0)).join(', ')} |`,
      );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
