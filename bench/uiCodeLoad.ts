/**
 * Where the extension's code load goes (issue 42's activation row), outside VS Code, so that the machine's noise is
 * paid once per run and not per window: `node --import tsx bench/uiCodeLoad.ts`. Not part of `npm run bench:ui`.
 *
 * It builds the production bundle into a temp folder (`esbuild.js --production`: CommonJS files), and requires
 * `extension.js` in fresh Node processes, `require('vscode')` answered with a stub that only has the API's names (as
 * the extension host answers it, by hooking the module loader). Two variants, alternated, BENCH_CODE_LOAD_RUNS
 * (default 15) fresh processes each, the time of the require and the files of the build it read:
 *   - as shipped: extension.js and what it requires at once (the runtime and the start-up pack of
 *     scripts/pack-chunks.js; what an `import()` of the sources loads is required behind a promise, later);
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
        `const load = Module._load;\n` +
        `Module._load = function (request, ...rest) { return load.call(this, request === 'vscode' ? ${JSON.stringify(stubCjs)} : request, ...rest); };\n` +
        `require(${JSON.stringify(stubCjs)});\n` +
        // The files of the build it reads on the way (extension.js, the runtime, the start-up pack).
        `const read = new Set();\n` +
        `const resolve = Module._resolveFilename;\n` +
        `Module._resolveFilename = function (...args) { const file = resolve.apply(this, args); if (file.startsWith(require('node:path').dirname(process.argv[2]))) read.add(file); return file; };\n` +
        `const started = performance.now();\n` +
        `require(process.argv[2]);\n` +
        `const ms = performance.now() - started;\n` +
        `const bytes = [...read].reduce((sum, file) => sum + require('node:fs').statSync(file).size, 0);\n` +
        `console.log(JSON.stringify({ ms, files: read.size, bytes }));\n`,
    );
    const variants = {
      'as shipped': path.join(shipped, 'extension.js'),
      'an empty extension (floor)': empty,
    };
    const times: Record<string, number[]> = {};
    const read: Record<string, { files: number; bytes: number }> = {};
    for (let run = 0; run < RUNS; run++)
      for (const [name, file] of Object.entries(variants)) {
        const out = JSON.parse(execFileSync(process.execPath, [runner, file], { encoding: 'utf8' })) as {
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
