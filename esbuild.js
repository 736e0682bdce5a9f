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
 * first use: the linear regex engine and the JSON Schema validator (a server's schema, a form), and the OAuth library
 * (a sign-in). Both bundles share the one copy, which also keeps the VSIX smaller. Each bundle sees a small facade
 * per package whose exports are getters: nothing is required until a property is read (esbuild reads imported names
 * at their use, and its interop copies them as getters), so activation loads none of them.
 */
const LAZY_PACKAGES = ['re2js', 'ajv', 'ajv/dist/2020', 'ajv-formats', 'oauth4webapi'];
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
      build.onLoad({ filter: /.*/, namespace: 'lazy-package' }, (args) => {
        const real = vendorExports()[args.path];
        const names = Object.keys(real).filter((name) => name !== '__esModule');
        const getters = names.map((name) => `${JSON.stringify(name)}: { enumerable: true, get: () => load()[${JSON.stringify(name)}] }`);
        if (real.__esModule) getters.push('__esModule: { value: true }');
        return {
          loader: 'js',
          contents: `let loaded;\nconst load = () => (loaded ??= require('./${VENDOR_FILE}')[${JSON.stringify(args.path)}]);\nmodule.exports = Object.defineProperties({}, {${getters.join(', ')}});\n`,
        };
      });
    },
  };
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

const targets = [
  {
    ...common,
    entryPoints: ['src/extension/extension.ts'],
    outfile: path.join(outdir, 'extension.js'),
    external: ['vscode'],
    plugins: [lazyPackagesPlugin()],
  },
  {
    ...common,
    // The CLI ships inside the VSIX (History's Copy as CLI Command names it), minified like the extension.
    entryPoints: ['src/cli/main.ts'],
    outfile: path.join(outdir, 'cli.js'),
    banner: { js: '#!/usr/bin/env node' },
    plugins: [lazyPackagesPlugin()],
    // No externals: if anything in the CLI's graph imported vscode, the bundle would fail to resolve it.
  },
];

async function main() {
  // The vendor bundle first: the facades are generated from its exports.
  await esbuild.build(vendorTarget);
  if (watch) {
    const contexts = await Promise.all(targets.map((t) => esbuild.context(t)));
    await Promise.all(contexts.map((c) => c.watch()));
    return;
  }
  await Promise.all(targets.map((t) => esbuild.build(t)));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
