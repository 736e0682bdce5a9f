import { SchemaValidator } from '../../../protocol/validation/schemaValidation';

let validator: SchemaValidator | undefined;

/**
 * The extension's one JSON Schema validator (tool arguments, forms, elicitation), made on its first use: the validator
 * and its regex engine load when a person first fills a form or types arguments, not when the extension loads
 * (test/component/project/bundleLoad.test.ts).
 */
export function schemaValidator(): SchemaValidator {
  return (validator ??= new SchemaValidator());
}
