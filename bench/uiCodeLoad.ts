/**
 * Where the extension's code load goes (issue 42's activation row), outside VS Code, so that the machine's noise is
 * paid once per run and not per window: `node --import tsx bench/uiCodeLoad.ts`. Not part of `npm run bench:ui`.
 *
 * It builds the production bundle into a temp folder (`esbuild.js --production`: CommonJS files), and requires
 * `extension.js` in fresh Node processes, `require('vscode')` answered with a stub that only has the API's names (as
 * the extension host answers it, by hooking the module loader). Three variants, alternated, BENCH_CODE_LOAD_RUNS
 * (default 15) fresh processes each, the time of the require:
 *   - as shipped: extension.js and the chunks it requires at once (a chunk an `import()` of the sources loads is
 *     required behind a promise, later);
 *   - merged: the same start-up code bundled into one file, which tells what the number of files costs apart from
 *     their bytes;
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
    // What each file requires at once, and what it requires later (an `import()` of the sources: a require behind a
    // promise, `.then(()=>h(require("./chunk-X.js")))`).
    const text = (name: string) => fs.readFileSync(path.join(shipped, name), 'utf8');
    const LATER_REQUIRE = /then\(\(\)=>\w*\(?require\("\.\/(chunk-\w+\.js)"\)/g;
    const REQUIRE = /require\("\.\/(chunk-\w+\.js)"\)/g;
    const lazy = new Set<string>();
    for (const name of fs.readdirSync(shipped).filter((file) => file.endsWith('.js')))
      for (const [, chunk] of text(name).matchAll(LATER_REQUIRE)) lazy.add(chunk);
    const seen = new Set<string>();
    const visit = (name: string) => {
      if (seen.has(name)) return;
      seen.add(name);
      const now = text(name).replace(LATER_REQUIRE, '');
      for (const [, chunk] of now.matchAll(REQUIRE)) visit(chunk);
    };
    visit('extension.js');
    const startBytes = [...seen].reduce((sum, name) => sum + fs.statSync(path.join(shipped, name)).size, 0);
    await esbuild.build({
      entryPoints: [path.join(shipped, 'extension.js')],
      bundle: true,
      format: 'cjs',
      platform: 'node',
      minify: true,
      outfile: path.join(shipped, 'merged.js'),
      logLevel: 'error',
      plugins: [
        {
          name: 'lazy-stays-lazy',
          setup(build) {
            build.onResolve({ filter: /.*/ }, (args) =>
              lazy.has(path.basename(args.path)) || args.path === 'vscode'
                ? { path: args.path, external: true }
                : undefined,
            );
          },
        },
      ],
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
        `const started = performance.now();\n` +
        `require(process.argv[2]);\n` +
        `console.log(performance.now() - started);\n`,
    );
    const variants = {
      'as shipped': path.join(shipped, 'extension.js'),
      'merged into one file': path.join(shipped, 'merged.js'),
      'an empty extension (floor)': empty,
    };
    const times: Record<string, number[]> = {};
    for (let run = 0; run < RUNS; run++)
      for (const [name, file] of Object.entries(variants)) {
        const out = execFileSync(process.execPath, [runner, file], { encoding: 'utf8' });
        (times[name] ??= []).push(Number(out.trim()));
      }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const files = (name: string) => (name === 'as shipped' ? seen.size : 1);
    const bytes = (name: string) =>
      name === 'an empty extension (floor)'
        ? fs.statSync(empty).size
        : name === 'as shipped'
          ? startBytes
          : fs.statSync(path.join(shipped, 'merged.js')).size;
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
