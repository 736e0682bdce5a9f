// Bundles the extension (vscode is provided by the host) and the headless CLI (which must never see vscode).
//
//   node esbuild.js [--production] [--test-hooks] [--outdir=DIR] [--watch]
//
// --test-hooks builds the test build: the integration and e2e suites drive the UI through hooks (pre-answered
// consents, prompts and modals) that the product must not carry. They sit behind the build-time constant
// MCP_WORKBENCH_TEST_BUILD, which is `false` in every other build, so the minifier drops their code entirely
// (test/component/project/testHooks.test.ts greps the production bundle for their names).
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const testHooks = process.argv.includes('--test-hooks');
const outdirArgument = process.argv.find((argument) => argument.startsWith('--outdir='));
const outdir = outdirArgument ? path.resolve(outdirArgument.slice('--outdir='.length)) : path.join(__dirname, 'dist');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  // jsonc-parser ships a UMD build that esbuild cannot follow; its ESM build bundles cleanly.
  mainFields: ['module', 'main'],
  absWorkingDir: __dirname,
  define: { MCP_WORKBENCH_TEST_BUILD: testHooks ? 'true' : 'false' },
};

/**
 * A module whose exports are getters that require `key` of `file` (a bundle in dist/) when one is first read. esbuild
 * reads an imported name where it is used (its interop copies a CommonJS module's properties as getters, without
 * reading them), so importing the facade evaluates nothing.
 */
function lazyFacade(file, key, { names, esModule }) {
  const exported = JSON.stringify(names.filter((name) => name !== '__esModule'));
  return `module.exports = require('${LAZY_EXPORTS}')(() => require('./${file}')[${JSON.stringify(key)}], ${exported}, ${esModule});\n`;
}

/** The facades' one helper, bundled once per bundle (a facade is then little more than its list of names). */
const LAZY_EXPORTS = 'mcp-workbench:lazy-exports';
const LAZY_EXPORTS_SOURCE = `module.exports = (load, names, esModule) => {
  let loaded;
  const exports = {};
  for (const name of names) Object.defineProperty(exports, name, { enumerable: true, get: () => (loaded ??= load())[name] });
  if (esModule) Object.defineProperty(exports, '__esModule', { value: true });
  return exports;
};
`;

/** Resolves the helper the lazy facades require. */
function lazyExportsHelper(build) {
  build.onResolve({ filter: /^mcp-workbench:lazy-exports$/ }, (args) => ({ path: args.path, namespace: 'lazy-exports' }));
  build.onLoad({ filter: /.*/, namespace: 'lazy-exports' }, () => ({ loader: 'js', contents: LAZY_EXPORTS_SOURCE }));
}

/**
 * The protocol client and the workbench logic (src/protocol, src/workbench, and the packages they use) are one copy in
 * dist/, required by both extension.js and cli.js: the CLI ships inside the VSIX, and two copies of the core were a
 * third of it. The core is cut into a few chunks, one file each (`dist/shared-<chunk>.js`, CHUNKS below). Every module
 * is in exactly one chunk; an import that crosses chunks, and every import of the core by extension.js and cli.js,
 * goes through a lazy facade (lazyFacade): the module is evaluated when one of its exports is first read, and its chunk
 * is read and compiled then. So loading the extension evaluates none of the core (test/component/project/bundleLoad.test.ts; with
 * eager facades it evaluated 64 of 79 entry modules), and a window's start compiles the `startup` chunk only: one
 * shared.js of 474 KB took 17–29 ms of the extension host's start to compile, whatever was used of it.
 *
 * The build: extension.js and cli.js once (not written), to learn the keys they ask of each chunk; the chunks, each
 * built again while others ask it for more keys; the names each key exports (read by evaluating the chunks in a child
 * process); then every chunk and both bundles with lazy facades.
 */
const SRC_DIR = path.join(__dirname, 'src') + path.sep;
const SHARED_ROOTS = ['src/protocol', 'src/workbench'].map((dir) => path.join(__dirname, dir) + path.sep);
const CONSUMER_DIRS = ['src/extension', 'src/cli'].map((dir) => path.join(__dirname, dir) + path.sep);

/**
 * The chunks, by folder or file (the longest prefix that holds the module) or package. A chunk is a unit of
 * compiling and of compression: fewer, larger chunks keep the VSIX small (each file is compressed on its own). The
 * request path of a call is in `client` (what it reads of other chunks are the protocol's errors and constants, in
 * `startup`). `startup` holds the rest: what a window reads when it opens (the configuration and jsonc-parser,
 * History, the sampling policy, recorded tests' format, the protocol's errors, events and constants). An instrumented
 * build that logs each chunk's first read shows which modules a window's start evaluates.
 */
const CHUNKS = {
  // History's file is read as a window opens; the rest of src/workbench/node (the launcher, importers) with a start.
  startup: ['src/workbench/node/historyFile.ts'],
  client: [
    'src/protocol/client.ts',
    'src/protocol/clientOptions.ts',
    'src/protocol/eras/',
    'src/protocol/jsonrpc/',
    'src/protocol/transports/',
    'src/protocol/node/',
    'src/protocol/requests/',
    'src/protocol/limits/',
    'src/protocol/features/',
    'src/workbench/protocolLog/',
    'src/workbench/node/',
    'vscode-jsonrpc',
  ],
  // Forms and what checks them: the JSON Schema validator and the regex engine.
  forms: ['src/protocol/validation/', 'src/workbench/forms/'],
  auth: ['src/protocol/auth/', 'src/workbench/node/auth/'],
  // The OAuth library, read when a sign-in starts, not when an HTTP server only needs its authorizer.
  oauth: ['oauth4webapi'],
  extensions: ['src/protocol/extensions/', 'src/workbench/apps/', 'src/workbench/skills/'],
  registry: ['src/workbench/registry/'],
};
const STARTUP_CHUNK = 'startup';
const CHUNK_RULES = Object.entries(CHUNKS)
  .flatMap(([chunk, prefixes]) => prefixes.map((prefix) => ({ chunk, prefix })))
  .sort((a, b) => b.prefix.length - a.prefix.length);

/** The chunk of a module of the core, by its path in the repository or the package it is imported from. */
function chunkOf(resolvedPath, importPath) {
  const own = SHARED_ROOTS.some((dir) => resolvedPath.startsWith(dir));
  const name = own ? path.relative(__dirname, resolvedPath).split(path.sep).join('/') : packageName(importPath);
  const rule = CHUNK_RULES.find(({ prefix }) => (own ? name.startsWith(prefix) : name === prefix));
  return rule ? rule.chunk : STARTUP_CHUNK;
}

function packageName(importPath) {
  const parts = importPath.split('/');
  return importPath.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const chunkFile = (chunk) => `shared-${chunk}.js`;

/** What each chunk must export: chunk → key → the file the key resolved to. */
const chunkKeys = new Map();

/**
 * Imports of the core from `ownChunk` (undefined: from extension.js or cli.js) that leave it become facades. With
 * `exportsByKey` the facades are lazy; without, a pass only learns the keys and its output is not run.
 */
function sharedCorePlugin(ownChunk, exportsByKey) {
  return {
    name: 'shared-core',
    setup(build) {
      build.onResolve({ filter: /^\.\/shared-[\w-]+\.js$/ }, (args) => ({ path: args.path, external: true }));
      lazyExportsHelper(build);
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === 'shared-core') return undefined; // its own build.resolve below
        if (args.namespace !== 'file' || args.kind !== 'import-statement' && args.kind !== 'require-call') return undefined;
        const importerDirs = ownChunk === undefined ? CONSUMER_DIRS : [SRC_DIR];
        if (!importerDirs.some((dir) => args.importer.startsWith(dir))) return undefined;
        if (args.path === 'vscode' || args.path.startsWith('node:')) return undefined;
        const bare = !args.path.startsWith('.') && !path.isAbsolute(args.path);
        if (bare && require('node:module').isBuiltin(args.path)) return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'shared-core' });
        if (resolved.errors.length > 0 || resolved.external) return undefined;
        const own = SHARED_ROOTS.some((dir) => resolved.path.startsWith(dir));
        if (!own && !bare) return undefined;
        const chunk = chunkOf(resolved.path, args.path);
        if (chunk === ownChunk) return undefined;
        // Own modules by their path in the repository, packages by the name they are imported with.
        const key = own ? path.relative(__dirname, resolved.path).split(path.sep).join('/') : args.path;
        if (!chunkKeys.has(chunk)) chunkKeys.set(chunk, new Map());
        chunkKeys.get(chunk).set(key, resolved.path);
        return { path: `${chunk}\n${key}`, namespace: 'shared-core' };
      });
      build.onLoad({ filter: /.*/, namespace: 'shared-core' }, (args) => {
        const [chunk, key] = args.path.split('\n');
        if (!exportsByKey) return { loader: 'js', contents: `module.exports = require('./${chunkFile(chunk)}')[${JSON.stringify(key)}];\n` };
        const exported = exportsByKey.get(key);
        if (!exported) throw new Error(`${key} is not in ${chunkFile(chunk)} (no earlier pass asked for it)`);
        return { loader: 'js', contents: lazyFacade(chunkFile(chunk), key, exported) };
      });
    },
  };
}

/**
 * One copy of the vscode API for the whole extension bundle. esbuild's interop turns each `import * as vscode from
 * 'vscode'` into its own `__toESM(require('vscode'))`, which copies the API object's ~200 properties as getters: 89
 * copies took about a tenth of the extension's load time in the extension host's CPU profile. Every import of
 * `vscode` resolves instead to one ES module that re-exports it, so the copy is made once.
 */
function vscodeOncePlugin() {
  return {
    name: 'vscode-once',
    setup(build) {
      build.onResolve({ filter: /^vscode$/ }, (args) =>
        args.namespace === 'vscode-once' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-once' },
      );
      build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
    },
  };
}

function chunkTarget(chunk, exportsByKey) {
  const entries = [...chunkKeys.get(chunk)].sort(([a], [b]) => a.localeCompare(b));
  return {
    ...common,
    stdin: {
      contents: `module.exports = {${entries.map(([key, file]) => `get ${JSON.stringify(key)}() { return require(${JSON.stringify(file)}); }`).join(',\n')}};`,
      resolveDir: __dirname,
      sourcefile: `${chunk}-entry.js`,
    },
    outfile: path.join(outdir, chunkFile(chunk)),
    plugins: [sharedCorePlugin(chunk, exportsByKey)],
  };
}

/** The names each key exports, by evaluating the built chunks in a child process (not in this one). */
function sharedExports() {
  const files = [...chunkKeys.keys()].map((chunk) => path.join(outdir, chunkFile(chunk)));
  const script = `const out = {};
for (const file of ${JSON.stringify(files)}) {
  const chunk = require(file);
  for (const key of Object.keys(chunk)) { const module = chunk[key]; out[key] = { names: Object.keys(module), esModule: Boolean(module.__esModule) }; }
}
process.stdout.write(JSON.stringify(out));`;
  const text = require('node:child_process').execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  return new Map(Object.entries(JSON.parse(text)));
}

/** Removes chunks of an earlier build that this one did not make (a chunk renamed, or an older layout's file). */
function removeStaleChunks() {
  const made = new Set([...chunkKeys.keys()].map(chunkFile));
  for (const name of fs.readdirSync(outdir)) {
    if (/^(shared(-[\w-]+)?|vendor)\.js(\.map)?$/.test(name) && !made.has(name.replace(/\.map$/, ''))) fs.rmSync(path.join(outdir, name));
  }
}

// Watch mode rebuilds one bundle at a time, so the keys of the shared bundle could go stale: there each bundle carries
// its own copy of the core.
const targetsWith = (sharing) => [
  {
    ...common,
    entryPoints: ['src/extension/extension.ts'],
    outfile: path.join(outdir, 'extension.js'),
    // The bundle's evaluation time, logged at activation (src/extension/bundleTiming.d.ts).
    banner: { js: 'var MCP_WORKBENCH_LOAD_STARTED = performance.now();' },
    footer: { js: 'var MCP_WORKBENCH_LOAD_ENDED = performance.now();' },
    external: ['vscode'],
    plugins: [...sharing, vscodeOncePlugin()],
  },
  {
    ...common,
    // The CLI ships inside the VSIX (History's Copy as CLI Command names it), minified like the extension.
    entryPoints: ['src/cli/main.ts'],
    outfile: path.join(outdir, 'cli.js'),
    banner: { js: '#!/usr/bin/env node' },
    plugins: [...sharing],
    // No externals: if anything in the CLI's graph imported vscode, the bundle would fail to resolve it.
  },
];

/**
 * The webviews' scripts and styles, from media/<folder>/ to dist/media/<folder>/ (src/extension/platform/webviews/webviewMedia.ts),
 * minified in production: their comments were a third of their compressed size in the VSIX. Each file stays as it is
 * otherwise (not bundled, not lowered: the pages run in VS Code's Chromium).
 */
const mediaTarget = {
  entryPoints: fs
    .readdirSync(path.join(__dirname, 'media'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((folder) => fs.readdirSync(path.join(__dirname, 'media', folder.name)).map((file) => `media/${folder.name}/${file}`))
    .filter((file) => /\.(js|css)$/.test(file)),
  outdir: path.join(outdir, 'media'),
  outbase: 'media',
  absWorkingDir: __dirname,
  minify: production,
  sourcemap: !production,
  // Not media/tsconfig.json's `strict`: esbuild would add "use strict" to pages written without it.
  tsconfigRaw: {},
  logLevel: 'warning',
};

async function main() {
  if (watch) {
    const contexts = await Promise.all([...targetsWith([]), mediaTarget].map((t) => esbuild.context(t)));
    await Promise.all(contexts.map((c) => c.watch()));
    return;
  }
  await esbuild.build(mediaTarget);
  await Promise.all(targetsWith([sharedCorePlugin(undefined)]).map((t) => esbuild.build({ ...t, write: false })));
  // Until no chunk is asked for a key it was built without.
  const builtWith = new Map();
  for (;;) {
    const stale = [...chunkKeys].filter(([chunk, keys]) => builtWith.get(chunk) !== keys.size);
    if (stale.length === 0) break;
    for (const [chunk, keys] of stale) builtWith.set(chunk, keys.size);
    await Promise.all(stale.map(([chunk]) => esbuild.build(chunkTarget(chunk))));
  }
  const exportsByKey = sharedExports();
  const chunks = [...chunkKeys.keys()].map((chunk) => chunkTarget(chunk, exportsByKey));
  await Promise.all([...chunks, ...targetsWith([sharedCorePlugin(undefined, exportsByKey)])].map((t) => esbuild.build(t)));
  removeStaleChunks();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
