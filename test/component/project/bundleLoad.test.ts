/**
 * What loading the extension costs: extension.js takes the core from its chunks (dist/shared-*.js) through lazy
 * facades (esbuild.js), so a module of the core is evaluated, and its chunk read, when the extension first reads one of
 * its exports, not when the extension loads. With eager facades, loading extension.js evaluated 64 of the core's 79
 * entry modules, the regex engine, the JSON Schema validator, OAuth, forms, registry and recordings among them,
 * whatever the first screen showed.
 *
 * The bundles are built from the sources as esbuild.js builds them (not minified, so esbuild's module wrappers keep
 * their names), the wrappers of every chunk are made to record each module they evaluate and the chunk's loading, and
 * extension.js is loaded in a child process with a stand-in for the `vscode` API (every name of @types/vscode, each a
 * callable, constructible stub). activate() is not called: what it reads at start-up is its own, measured by
 * `npm run bench:ui`.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { REPO_ROOT } from '../../support/testSupport';

let out: string;
let chunks: string[];
before(() => {
  out = mkdtempSync(path.join(os.tmpdir(), 'mcp-bundle-load-'));
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'esbuild.js'), `--outdir=${out}`], {
    cwd: REPO_ROOT,
    stdio: 'pipe',
  });
  // esbuild's wrappers: `__esm` for an ES module, `__commonJS` for a CommonJS one; each runs its module's body once,
  // from an object whose one key is the module's path. Both are made to record that path first.
  const wrappers = [
    ['return fn && (res = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), res;', 'fn'],
    ['return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;', 'cb'],
  ] as const;
  chunks = readdirSync(out).filter((name) => /^shared-[\w-]+\.js$/.test(name));
  assert.ok(
    chunks.includes('shared-startup.js') && chunks.includes('shared-client.js'),
    `chunks: ${chunks.join(', ')}`,
  );
  for (const chunk of chunks) {
    let text = readFileSync(path.join(out, chunk), 'utf8');
    for (const [body, holder] of wrappers) {
      if (!text.includes(body)) continue; // a chunk without CommonJS modules has no __commonJS
      text = text.replace(body, `if (${holder}) globalThis.__evaluated.push(__getOwnPropNames(${holder})[0]); ${body}`);
    }
    assert.ok(
      text.includes('globalThis.__evaluated.push'),
      `esbuild's module wrappers changed; the test cannot see evaluations in ${chunk}`,
    );
    writeFileSync(path.join(out, chunk), `(globalThis.__evaluated ??= []).push(${JSON.stringify(chunk)});\n${text}`);
  }
});
after(() => rmSync(out, { recursive: true, force: true }));

const LOADER = `
const Module = require('node:module');
const path = require('node:path');
const [dist, typesFile, afterLoadChunk, afterLoad] = process.argv.slice(1);
const stub = () => {
  const callable = function () { return stub(); };
  return new Proxy(callable, {
    get: (target, key) => (key === '__esModule' ? false : key === 'prototype' ? {} : key === Symbol.toPrimitive ? () => 'stub' : stub()),
    construct: () => stub(),
  });
};
const names = new Set([...require('node:fs').readFileSync(typesFile, 'utf8').matchAll(/export (?:namespace|class|enum|function|const|let) (\\w+)/g)].map((match) => match[1]));
const vscode = {};
for (const name of names) vscode[name] = stub();
const load = Module._load;
Module._load = function (request, ...rest) { return request === 'vscode' ? vscode : load.call(this, request, ...rest); };
require(path.join(dist, 'extension.js'));
const atLoad = [...(globalThis.__evaluated ?? [])];
// The positive control: reading one export of a facade evaluates that module.
if (afterLoad) require(path.join(dist, afterLoadChunk))[afterLoad];
process.stdout.write(JSON.stringify({ atLoad, afterRead: globalThis.__evaluated ?? [] }));
`;

function loadExtension(readAfterLoad?: { chunk: string; key: string }): { atLoad: string[]; afterRead: string[] } {
  const types = path.join(REPO_ROOT, 'node_modules', '@types', 'vscode', 'index.d.ts');
  const output = execFileSync(
    process.execPath,
    ['-e', LOADER, out, types, readAfterLoad?.chunk ?? '', readAfterLoad?.key ?? ''],
    { encoding: 'utf8' },
  );
  return JSON.parse(output) as { atLoad: string[]; afterRead: string[] };
}

test('loading extension.js reads no chunk of the core and evaluates none of its modules', () => {
  const { atLoad } = loadExtension();
  assert.deepEqual(atLoad, []);
});

test('the first read of an export reads its chunk and evaluates its module and what it imports (the wrappers are observed)', () => {
  const { atLoad, afterRead } = loadExtension({
    chunk: 'shared-forms.js',
    key: 'src/protocol/validation/schemaValidation.ts',
  });
  assert.deepEqual(atLoad, []);
  for (const evaluated of [
    'shared-forms.js',
    'src/protocol/validation/schemaValidation.ts',
    'src/protocol/validation/regexVm.ts',
  ]) {
    assert.ok(afterRead.includes(evaluated), `${evaluated} was not evaluated: ${afterRead.join(', ')}`);
  }
  assert.ok(
    !afterRead.some((entry) => entry.includes('oauth') || entry === 'shared-client.js'),
    `the validator brings neither OAuth nor the client: ${afterRead.join(', ')}`,
  );
});
