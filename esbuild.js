// Bundles the extension (vscode is provided by the host), the headless CLI (which must never see vscode), the core
// they share, and the webviews' media.
//
//   node esbuild.js [--production] [--test-hooks] [--outdir=DIR] [--watch]
//
// What comes out, in dist/:
//   extension.js    src/extension/extension.ts and what it imports statically: what a window loads as it opens
//   cli.js          src/cli/bin.ts, the same for the CLI (it ships inside the VSIX: History's Copy as CLI Command)
//   chunk-*.js      code both share (one copy: two copies of the core were a third of the VSIX), and what the sources
//                   load later with an `await import('…')`: the launcher, client and transports at a server's first
//                   start, OAuth at an HTTP server's, the gateway and its server SDK at a gateway's, …
//                   (--production: the small ones packed into chunk-start.js, chunk-cli.js and chunk-later.js,
//                   scripts/pack-chunks.js)
//   media/          the webviews' scripts and styles
//
// esbuild's own code splitting. What loads later is written where it is needed, in the sources, as `await import()`;
// everything else is evaluated with the file that imports it. So a module's place follows from its imports, and
// test/component/project/bundleLoad.test.ts holds what extension.js loads statically to the start-up modules.
// esbuild splits only ES-module output, and VS Code loads an ES-module extension through a module loader that costs
// 60-90 ms before the extension's first line runs (an empty one; CommonJS: 1 ms, bench/uiActivation.ts), so the split
// files are made in memory and each is written as CommonJS (scripts/build-commonjs.js).
//
// --test-hooks builds the test build: the integration and e2e suites drive the UI through hooks (pre-answered
// consents, prompts and modals) that the product must not carry. They sit behind the build-time constant
// MCP_WORKBENCH_TEST_BUILD, `false` in every other build, so the minifier drops their code entirely
// (test/component/project/testHooks.test.ts greps the production build for their names).
//
// --watch is the same build, run again whenever a file it read changes: what it writes is what `npm run build` writes.
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');
const { writeCommonJs } = require('./scripts/build-commonjs.js');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const testHooks = process.argv.includes('--test-hooks');
const outdirArgument = process.argv.find((argument) => argument.startsWith('--outdir='));
const outdir = outdirArgument ? path.resolve(outdirArgument.slice('--outdir='.length)) : path.join(__dirname, 'dist');

/**
 * The server SDK (the gateway's serving side) imports `@modelcontextprotocol/server/_shims` only for its default JSON
 * Schema validator, ajv (153 KB minified, 44 KB of the VSIX), and Node's `process`. The gateway
 * gives its `Server`s this project's validator, so ajv would ship unused: this points the import at a module of ours
 * exporting the same names (src/workbench/node/gateway/sdkShims.ts), whose default validator is ours.
 */
const sdkShims = {
  name: 'sdk-shims',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, () => ({
      path: path.join(__dirname, 'src', 'workbench', 'node', 'gateway', 'sdkShims.ts'),
    }));
  },
};

/** Writes the split build's files as CommonJS (scripts/build-commonjs.js says why and how). */
const commonJs = {
  name: 'commonjs',
  setup(build) {
    build.onEnd(async ({ outputFiles, errors }) => {
      if (errors.length === 0 && outputFiles) await writeCommonJs(outputFiles, outdir, production);
    });
  },
};

/** @type {import('esbuild').BuildOptions} */
const codeTarget = {
  entryPoints: { extension: 'src/extension/extension.ts', cli: 'src/cli/bin.ts' },
  bundle: true,
  splitting: true,
  format: 'esm',
  chunkNames: 'chunk-[hash]',
  outdir,
  platform: 'node',
  target: 'node20',
  // Only the extension host provides vscode: architecture.test.ts checks that nothing the CLI loads imports it.
  external: ['vscode'],
  // Inline: the conversion to CommonJS reads it and writes the map of the file it writes.
  sourcemap: production ? false : 'inline',
  minify: production,
  metafile: true,
  write: false,
  logLevel: 'warning',
  // jsonc-parser ships a UMD build that esbuild cannot follow; its ESM build bundles cleanly.
  mainFields: ['module', 'main'],
  absWorkingDir: __dirname,
  define: { MCP_WORKBENCH_TEST_BUILD: testHooks ? 'true' : 'false' },
  plugins: [sdkShims, commonJs],
};

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
 * --watch: the `[watch]` lines are what the `$esbuild-watch` problem matcher of .vscode/tasks.json waits for (esbuild
 * prints its own errors in its format).
 */
async function watchAll() {
  const announce = {
    name: 'announce',
    setup(build) {
      build.onStart(() => console.log('[watch] build started'));
      build.onEnd(() => console.log('[watch] build finished'));
    },
  };
  const code = await esbuild.context({ ...codeTarget, plugins: [...codeTarget.plugins, announce] });
  const media = await esbuild.context(mediaTarget);
  // Ctrl+C, or a test's kill: esbuild's service process is stopped with this one, never left running.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      void Promise.all([code.dispose(), media.dispose()]).finally(() => {
        esbuild.stop();
        process.exit(0);
      });
    });
  }
  await Promise.all([code.watch(), media.watch()]);
}

async function main() {
  fs.mkdirSync(outdir, { recursive: true });
  if (watch) return watchAll();
  await Promise.all([esbuild.build(mediaTarget), esbuild.build(codeTarget)]);
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error.message ?? error);
    process.exit(1);
  });
}

// For the tests that read what the build is (test/component/project/bundleLoad.test.ts): a build they run unwritten
// keeps `sdkShims` (what the bundle resolves) and leaves out the plugins that write into dist/.
module.exports = { codeTarget, sdkShims };
