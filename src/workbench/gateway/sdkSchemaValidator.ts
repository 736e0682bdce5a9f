import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/server';
import { SchemaValidator } from '../../protocol/validation/schemaValidation';

/**
 * The server SDK's JSON Schema validator interface, answered by this project's validator
 * (src/protocol/validation): the gateway's `Server`s are given it (agentServer.ts), and the bundle gives it to the SDK
 * as its default (esbuild.js, `sdkShims`), so the SDK's own ajv (153 KB minified, which compiles schemas to code with
 * `new Function`) is never shipped or run. The SDK asks a validator only in `Server.elicitInput` (a form's accepted
 * content against its `requestedSchema`) and in `fromJsonSchema`.
 */
export class SdkSchemaValidator implements jsonSchemaValidator {
  // One validator: it caches each schema it has read by the schema object, and holds nothing else.
  private static readonly shared = new SchemaValidator();

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    return (input: unknown) => {
      const verdict = SdkSchemaValidator.shared.validate(schema, input);
      switch (verdict.kind) {
        case 'valid':
          return { valid: true, data: input as T, errorMessage: undefined };
        case 'invalid':
          return { valid: false, data: undefined, errorMessage: verdict.errors.join('; ') };
        case 'unchecked':
          // A value the validator could not judge (a remote $ref, a budget spent) is not taken as valid: the SDK
          // refuses it with the reason, as it refuses one that fails.
          return { valid: false, data: undefined, errorMessage: `could not be checked: ${verdict.reason}` };
      }
    };
  }
}
