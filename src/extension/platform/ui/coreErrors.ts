import * as vscode from 'vscode';
import { translateCoreErrors, type CoreErrorTemplate } from './coreErrorKinds';

/**
 * A core error message in the person's language (see coreErrorKinds.ts). In English the message is returned as it
 * is; elsewhere the recognized parts are translated and the core's English follows in brackets, so a search for the
 * exact text (or a bug report) still finds it.
 */
export function localizeCoreError(message: string): string {
  if (vscode.env.language.toLowerCase().startsWith('en')) return message;
  const translated = translateCoreErrors(message, say);
  return translated === message ? message : `${translated} [${message}]`;
}

// The template is one of CORE_ERROR_TEMPLATES (its type says so), each in the zh-CN bundle (test/unit/l10n.test.ts).
function say(template: CoreErrorTemplate, ...args: string[]): string {
  return vscode.l10n.t(template, ...args);
}
