/**
 * The module the bundle gives the server SDK for `@modelcontextprotocol/server/_shims` (esbuild.js, `sdkShims`) must
 * export what the SDK's own Node shims export: an SDK upgrade that adds a name there would otherwise reach the
 * gateway's chunk as `undefined`. Here (tsx, no bundle) the SDK still resolves its own shims, so both can be read.
 */
import assert from 'node:assert/strict';
import nodeProcess from 'node:process';
import { test } from 'node:test';
import * as sdkShims from '@modelcontextprotocol/server/_shims';
import { SdkSchemaValidator } from '../../../../../src/workbench/gateway/sdkSchemaValidator';
import * as ours from '../../../../../src/workbench/node/gateway/sdkShims';

test('exports the names the SDK’s Node shims export', () => {
  // `default` is the interop's (tsx loads the SDK's ES module through require), not a name the SDK imports.
  const names = (module: object) =>
    Object.keys(module)
      .filter((name) => name !== 'default')
      .sort();
  assert.deepEqual(names(ours), names(sdkShims));
  assert.deepEqual(names(ours), ['DefaultJsonSchemaValidator', 'process']);
});

test('its default validator is this project’s, and its process is Node’s', () => {
  assert.equal(ours.DefaultJsonSchemaValidator, SdkSchemaValidator);
  assert.ok(new ours.DefaultJsonSchemaValidator() instanceof SdkSchemaValidator);
  assert.equal(ours.process, nodeProcess);
});
