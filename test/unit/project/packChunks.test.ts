/**
 * scripts/pack-chunks.js on a build of its own making: small chunks written into packs run exactly when their own files
 * would have been required (once, in a cycle too, never before an import() reaches them), and a chunk that threw runs
 * again at the next require, as Node's require does. The production build itself: bundleBuild.test.ts.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../support/paths';

const { packChunks, SMALL_CHUNK_BYTES } = createRequire(__filename)(
  path.join(repoRoot, 'scripts', 'pack-chunks.js'),
) as {
  packChunks(files: Map<string, string>, entries: { extension: string; cli: string }): Map<string, string>;
  SMALL_CHUNK_BYTES: number;
};

/** Each chunk logs when it runs into globalThis.ran. */
const runs = (name: string) => `(globalThis.ran??=[]).push(${JSON.stringify(name)});`;

function build(): Map<string, string> {
  return new Map([
    ['chunk-runtime.js', 'var __helper=1;module.exports={__helper};'],
    // extension.js: a (which requires b, which requires a back) at once; c behind an import(). Its activate returns
    // what it has (the packed build's entry calls it).
    [
      'extension.js',
      `${runs('extension')}var a=require("./chunk-AAAA.js");var later=()=>Promise.resolve().then(()=>require("./chunk-CCCC.js"));exports.activate=(context)=>({a,later,context});exports.deactivate=()=>"deactivated";`,
    ],
    ['chunk-AAAA.js', `${runs('a')}exports.name="a";var b=require("./chunk-BBBB.js");exports.fromB=b.name;`],
    ['chunk-BBBB.js', `${runs('b')}var a=require("./chunk-AAAA.js");exports.name="b";exports.aSeen=a.name;`],
    // c: small, in the later pack; it requires d, larger than a pack takes, left in its own file.
    ['chunk-CCCC.js', `${runs('c')}exports.d=require("./chunk-DDDD.js").size;`],
    ['chunk-DDDD.js', `${runs('d')}exports.size=${SMALL_CHUNK_BYTES};/*${'x'.repeat(SMALL_CHUNK_BYTES)}*/`],
    // cli.js: b (in the start pack, shared), e only the CLI loads, and f that throws the first time.
    [
      'cli.js',
      `#!/usr/bin/env node\n${runs('cli')}require("./chunk-BBBB.js");require("./chunk-EEEE.js");try{require("./chunk-FFFF.js")}catch(e){(globalThis.ran).push("f threw")}exports.f=()=>require("./chunk-FFFF.js");`,
    ],
    ['chunk-EEEE.js', `${runs('e')}`],
    [
      'chunk-FFFF.js',
      `${runs('f')}if(!globalThis.failedOnce){globalThis.failedOnce=true;throw new Error("once")}exports.ok=true;`,
    ],
  ]);
}

function written(): string {
  const out = mkdtempSync(path.join(os.tmpdir(), 'mcp-pack-chunks-'));
  for (const [name, code] of packChunks(build(), { extension: 'extension.js', cli: 'cli.js' }))
    writeFileSync(path.join(out, name), code);
  return out;
}

/** Runs `script` in a fresh node with the packed build in `dir`; returns what it prints. */
function inNode(dir: string, script: string): string {
  return execFileSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8' }).trim();
}

test('the packs: what extension.js loads at once, what cli.js adds, small later chunks; large ones stay files', () => {
  const dir = written();
  try {
    assert.deepEqual(readdirSync(dir).sort(), [
      'chunk-DDDD.js',
      'chunk-cli.js',
      'chunk-later.js',
      'chunk-runtime.js',
      'chunk-start.js',
      'cli.js',
      'extension-main.js',
      'extension.js',
    ]);
    for (const name of readdirSync(dir))
      assert.doesNotMatch(
        readFileSync(path.join(dir, name), 'utf8'),
        /require\("\.\/chunk-(?!runtime)/,
        `${name} requires a chunk past the loader`,
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a packed chunk runs when required, once, in a cycle as with require; a later one only when reached', () => {
  const dir = written();
  try {
    const atLoad = inNode(
      dir,
      `const x=require("./extension.js");const before=globalThis.ran;const e=x.activate({});console.log(JSON.stringify([before,globalThis.ran,e.a.fromB,require.cache[require.resolve("./chunk-later.js")]!==undefined,x.deactivate()]))`,
    );
    // The entry loads nothing of the extension's code until activated. b sees a half-evaluated a (its name set before
    // it required b), as require gives a module in a cycle.
    assert.deepEqual(JSON.parse(atLoad), [null, ['extension', 'a', 'b'], 'b', false, 'deactivated']);
    const later = inNode(
      dir,
      `const e=require("./extension.js").activate({});e.later().then((c)=>{require("./extension.js");console.log(JSON.stringify([globalThis.ran,c.d]))})`,
    );
    assert.deepEqual(JSON.parse(later), [['extension', 'a', 'b', 'c', 'd'], SMALL_CHUNK_BYTES]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a chunk that threw runs again when next required; the CLI keeps its shebang', () => {
  const dir = written();
  try {
    const out = inNode(
      dir,
      `const c=require("./cli.js");const ok=c.f().ok;console.log(JSON.stringify([globalThis.ran,ok,require("fs").readFileSync("cli.js","utf8").split("\\n")[0]]))`,
    );
    assert.deepEqual(JSON.parse(out), [['cli', 'b', 'a', 'e', 'f', 'f threw', 'f'], true, '#!/usr/bin/env node']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A script that activates the packed build's entry in `dir` with its global storage in `storage`, then prints `show`. */
function activated(storage: string, show: string): string {
  return `const x=require("./extension.js");const e=x.activate({globalStorageUri:{scheme:"file",fsPath:${JSON.stringify(storage)}}});const rt=require("./chunk-runtime.js");${show};process.exit(0);`;
}

test('the code cache: written for each file the entry compiled, then used; a file changed, or a bad cache, is compiled anew', () => {
  const dir = written();
  const storage = mkdtempSync(path.join(os.tmpdir(), 'mcp-pack-storage-'));
  const cacheDir = path.join(storage, 'code-cache');
  try {
    const first = inNode(
      dir,
      activated(
        storage,
        'console.log(JSON.stringify([globalThis.ran,rt.__mcpwbCodeCacheUsed(),rt.__mcpwbWriteCodeCache().length]))',
      ),
    );
    assert.deepEqual(JSON.parse(first), [['extension', 'a', 'b'], [], 0]);
    const cached = readdirSync(cacheDir).sort();
    assert.deepEqual(
      cached.map((name) => name.replace(/\.[0-9a-f]{16}\.v8$/, '')),
      ['chunk-start.js', 'extension-main.js'],
      cached.join(', '),
    );
    const second = inNode(
      dir,
      activated(storage, 'console.log(JSON.stringify([globalThis.ran,e.a.fromB,rt.__mcpwbCodeCacheUsed()]))'),
    );
    assert.deepEqual(JSON.parse(second), [['extension', 'a', 'b'], 'b', ['extension-main.js', 'chunk-start.js']]);

    // A cache V8 refuses (here: truncated) costs the compile, never the code; it is written again.
    const startCache = cached.find((name) => name.startsWith('chunk-start.js.')) ?? '';
    writeFileSync(path.join(cacheDir, startCache), readFileSync(path.join(cacheDir, startCache)).subarray(0, 64));
    const refused = inNode(
      dir,
      activated(
        storage,
        'console.log(JSON.stringify([globalThis.ran,e.a.fromB,rt.__mcpwbCodeCacheUsed(),rt.__mcpwbWriteCodeCache().length]))',
      ),
    );
    assert.deepEqual(JSON.parse(refused), [['extension', 'a', 'b'], 'b', ['extension-main.js'], 0]);
    assert.ok(readFileSync(path.join(cacheDir, startCache)).length > 64, 'the refused cache was written again');

    // A new version of a file (its content changed, same length: V8 would not tell) is compiled, never run from the
    // old cache, whose file goes when the new one is written.
    const main = readFileSync(path.join(dir, 'extension-main.js'), 'utf8');
    const changed = packChunks(
      new Map(
        [...build()].map(([name, code]) => [
          name,
          name === 'extension.js' ? code.replace('"deactivated"', '"deactivatee"') : code,
        ]),
      ),
      { extension: 'extension.js', cli: 'cli.js' },
    );
    for (const [name, code] of changed) writeFileSync(path.join(dir, name), code);
    assert.equal(readFileSync(path.join(dir, 'extension-main.js'), 'utf8').length, main.length);
    const newVersion = inNode(
      dir,
      activated(
        storage,
        'console.log(JSON.stringify([x.deactivate(),rt.__mcpwbCodeCacheUsed(),rt.__mcpwbWriteCodeCache().length]))',
      ),
    );
    assert.deepEqual(JSON.parse(newVersion), ['deactivatee', ['chunk-start.js'], 0]);
    assert.equal(readdirSync(cacheDir).filter((name) => name.startsWith('extension-main.js.')).length, 1);
    assert.ok(!readdirSync(cacheDir).includes(cached.find((name) => name.startsWith('extension-main.js.')) ?? ''));
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(storage, { recursive: true, force: true });
  }
});

test('a code cache that cannot be written is reported and costs nothing else; the CLI never uses one', () => {
  const dir = written();
  const storage = mkdtempSync(path.join(os.tmpdir(), 'mcp-pack-storage-'));
  try {
    // The cache's folder is a file: nothing can be written under it.
    writeFileSync(path.join(storage, 'code-cache'), '');
    const out = inNode(
      dir,
      activated(
        storage,
        'console.log(JSON.stringify([e.a.fromB,rt.__mcpwbWriteCodeCache().map((error)=>error.code)]))',
      ),
    );
    assert.deepEqual(JSON.parse(out), ['b', ['EEXIST']]);
    const cli = inNode(
      dir,
      `require("./cli.js");const rt=require("./chunk-runtime.js");console.log(JSON.stringify([rt.__mcpwbCodeCacheUsed(),rt.__mcpwbWriteCodeCache().length]))`,
    );
    assert.deepEqual(JSON.parse(cli.split('\n').pop() ?? ''), [[], 0]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(storage, { recursive: true, force: true });
  }
});

test("once activated, a later chunk's code cache is written after its first load, without a call", () => {
  const dir = written();
  const storage = mkdtempSync(path.join(os.tmpdir(), 'mcp-pack-storage-'));
  const cacheDir = path.join(storage, 'code-cache');
  try {
    // What the entry does once activation settled (no delay here); then the import() of c, which loads d (a file):
    // the child waits for d's cache (or 10 s) and prints the cache's files.
    const out = inNode(
      dir,
      `const fs=require("fs");const x=require("./extension.js");const e=x.activate({globalStorageUri:{scheme:"file",fsPath:${JSON.stringify(storage)}}});` +
        `const rt=require("./chunk-runtime.js");const errors=[];rt.__mcpwbWriteCodeCacheAfter(0,(e)=>errors.push(...e));` +
        `const files=()=>fs.existsSync(${JSON.stringify(cacheDir)})?fs.readdirSync(${JSON.stringify(cacheDir)}).map((n)=>n.replace(/\\.[0-9a-f]{16}\\.v8$/,"")).sort():[];` +
        `const until=(done,then)=>{const end=Date.now()+10000;const poll=setInterval(()=>{if(done()||Date.now()>end){clearInterval(poll);then()}},5)};` +
        `until(()=>files().length===2,()=>{const first=files();e.later().then((c)=>until(()=>files().includes("chunk-DDDD.js"),()=>console.log(JSON.stringify([first,c.d,files(),errors.length]))))})`,
    );
    assert.deepEqual(JSON.parse(out), [
      ['chunk-start.js', 'extension-main.js'],
      SMALL_CHUNK_BYTES,
      ['chunk-DDDD.js', 'chunk-later.js', 'chunk-start.js', 'extension-main.js'],
      0,
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(storage, { recursive: true, force: true });
  }
});
