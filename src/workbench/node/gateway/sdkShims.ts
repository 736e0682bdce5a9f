/**
 * What the bundle gives the server SDK in place of its `@modelcontextprotocol/server/_shims` (esbuild.js, `sdkShims`):
 * the same names as its Node shims (`shimsNode.mjs`), whose default validator is this project's instead of ajv.
 * test/unit/workbench/node/gateway/sdkShims.test.ts checks the names still match the SDK's.
 */
import process from 'node:process';
import { SdkSchemaValidator } from '../../gateway/sdkSchemaValidator';

export { SdkSchemaValidator as DefaultJsonSchemaValidator, process };
