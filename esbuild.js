// Bundles the extension (vscode is provided by the host), the headless CLI (which must never see vscode), the core
// they share, and the webviews' media.
//
//   node esbuild.js [--production] [--test-hooks] [--outdir=DIR] [--watch]
//
// --test-hooks builds the test build: the integration and e2e suites drive the UI through hooks (pre-answered
// consents, prompts and modals) that the product must not carry. They sit behind the build-time constant
// MCP_WORKBENCH_TEST_BUILD, which is `false` in every other build, so the minifier drops their code entirely
// (test/component/project/testHooks.test.ts greps the production bundle for their names). --watch runs the same build again
// whenever a file the bundles read changes: what it writes is what `npm run build` writes.
//
// What comes out, in dist/:
//   extension.js, cli.js   src/extension and src/cli, one file each
//   shared-<chunk>.js      the core (src/protocol, src/workbench and the packages they use), one copy for both: the
//                          CLI ships inside the VSIX, and two copies of the core were a third of it. CHUNKS below says
//                          which module is in which chunk.
//   media/                 the webviews' scripts and styles
//
// Every import that leaves its chunk (so every import of the core by extension.js and cli.js) is compiled to a lazy
// facade: an object whose exports are getters that require the other chunk's file, and evaluate the module, when one
// of them is first read. So loading extension.js evaluates none of the core (test/component/project/bundleLoad.test.ts), and a
// window's start reads only the chunks it uses: one shared.js of 474 KB took 17–29 ms of the extension host's start to
// compile, whatever was used of it. (esbuild's own `splitting` needs `format: 'esm'`, whose imports are evaluated
// when the importing file loads: only an `import()` written in the sources would defer a chunk.)
//
// The build, in three steps (buildCode):
//   1. extension.js and cli.js are bundled whole, not written, for the import graph (esbuild's metafile): a module
//      imported from outside its chunk is one its chunk exports. A module of the core in no chunk fails the build.
//   2. The names each of those modules exports, from esbuild's metafile again (a facade lists its getters up front).
//   3. The chunks and both bundles, with the facades; then the build fails if any module is in two files.
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const testHooks = process.argv.includes('--test-hooks');
const outdirArgument = process.argv.find((argument) => argument.startsWith('--outdir='));
const outdir = outdirArgument ? path.resolve(outdirArgument.slice('--outdir='.length)) : path.join(__dirname, 'dist');

/**
 * The chunks of the core: each is a file `shared-<chunk>.js`, read when one of its modules is first used. An entry is a
 * folder (ends in /), a file, or a package (by the name it is imported with); the longest entry that holds a module
 * decides. Every module of src/protocol and src/workbench the bundles reach must be in one, or the build fails: a new
 * folder picks its chunk on purpose. A package in no chunk is bundled where it is imported, and the build fails if that
 * is in two files.
 *
 * A chunk is a unit of compiling and of compression (each file is compressed on its own in the VSIX): a few large
 * chunks keep the VSIX small. `startup` is what a window reads when it opens; `client` is read when a server first
 * starts, and a call's path stays inside it (it reads the protocol's errors and constants from `startup`).
 */
const CHUNKS = {
  startup: [
    // The protocol's types, errors and constants, which every chunk reads.
    'src/protocol/disposable.ts',
    'src/protocol/errors.ts',
    'src/protocol/guards.ts',
    'src/protocol/methods.ts',
    'src/protocol/types.ts',
    'src/protocol/versions.ts',
    // What a window reads as it opens: the configuration, History (its file too; the rest of src/workbench/node waits
    // for a start), the sampling policy, recorded tests' format, and what they use.
    'src/workbench/config/',
    'src/workbench/history/',
    'src/workbench/node/historyFile.ts',
    'src/workbench/sampling/',
    'src/workbench/recordings/',
    'src/workbench/auth/',
    'src/workbench/lifecycle/',
    'src/workbench/lists/',
    'src/workbench/tasks/',
    'src/workbench/display.ts',
    'src/workbench/secrets.ts',
    'src/workbench/serverIdentity.ts',
    'src/workbench/urlPolicy.ts',
    'jsonc-parser',
  ],
  client: [
    'src/protocol/client.ts',
    'src/protocol/clientOptions.ts',
    'src/protocol/clientCapabilities.ts',
    'src/protocol/toolResultCheck.ts',
    'src/protocol/eras/',
    'src/protocol/features/',
    'src/protocol/jsonrpc/',
    'src/protocol/limits/',
    'src/protocol/node/',
    'src/protocol/requests/',
    'src/protocol/transports/',
    'src/workbench/node/',
    'src/workbench/protocolLog/',
    'vscode-jsonrpc',
  ],
  // Forms and what checks them: the JSON Schema validator and the regex engine; lint, which validates with them.
  forms: ['src/protocol/validation/', 'src/workbench/forms/', 'src/workbench/lint/'],
  auth: ['src/protocol/auth/', 'src/workbench/node/auth/'],
  // The OAuth library, read when a sign-in starts, not when an HTTP server only needs its authorizer.
  oauth: ['oauth4webapi'],
  extensions: ['src/protocol/extensions/', 'src/workbench/apps/', 'src/workbench/skills/'],
  registry: ['src/workbench/registry/'],
  // The server author's tools (issues 40, 41): the load generator, doctor and evals, read only when one of them runs.
  tools: ['src/workbench/load/', 'src/workbench/doctor/', 'src/workbench/evals/'],
  // The gateway and the official server SDK it serves with, read only when a gateway starts.
  gateway: [
    'src/workbench/gateway/',
    'src/workbench/node/gateway/',
    '@modelcontextprotocol/server',
    '@modelcontextprotocol/core',
  ],
};
const RULES = Object.entries(CHUNKS)
  .flatMap(([chunk, entries]) => entries.map((entry) => ({ chunk, entry })))
  .sort((a, b) => b.entry.length - a.entry.length);
const CORE = /^src\/(protocol|workbench)\//;

/** A module's name: its path in the repository, or for a package's file, the package (`node_modules/<name>/…`). */
function moduleName(file) {
  const relative = path.relative(__dirname, path.resolve(__dirname, file)).split(path.sep).join('/');
  const inPackage = relative.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  return inPackage ? inPackage[1] : relative;
}

/** The chunk of a module (undefined: extension.js's or cli.js's own, or a package in no chunk). */
function chunkOf(file) {
  const name = moduleName(file);
  const rule = RULES.find(({ entry }) => (entry.endsWith('/') ? name.startsWith(entry) : name === entry));
  if (!rule && CORE.test(name))
    throw new Error(`${name} is in no chunk of the core: add its folder or file to CHUNKS in esbuild.js`);
  return rule?.chunk;
}

const chunkFile = (chunk) => `shared-${chunk}.js`;

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

const bundles = {
  extension: {
    ...common,
    entryPoints: ['src/extension/extension.ts'],
    outfile: path.join(outdir, 'extension.js'),
    // The bundle's evaluation time, logged at activation (src/extension/bundleTiming.d.ts).
    banner: { js: 'var MCP_WORKBENCH_LOAD_STARTED = performance.now();' },
    footer: { js: 'var MCP_WORKBENCH_LOAD_ENDED = performance.now();' },
    external: ['vscode'],
  },
  cli: {
    ...common,
    // The CLI ships inside the VSIX (History's Copy as CLI Command names it), minified like the extension.
    entryPoints: ['src/cli/main.ts'],
    outfile: path.join(outdir, 'cli.js'),
    banner: { js: '#!/usr/bin/env node' },
    // No externals: if anything in the CLI's graph imported vscode, the bundle would fail to resolve it.
  },
};

/** Both bundles as one graph, with nothing cut out and nothing written: step 1, and what --watch watches. */
const graphTarget = {
  ...common,
  entryPoints: [...bundles.extension.entryPoints, ...bundles.cli.entryPoints],
  outdir,
  external: ['vscode'],
  write: false,
  metafile: true,
  sourcemap: false,
  minify: false,
};

/**
 * Step 1: the modules imported from outside their chunk, by chunk: chunk → key → file. A key is a module's path in the
 * repository, or for a package the name it is imported with.
 */
async function exportedModules() {
  const { metafile } = await esbuild.build(graphTarget);
  const exported = new Map(Object.keys(CHUNKS).map((chunk) => [chunk, new Map()]));
  for (const [importer, { imports }] of Object.entries(metafile.inputs)) {
    for (const { path: file, original, external } of imports) {
      if (external || original === undefined) continue;
      const chunk = chunkOf(file);
      if (chunk === undefined || chunk === chunkOf(importer)) continue;
      if (metafile.inputs[file].format === 'cjs') {
        throw new Error(
          `${original} is CommonJS, whose exports esbuild cannot list: only its chunk (${chunk}) may import it, not ${importer}`,
        );
      }
      const key = CORE.test(moduleName(file)) ? moduleName(file) : original;
      exported.get(chunk).set(key, path.resolve(__dirname, file));
    }
  }
  return exported;
}

/** Step 2: the names each of those modules exports (key → names), as esbuild's metafile lists an entry's exports. */
async function exportNames(exported) {
  const entries = [...exported.values()].flatMap((keys) => [...keys]);
  // esbuild lists an entry's exports only in the ESM format (with splitting, one build for all the entries).
  const { metafile } = await esbuild.build({
    ...graphTarget,
    entryPoints: entries.map(([, file]) => file),
    format: 'esm',
    splitting: true,
  });
  const byFile = new Map();
  for (const { entryPoint, exports } of Object.values(metafile.outputs))
    if (entryPoint) byFile.set(path.resolve(__dirname, entryPoint), exports);
  return new Map(entries.map(([key, file]) => [key, byFile.get(file)]));
}

/** The facades' one helper (bundled once per file): an object whose getters load the module on the first read. */
const LAZY_EXPORTS = `module.exports = (load, names) => {
  let loaded;
  const exports = {};
  for (const name of names) Object.defineProperty(exports, name, { enumerable: true, get: () => (loaded ??= load())[name] });
  return Object.defineProperty(exports, '__esModule', { value: true });
};
`;

/**
 * Step 3's plugin: in the bundle of `ownChunk` (undefined: extension.js or cli.js), an import of a module of another
 * chunk becomes its lazy facade. esbuild reads an imported name where it is used (its interop copies a CommonJS
 * module's properties as getters, without reading them), so importing a facade evaluates nothing.
 */
function lazyChunksPlugin(ownChunk, exported, names) {
  const keyOf = new Map(
    [...exported].flatMap(([chunk, keys]) => [...keys].map(([key, file]) => [file, { chunk, key }])),
  );
  return {
    name: 'lazy-chunks',
    setup(build) {
      build.onResolve({ filter: /^\.\/shared-[\w-]+\.js$/ }, (args) => ({ path: args.path, external: true }));
      build.onResolve({ filter: /^lazy-exports$/ }, () => ({ path: 'lazy-exports', namespace: 'lazy-chunks' }));
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === 'lazy-chunks' || args.path === 'vscode') return undefined; // its own build.resolve below
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          pluginData: 'lazy-chunks',
        });
        const target = keyOf.get(resolved.path);
        if (resolved.errors.length > 0 || !target || target.chunk === ownChunk) return undefined;
        return { path: target.key, namespace: 'lazy-chunks', pluginData: target.chunk };
      });
      build.onLoad({ filter: /.*/, namespace: 'lazy-chunks' }, (args) => {
        if (args.path === 'lazy-exports') return { loader: 'js', contents: LAZY_EXPORTS };
        const load = `() => require('./${chunkFile(args.pluginData)}')[${JSON.stringify(args.path)}]`;
        return {
          loader: 'js',
          contents: `module.exports = require('lazy-exports')(${load}, ${JSON.stringify(names.get(args.path))});\n`,
        };
      });
    },
  };
}

/** A chunk's bundle: its entry is an object with a getter per exported module, which requires (evaluates) it. */
function chunkTarget(chunk, exported, names) {
  const entries = [...exported.get(chunk)].sort(([a], [b]) => a.localeCompare(b));
  return {
    ...common,
    stdin: {
      contents: `module.exports = {\n${entries.map(([key, file]) => `get ${JSON.stringify(key)}() { return require(${JSON.stringify(file)}); }`).join(',\n')}};`,
      resolveDir: __dirname,
      sourcefile: `${chunk}-entry.js`,
    },
    outfile: path.join(outdir, chunkFile(chunk)),
    plugins: [lazyChunksPlugin(chunk, exported, names)],
  };
}

/**
 * One copy of the vscode API for the whole extension bundle. esbuild's interop turns each `import * as vscode from
 * 'vscode'` into its own `__toESM(require('vscode'))`, which copies the API object's ~200 properties as getters: 89
 * copies took about a tenth of the extension's load time in the extension host's CPU profile. Every import of
 * `vscode` resolves instead to one ES module that re-exports it, so the copy is made once.
 */
const vscodeOncePlugin = {
  name: 'vscode-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-once'
        ? { path: 'vscode', external: true }
        : { path: 'vscode', namespace: 'vscode-once' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({
      contents: "export * from 'vscode';",
      loader: 'js',
    }));
  },
};

/** Fails the build if a module is in two files (a chunk's and a bundle's, or two chunks'). */
function checkEachModuleOnce(results) {
  const holder = new Map();
  for (const { metafile } of results) {
    for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
      for (const input of Object.keys(inputs).filter((input) => !input.includes(':') && input !== '<stdin>')) {
        const file = path.basename(output);
        if (holder.has(input) && holder.get(input) !== file) {
          throw new Error(
            `${input} is in both ${holder.get(input)} and ${file}: give it (or its package) one chunk in CHUNKS (esbuild.js)`,
          );
        }
        holder.set(input, file);
      }
    }
  }
}

/** Removes what an earlier build made and this one did not (a chunk renamed, or an older layout's file). */
function removeStaleChunks() {
  const made = new Set(Object.keys(CHUNKS).map(chunkFile));
  for (const name of fs.readdirSync(outdir)) {
    if (/^(shared(-[\w-]+)?|vendor)\.js(\.map)?$/.test(name) && !made.has(name.replace(/\.map$/, '')))
      fs.rmSync(path.join(outdir, name));
  }
}

async function buildCode() {
  const exported = await exportedModules();
  const names = await exportNames(exported);
  const targets = [
    ...Object.keys(CHUNKS).map((chunk) => chunkTarget(chunk, exported, names)),
    { ...bundles.extension, plugins: [lazyChunksPlugin(undefined, exported, names), vscodeOncePlugin] },
    { ...bundles.cli, plugins: [lazyChunksPlugin(undefined, exported, names)] },
  ];
  checkEachModuleOnce(await Promise.all(targets.map((target) => esbuild.build({ ...target, metafile: true }))));
  removeStaleChunks();
}

/**
 * The webviews' scripts and styles, from media/<folder>/ to dist/media/<folder>/ (src/extension/platform/webviews/webviewMedia.ts),
 * minified in production: their comments were a third of their compressed size in the VSIX. Each file stays as it is
 * otherwise (not bundled, not lowered: the pages run in VS Code's Chromium).
 */
const mediaTarget = {
  entryPoints: fs
    .readdirSync(path.join(__dirname, 'media'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((folder) =>
      fs.readdirSync(path.join(__dirname, 'media', folder.name)).map((file) => `media/${folder.name}/${file}`),
    )
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

/**
 * --watch: esbuild watches every file extension.js and cli.js read (step 1's graph, with nothing written) and, when
 * one changes, the whole build above runs again: what watch writes is what ships. The `[watch]` lines are what the
 * `$esbuild-watch` problem matcher of .vscode/tasks.json waits for (esbuild prints its own errors in its format).
 */
async function watchAll() {
  const rebuildAll = {
    name: 'rebuild-all',
    setup(build) {
      build.onStart(() => console.log('[watch] build started'));
      build.onEnd(async (result) => {
        if (result.errors.length === 0) await buildCode().catch((error) => console.error(`✘ [ERROR] ${error.message}`));
        console.log('[watch] build finished');
      });
    },
  };
  const graph = await esbuild.context({ ...graphTarget, plugins: [rebuildAll] });
  const media = await esbuild.context(mediaTarget);
  // Ctrl+C, or a test's kill: esbuild's service process is stopped with this one, never left running.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      void Promise.all([graph.dispose(), media.dispose()]).finally(() => {
        esbuild.stop();
        process.exit(0);
      });
    });
  }
  await Promise.all([graph.watch(), media.watch()]);
}

async function main() {
  if (watch) return watchAll();
  await Promise.all([esbuild.build(mediaTarget), buildCode()]);
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error.message ?? error);
    process.exit(1);
  });
}

// For test/component/project/bundleBuild.test.ts.
module.exports = { chunkOf, checkEachModuleOnce };
