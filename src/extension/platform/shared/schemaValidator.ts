import type { SchemaValidator } from '../../../protocol/validation/schemaValidation';

let validator: SchemaValidator | undefined;
let loading: Promise<SchemaValidator> | undefined;

/**
 * Loads the extension's one JSON Schema validator (tool arguments, forms, elicitation): the validator and its regex
 * engine are imported when a form or an arguments box first opens, not when the extension loads
 * (test/component/project/bundleLoad.test.ts). Awaited before the form is shown, so its checks stay synchronous.
 */
export function loadSchemaValidator(): Promise<SchemaValidator> {
  if (validator) return Promise.resolve(validator);
  return (loading ??= import('../../../protocol/validation/schemaValidation.js').then(
    ({ SchemaValidator }) => (validator ??= new SchemaValidator()),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  ));
}

/** The validator loadSchemaValidator loaded (the caller awaited it before showing what it checks). */
export function schemaValidator(): SchemaValidator {
  if (!validator) throw new Error('The JSON Schema validator is used before loadSchemaValidator() loaded it');
  return validator;
}
