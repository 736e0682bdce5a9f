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
    // extension.js: a (which requires b, which requires a back) at once; c behind an import().
    [
      'extension.js',
      `${runs('extension')}var a=require("./chunk-AAAA.js");exports.later=()=>Promise.resolve().then(()=>require("./chunk-CCCC.js"));exports.a=a;`,
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
      `const e=require("./extension.js");console.log(JSON.stringify([globalThis.ran,e.a.fromB,require.cache[require.resolve("./chunk-later.js")]!==undefined]))`,
    );
    // b sees a half-evaluated a (its name set before it required b), as require gives a module in a cycle.
    assert.deepEqual(JSON.parse(atLoad), [['extension', 'a', 'b'], 'b', false]);
    const later = inNode(
      dir,
      `const e=require("./extension.js");e.later().then((c)=>{require("./extension.js");console.log(JSON.stringify([globalThis.ran,c.d]))})`,
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
