// The production build's last step (scripts/build-commonjs.js): many of esbuild's chunks written into a few files.
//
// Why: esbuild's code splitting makes one chunk per set of entry points and `import()` seams that reach a module, and
// the build has ~170 of them, half under 2 KB. Each file of a VSIX is compressed on its own and carries its own ZIP
// headers, so small files cost the VSIX ~65 KB more than the same code in a few files (the facade build this one
// replaced had a few files). And the window's start read 61 files where one would do.
//
// How: a packed chunk is a function in a pack (`module.exports = { "chunk-X.js": function (module, exports) {…} }`),
// run once, the first time some file asks for it, exactly when its own file would have been required: every
// `require("./chunk-X.js")` of the build becomes `__mcpwbLoad("chunk-X.js")`, which runs a packed chunk's function
// (its pack file is required then) or requires a chunk left in its own file. So what a window or a command evaluates,
// and when, is as before (test/component/project/bundleLoad.test.ts); only what is read and parsed changes: a pack is
// parsed whole when first needed (V8 parses the functions it does not run lazily).
//
// The packs: `chunk-start.js`, what extension.js requires as it loads (the window's start); `chunk-cli.js`, what
// cli.js requires as it loads beyond that; `chunk-later.js`, the other chunks under SMALL_CHUNK_BYTES (the lazy
// seams' small pieces). Larger chunks stay files of their own (the gateway's server SDK, the client), read only when
// their seam is reached.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const RUNTIME = 'chunk-runtime.js';
/** The extension's own code in a packed build; extension.js is its entry (entry()). */
const MAIN = 'extension-main.js';
/**
 * How long after activation (and after a later chunk's first load) the code cache is written: off the window's start,
 * before most windows close.
 */
const CODE_CACHE_DELAY_MS = 3000;
const LOAD = '__mcpwbLoad';
const SMALL_CHUNK_BYTES = 8 * 1024;
const CHUNK_REQUIRE = /\brequire\("\.\/(chunk-\w+\.js)"\)/g;
/** A require behind a promise: what esbuild writes for an `import()` (`.then(()=>h(require("./chunk-X.js")))`). */
const LATER_REQUIRE = /then\(\(\)=>[\w$]*\(?require\("\.\/(chunk-\w+\.js)"\)/g;

/** The chunks a file requires as it is evaluated (not those behind an `import()`). */
function requiredAtOnce(code) {
  return [...code.replace(LATER_REQUIRE, '').matchAll(CHUNK_REQUIRE)].map((match) => match[1]);
}

/**
 * `files`: name → minified CommonJS code of every file of the build (entries, chunks, the runtime). Returns the files
 * to write, name → code: the entries and the chunks left alone, with their chunk requires through the loader; the
 * packs; the runtime with the loader and the table of which chunk is in which pack.
 */
function packChunks(files, entries) {
  const closure = (roots) => {
    const seen = new Set();
    const visit = (name) => {
      if (seen.has(name) || !files.has(name)) return;
      seen.add(name);
      for (const required of requiredAtOnce(files.get(name))) visit(required);
    };
    roots.forEach(visit);
    return seen;
  };
  const chunk = (name) => name.startsWith('chunk-') && name !== RUNTIME;
  const start = [...closure([entries.extension])].filter(chunk);
  const cli = [...closure([entries.cli])].filter((name) => chunk(name) && !start.includes(name));
  const later = [...files.keys()].filter(
    (name) =>
      chunk(name) &&
      !start.includes(name) &&
      !cli.includes(name) &&
      Buffer.byteLength(files.get(name)) < SMALL_CHUNK_BYTES,
  );
  const packs = { 'chunk-start.js': start, 'chunk-cli.js': cli, 'chunk-later.js': later };
  for (const name of Object.keys(packs))
    if (files.has(name)) throw new Error(`pack-chunks: esbuild wrote a chunk named ${name}, a pack's name`);
  const packOf = {};
  for (const [pack, names] of Object.entries(packs)) for (const name of names.sort()) packOf[name] = pack;

  const throughLoader = (code) => code.replace(CHUNK_REQUIRE, (_, name) => `${LOAD}(${JSON.stringify(name)})`);
  const loaderLine = `var ${LOAD}=require("./${RUNTIME}").${LOAD};`;
  const out = new Map();
  for (const [name, code] of files) {
    if (name === RUNTIME || packOf[name]) continue;
    // A shebang (cli.js) stays the first line.
    const shebang = code.startsWith('#!') ? code.slice(0, code.indexOf('\n') + 1) : '';
    const body = code.slice(shebang.length);
    out.set(name, body.includes('require("./chunk-') ? `${shebang}${loaderLine}${throughLoader(body)}` : code);
  }
  for (const [pack, names] of Object.entries(packs)) {
    if (names.length === 0) continue;
    // The packs run at once are parenthesized: V8 compiles a parenthesized function with the file (the others it only
    // pre-parses, to parse again when the function first runs).
    const [open, close] = pack === 'chunk-later.js' ? ['', ''] : ['(', ')'];
    const members = names.map(
      (name) => `${JSON.stringify(name)}:${open}function(module,exports){${throughLoader(files.get(name))}\n}${close}`,
    );
    out.set(pack, `${loaderLine}module.exports={${members.join(',\n')}};\n`);
  }
  // The extension's code behind its entry, and a hash of each file the loader may compile (the code cache's key).
  if (out.has(entries.extension)) {
    out.set(MAIN, out.get(entries.extension));
    out.set(entries.extension, entry());
  }
  const hashOf = {};
  for (const [name, code] of out)
    if (name === MAIN || name.startsWith('chunk-'))
      hashOf[name] = crypto.createHash('sha256').update(code).digest('hex').slice(0, 16);
  out.set(RUNTIME, `${files.get(RUNTIME)}\n${loader(packOf, hashOf)}`);
  return out;
}

/**
 * extension.js of a packed build: the extension's code (extension-main.js) is loaded when VS Code activates it, through
 * the loader, with the code cache in the extension's global storage (pack-runtime.js says why), which is written a few
 * seconds after activation has settled, off the window's start (and after a later chunk's first load, for it).
 */
function entry() {
  return `"use strict";
var runtime=require("./${RUNTIME}");
var main;
exports.activate=function(context){
  var storage=context.globalStorageUri;
  var cached=storage!==undefined&&storage.scheme==="file";
  if(cached)runtime.__mcpwbUseCodeCache(require("node:path").join(storage.fsPath,"code-cache"));
  main=runtime.__mcpwbRequire(${JSON.stringify(MAIN)});
  var activated=main.activate(context);
  if(cached)Promise.resolve(activated).then(function(){runtime.__mcpwbWriteCodeCacheAfter(${CODE_CACHE_DELAY_MS},function(errors){
    errors.forEach(function(error){console.warn("MCP Workbench: its code cache was not written: "+error.message);});
  });},function(){});
  return activated;
};
exports.deactivate=function(){return main&&main.deactivate?main.deactivate():undefined;};
`;
}

/** The runtime's tables and loader (pack-runtime.js), minified as the rest of the build. */
function loader(packOf, hashOf) {
  const runtime = fs.readFileSync(path.join(__dirname, 'pack-runtime.js'), 'utf8');
  // The loader in a function of its own: the file's other code (esbuild's helpers) is minified apart, with names that
  // would clash. The tables keep their names (bench/vsixSize.ts reads the packs' table).
  const code = `var __mcpwbPackOf=${JSON.stringify(packOf)};\nvar __mcpwbHashOf=${JSON.stringify(hashOf)};\n(function(){${runtime}\n})();`;
  return esbuild.transformSync(code, { loader: 'js', minify: true }).code;
}

module.exports = { packChunks, SMALL_CHUNK_BYTES, MAIN, CODE_CACHE_DELAY_MS };
