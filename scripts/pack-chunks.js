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
const RUNTIME = 'chunk-runtime.js';
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
    const members = names.map(
      (name) => `${JSON.stringify(name)}:function(module,exports){${throughLoader(files.get(name))}\n}`,
    );
    out.set(pack, `${loaderLine}module.exports={${members.join(',\n')}};\n`);
  }
  out.set(RUNTIME, `${files.get(RUNTIME)}\n${loader(packOf)}`);
  return out;
}

/** The loader, in the runtime: a packed chunk run once (as require runs a file once), any other chunk required. */
function loader(packOf) {
  return `var __mcpwbPackOf=${JSON.stringify(packOf)};
var __mcpwbRun=new Map();
function ${LOAD}(name){
  var pack=__mcpwbPackOf[name];
  if(pack===undefined)return require("./"+name);
  var module=__mcpwbRun.get(name);
  if(module!==undefined)return module.exports;
  module={exports:{}};
  // Set before it runs, as require caches a module before evaluating it: chunks may require each other in a cycle.
  __mcpwbRun.set(name,module);
  try{require("./"+pack)[name](module,module.exports);}
  catch(error){__mcpwbRun.delete(name);throw error;}
  return module.exports;
}
module.exports.${LOAD}=${LOAD};
`;
}

module.exports = { packChunks, SMALL_CHUNK_BYTES };
