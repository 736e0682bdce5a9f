import * as vscode from 'vscode';
import {
  fromSchemaErrors,
  validateFormValues,
  type FieldError,
  type FieldProblem,
} from '../../../workbench/forms/fieldValidation';
import type { FormField } from '../../../workbench/forms/formModel';

/** One problem of one field, in the words the form shows next to it (`path` "" is the form as a whole). */
export interface FieldMessage {
  path: string;
  message: string;
}

/**
 * The form's problems for a person: first the per-field checks of the form model; only when those pass, what the
 * schema validator still finds (keywords the form does not express), mapped to fields where it can be.
 */
export function formFieldMessages(
  model: FormField,
  values: unknown,
  schemaErrors: () => readonly string[],
): FieldMessage[] {
  const own = validateFormValues(model, values);
  const errors: FieldError[] = own.length > 0 ? own : fromSchemaErrors(schemaErrors());
  // One message per field and problem: the schema validator can report the same thing twice (e.g. anyOf branches).
  const seen = new Set<string>();
  return errors
    .map((error) => ({ path: error.path, message: describeFieldProblem(error.problem) }))
    .filter((message) => {
      const key = `${message.path}\n${message.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

function describeFieldProblem(problem: FieldProblem): string {
  switch (problem.kind) {
    case 'required':
      return vscode.l10n.t('Required');
    case 'format':
      switch (problem.format) {
        case 'email':
          return vscode.l10n.t('Must be an email address');
        case 'uri':
          return vscode.l10n.t('Must be a URL, such as https://example.com');
        case 'date':
          return vscode.l10n.t('Must be a date (YYYY-MM-DD)');
        case 'date-time':
          return vscode.l10n.t('Must be a date and time, such as 2025-06-18T09:30:00Z');
        default: {
          const exhaustive: never = problem.format;
          return String(exhaustive);
        }
      }
    case 'too-short':
      return problem.minLength === 1
        ? vscode.l10n.t('At least 1 character')
        : vscode.l10n.t('At least {0} characters', problem.minLength);
    case 'too-long':
      return problem.maxLength === 1
        ? vscode.l10n.t('At most 1 character')
        : vscode.l10n.t('At most {0} characters', problem.maxLength);
    case 'pattern':
      return vscode.l10n.t('Must match the pattern {0}', problem.pattern);
    case 'not-a-number':
      return vscode.l10n.t('Must be a number');
    case 'not-an-integer':
      return vscode.l10n.t('Must be a whole number');
    case 'too-small':
      return vscode.l10n.t('Must be at least {0}', problem.minimum);
    case 'too-large':
      return vscode.l10n.t('Must be at most {0}', problem.maximum);
    case 'not-an-option':
      return vscode.l10n.t('Choose one of the listed options');
    case 'too-few-items':
      return problem.minItems === 1
        ? vscode.l10n.t('At least 1 item')
        : vscode.l10n.t('At least {0} items', problem.minItems);
    case 'too-many-items':
      return problem.maxItems === 1
        ? vscode.l10n.t('At most 1 item')
        : vscode.l10n.t('At most {0} items', problem.maxItems);
    case 'schema':
      // Keywords the form does not know; the validator's own words (English) are all there is.
      return vscode.l10n.t('Not accepted by the input schema: {0}', problem.detail);
    default: {
      const exhaustive: never = problem;
      throw new Error(`unknown field problem ${JSON.stringify(exhaustive)}`);
    }
  }
}
