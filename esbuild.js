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

const targets = [
  { ...common, entryPoints: ['src/extension/extension.ts'], outfile: path.join(outdir, 'extension.js'), external: ['vscode'] },
  {
    ...common,
    // The CLI ships inside the VSIX (History's Copy as CLI Command names it), minified like the extension.
    entryPoints: ['src/cli/main.ts'],
    outfile: path.join(outdir, 'cli.js'),
    banner: { js: '#!/usr/bin/env node' },
    // No externals: if anything in the CLI's graph imported vscode, the bundle would fail to resolve it.
  },
];

async function main() {
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
