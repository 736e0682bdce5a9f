/**
 * Where the extension's code load goes (issue 42's activation row), outside VS Code, so that the machine's noise is
 * paid once per run and not per window: `node --import tsx bench/uiCodeLoad.ts`. Not part of `npm run bench:ui`.
 *
 * It builds the production bundle into a temp folder (esbuild.js's own options), and imports `extension.mjs` in fresh
 * Node processes the way VS Code's extension host does since 1.100: an ES module, with a module loader hook
 * registered (`module.register`, which runs on a thread of its own and sees every import) that answers `vscode`
 * (here with a stub that only has the API's names). Three variants, alternated, BENCH_CODE_LOAD_RUNS (default 15)
 * fresh processes each, the import's time from the loader's warm start to the module evaluated:
 *   - as shipped: extension.mjs and the chunks it imports (esbuild's code splitting; dynamic imports stay lazy);
 *   - merged: the same start-up code bundled into one file (the dynamic imports still lazy), which tells what the
 *     number of files costs apart from their bytes;
 *   - an empty extension: the floor of any ES-module extension under the same loader.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
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
    const { codeTarget } = createRequire(__filename)(path.join(REPO, 'esbuild.js')) as {
      codeTarget: esbuild.BuildOptions;
    };
    const shipped = path.join(tmp, 'shipped');
    const result = await esbuild.build({
      ...codeTarget,
      plugins: [],
      minify: true,
      sourcemap: false,
      outdir: shipped,
      define: { MCP_WORKBENCH_TEST_BUILD: 'false' },
    });
    const outputs = result.metafile?.outputs ?? {};
    const entry = Object.keys(outputs).find((output) => path.basename(output) === 'extension.mjs') as string;
    const seen = new Set<string>();
    const visit = (output: string) => {
      if (seen.has(output)) return;
      seen.add(output);
      for (const imported of outputs[output].imports)
        if (imported.kind === 'import-statement' && outputs[imported.path]) visit(imported.path);
    };
    visit(entry);
    const startBytes = [...seen].reduce((sum, output) => sum + (outputs[output]?.bytes ?? 0), 0);
    await esbuild.build({
      entryPoints: [path.join(shipped, 'extension.mjs')],
      bundle: true,
      format: 'esm',
      platform: 'node',
      minify: true,
      outfile: path.join(shipped, 'merged.mjs'),
      logLevel: 'error',
      plugins: [
        {
          name: 'lazy-stays-lazy',
          setup(build) {
            build.onResolve({ filter: /.*/ }, (args) =>
              args.kind === 'dynamic-import' || args.path === 'vscode'
                ? { path: args.path, external: true }
                : undefined,
            );
          },
        },
      ],
    });
    const stub = write(path.join(tmp, 'vscode-stub.mjs'), vscodeStub());
    const empty = write(
      path.join(tmp, 'empty.mjs'),
      "import * as vscode from 'vscode';\nexport function activate() {}\n",
    );
    const hooks = write(
      path.join(tmp, 'hooks.mjs'),
      `export async function resolve(specifier, context, next) {\n` +
        `  if (specifier === 'vscode') return { url: ${JSON.stringify(`file://${stub}`)}, shortCircuit: true };\n` +
        `  return next(specifier, context);\n}\n`,
    );
    const runner = write(
      path.join(tmp, 'run.mjs'),
      `import { register } from 'node:module';\n` +
        `register(${JSON.stringify(`file://${hooks}`)});\n` +
        // The hook's thread is up before the extension is imported, as in the extension host.
        `await import(${JSON.stringify(`file://${stub}`)});\n` +
        `const started = performance.now();\n` +
        `await import(process.argv[2]);\n` +
        `console.log(performance.now() - started);\n`,
    );
    const variants = {
      'as shipped': path.join(shipped, 'extension.mjs'),
      'merged into one file': path.join(shipped, 'merged.mjs'),
      'an empty extension (floor)': empty,
    };
    const times: Record<string, number[]> = {};
    for (let run = 0; run < RUNS; run++)
      for (const [name, file] of Object.entries(variants)) {
        const out = execFileSync(process.execPath, [runner, `file://${file}`], { encoding: 'utf8' });
        (times[name] ??= []).push(Number(out.trim()));
      }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const files = (name: string) => (name === 'as shipped' ? seen.size : 1);
    const bytes = (name: string) =>
      name === 'an empty extension (floor)'
        ? fs.statSync(empty).size
        : name === 'as shipped'
          ? startBytes
          : fs.statSync(path.join(shipped, 'merged.mjs')).size;
    console.log(
      `\nCode load outside VS Code: ${RUNS} fresh Node ${process.version} processes per variant, a loader hook as the extension host registers\n`,
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
