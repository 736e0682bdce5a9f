/**
 * The gateway's chunk ships no ajv: the server SDK reaches ajv only through `@modelcontextprotocol/server/_shims`,
 * which esbuild.js's `sdkShims` points at src/workbench/node/gateway/sdkShims.ts (this project's validator). Read from
 * esbuild's metafile of the build as esbuild.js configures it, written nowhere; a build without the plugin shows the
 * check sees ajv when it is there.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { test } from 'node:test';
import * as esbuild from 'esbuild';
import { repoRoot as REPO_ROOT } from '../../support/paths';

const { codeTarget, sdkShims } = createRequire(__filename)(path.join(REPO_ROOT, 'esbuild.js')) as {
  codeTarget: esbuild.BuildOptions;
  sdkShims: esbuild.Plugin;
};

/** The modules of every output file, by output; without the plugins that write into dist/. */
async function build(plugins: esbuild.Plugin[]): Promise<esbuild.Metafile> {
  const result = await esbuild.build({ ...codeTarget, write: false, plugins, minify: true, sourcemap: false });
  assert.ok(result.metafile, 'esbuild.js builds with a metafile');
  return result.metafile;
}

const isAjv = (input: string): boolean => /node_modules\/(ajv|ajv-formats)\/|\/ajvProvider-[^/]*$/.test(input);

/**
 * The modules in the output holding the gateway, what the SDK's `_shims` imports resolved to, and the ajv modules
 * anywhere in the build.
 */
function gatewayAndAjv(metafile: esbuild.Metafile): { gateway: string[]; shims: string[]; ajv: string[] } {
  const outputs = Object.values(metafile.outputs);
  const gateway = outputs.find((output) => 'src/workbench/gateway/gateway.ts' in output.inputs);
  assert.ok(gateway, 'the gateway is in the build');
  const shims = Object.values(metafile.inputs).flatMap((input) =>
    input.imports
      .filter((entry) => entry.original === '@modelcontextprotocol/server/_shims')
      .map((entry) => entry.path),
  );
  return {
    gateway: Object.keys(gateway.inputs),
    shims: [...new Set(shims)],
    ajv: outputs.flatMap((output) => Object.keys(output.inputs)).filter(isAjv),
  };
}

test("the gateway's chunk holds the server SDK and this project's shims, and no file of the build holds ajv", async () => {
  assert.ok(
    codeTarget.plugins?.includes(sdkShims),
    'the build esbuild.js makes uses sdkShims (its plugins: which write into dist/ are left out here)',
  );
  const { gateway, shims, ajv } = gatewayAndAjv(await build([sdkShims]));
  assert.ok(
    gateway.some((input) => input.includes('node_modules/@modelcontextprotocol/server/')),
    gateway.join(', '),
  );
  assert.deepEqual(shims, ['src/workbench/node/gateway/sdkShims.ts']);
  assert.ok(gateway.includes('src/workbench/gateway/sdkSchemaValidator.ts'), gateway.join(', '));
  assert.deepEqual(ajv, []);
});

test('without sdkShims the SDK would bring its ajv (so the check above can see it)', async () => {
  const { shims, ajv } = gatewayAndAjv(await build([]));
  assert.equal(shims.length, 1);
  assert.match(shims[0], /node_modules\/@modelcontextprotocol\/server\/dist\/shimsNode\.mjs$/);
  assert.ok(ajv.length > 0, 'ajv is in a build without the plugin');
});
