// Bundles the extension (vscode is provided by the host) and the headless CLI (which must never see vscode).
//
//   node esbuild.js [--production] [--test-hooks] [--outdir=DIR] [--watch]
//
// --test-hooks builds the test build: the integration and e2e suites drive the UI through hooks (pre-answered
// consents, prompts and modals) that the product must not carry. They sit behind the build-time constant
// MCP_WORKBENCH_TEST_BUILD, which is `false` in every other build, so the minifier drops their code entirely
// (test/unit/testHooks.test.ts greps the production bundle for their names).
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
 * Libraries the first screen does not need, kept out of extension.js and cli.js and loaded from dist/vendor.js on
 * first use: the OAuth library (a sign-in). Both bundles share the one copy, which also keeps the VSIX smaller. Each
 * bundle sees a small facade per package whose exports are getters: nothing is required until a property is read
 * (esbuild reads imported names at their use, and its interop copies them as getters), so activation loads none of
 * them. The regex engine and the JSON Schema validator are our own code, in shared.js.
 */
const LAZY_PACKAGES = ['oauth4webapi'];
const VENDOR_FILE = 'vendor.js';

const vendorTarget = {
  ...common,
  stdin: {
    contents: `module.exports = {${LAZY_PACKAGES.map((name) => `get ${JSON.stringify(name)}() { return require(${JSON.stringify(name)}); }`).join(', ')}};`,
    resolveDir: __dirname,
    sourcefile: 'vendor-entry.js',
  },
  outfile: path.join(outdir, VENDOR_FILE),
};

/** The facades: the export names are read from the built vendor bundle (the packages mix CJS and ESM). */
function lazyPackagesPlugin() {
  return {
    name: 'lazy-packages',
    setup(build) {
      const filter = new RegExp(`^(${LAZY_PACKAGES.map((name) => name.replace(/[/.]/g, (c) => `\\${c}`)).join('|')})$`);
      build.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'lazy-package' }));
      build.onResolve({ filter: /^\.\/vendor\.js$/ }, (args) => ({ path: args.path, external: true }));
      lazyExportsHelper(build);
      build.onLoad({ filter: /.*/, namespace: 'lazy-package' }, (args) => {
        const real = vendorExports()[args.path];
        return { loader: 'js', contents: lazyFacade(VENDOR_FILE, args.path, { names: Object.keys(real), esModule: Boolean(real.__esModule) }) };
      });
    },
  };
}

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

let vendorCache;
function vendorExports() {
  if (!vendorCache) {
    const file = path.join(outdir, VENDOR_FILE);
    delete require.cache[file];
    const vendor = require(file);
    vendorCache = Object.fromEntries(LAZY_PACKAGES.map((name) => [name, vendor[name]]));
  }
  return vendorCache;
}

/**
 * The protocol client and the workbench logic (src/protocol, src/workbench, and the packages they use) are one copy in
 * dist/shared.js, required by both extension.js and cli.js: the CLI ships inside the VSIX, and two copies of the core
 * were a third of it. Each bundle sees a facade per shared module; the modules inside shared.js are wrapped to
 * evaluate on first require. The facades are lazy (lazyFacade): a module is evaluated when one of its exports is first
 * read, not when a module importing it loads. With eager facades, loading extension.js evaluated 64 of the 79 shared
 * modules (the regex engine, the schema validator, forms, OAuth, registry, recordings...) whatever the first screen
 * showed (test/unit/bundleLoad.test.ts). The build: the two bundles once, to learn the keys they ask for; the shared
 * bundle from those keys; the names each key exports (read by evaluating shared.js in a child process); then the two
 * bundles again, with a lazy facade per key.
 */
const SHARED_FILE = 'shared.js';
const SHARED_DIRS = ['src/protocol', 'src/workbench'].map((dir) => path.join(__dirname, dir) + path.sep);
const CONSUMER_DIRS = ['src/extension', 'src/cli'].map((dir) => path.join(__dirname, dir) + path.sep);
const NOT_SHARED = new Set(['vscode', `./${VENDOR_FILE}`, `./${SHARED_FILE}`, ...LAZY_PACKAGES]);

function sharedCorePlugin(keys, exportsByKey) {
  return {
    name: 'shared-core',
    setup(build) {
      build.onResolve({ filter: /^\.\/shared\.js$/ }, (args) => ({ path: args.path, external: true }));
      if (exportsByKey) lazyExportsHelper(build);
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === 'shared-core') return undefined; // its own build.resolve below
        if (args.namespace !== 'file' || args.kind !== 'import-statement' && args.kind !== 'require-call') return undefined;
        if (!CONSUMER_DIRS.some((dir) => args.importer.startsWith(dir))) return undefined;
        if (NOT_SHARED.has(args.path) || args.path.startsWith('node:')) return undefined;
        const bare = !args.path.startsWith('.') && !path.isAbsolute(args.path);
        if (bare && require('node:module').isBuiltin(args.path)) return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'shared-core' });
        if (resolved.errors.length > 0 || resolved.external) return undefined;
        const own = SHARED_DIRS.some((dir) => resolved.path.startsWith(dir));
        if (!own && !bare) return undefined;
        // Own modules by their path in the repository, packages by the name they are imported with.
        const key = own ? path.relative(__dirname, resolved.path).split(path.sep).join('/') : args.path;
        keys.set(key, resolved.path);
        return { path: key, namespace: 'shared-core' };
      });
      build.onLoad({ filter: /.*/, namespace: 'shared-core' }, (args) => {
        // The first pass only learns the keys: its output is not written.
        if (!exportsByKey) return { loader: 'js', contents: 'module.exports = {};\n' };
        const exported = exportsByKey.get(args.path);
        if (!exported) throw new Error(`${args.path} is not in ${SHARED_FILE} (the first pass did not ask for it)`);
        return { loader: 'js', contents: lazyFacade(SHARED_FILE, args.path, exported) };
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

/** The keys the bundles asked for, each to the file it resolved to. */
const sharedKeys = new Map();

function sharedTarget() {
  const entries = [...sharedKeys].sort(([a], [b]) => a.localeCompare(b));
  return {
    ...common,
    stdin: {
      contents: `module.exports = {${entries.map(([key, file]) => `get ${JSON.stringify(key)}() { return require(${JSON.stringify(file)}); }`).join(',\n')}};`,
      resolveDir: __dirname,
      sourcefile: 'shared-entry.js',
    },
    outfile: path.join(outdir, SHARED_FILE),
    plugins: [lazyPackagesPlugin()],
  };
}

/** The names each shared key exports, by evaluating the built shared.js in a child process (not in this one). */
function sharedExports() {
  const file = path.join(outdir, SHARED_FILE);
  const script = `const shared = require(${JSON.stringify(file)}); const out = {};
for (const key of Object.keys(shared)) { const module = shared[key]; out[key] = { names: Object.keys(module), esModule: Boolean(module.__esModule) }; }
process.stdout.write(JSON.stringify(out));`;
  const text = require('node:child_process').execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  return new Map(Object.entries(JSON.parse(text)));
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
    plugins: [...sharing, vscodeOncePlugin(), lazyPackagesPlugin()],
  },
  {
    ...common,
    // The CLI ships inside the VSIX (History's Copy as CLI Command names it), minified like the extension.
    entryPoints: ['src/cli/main.ts'],
    outfile: path.join(outdir, 'cli.js'),
    banner: { js: '#!/usr/bin/env node' },
    plugins: [...sharing, lazyPackagesPlugin()],
    // No externals: if anything in the CLI's graph imported vscode, the bundle would fail to resolve it.
  },
];

async function main() {
  // The vendor bundle first: the facades are generated from its exports.
  await esbuild.build(vendorTarget);
  if (watch) {
    const contexts = await Promise.all(targetsWith([]).map((t) => esbuild.context(t)));
    await Promise.all(contexts.map((c) => c.watch()));
    return;
  }
  await Promise.all(targetsWith([sharedCorePlugin(sharedKeys)]).map((t) => esbuild.build({ ...t, write: false })));
  await esbuild.build(sharedTarget());
  const exportsByKey = sharedExports();
  await Promise.all(targetsWith([sharedCorePlugin(new Map(), exportsByKey)]).map((t) => esbuild.build(t)));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
