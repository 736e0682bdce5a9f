import * as vscode from 'vscode';
import { rewriteCoreErrors, type CoreErrorKind } from './coreErrorKinds';

/**
 * A core error message in the person's language (see coreErrorKinds.ts). In English the message is returned as it
 * is; elsewhere the recognized parts are translated and the core's English follows in brackets, so a search for the
 * exact text (or a bug report) still finds it.
 */
export function localizeCoreError(message: string): string {
  if (vscode.env.language.toLowerCase().startsWith('en')) return message;
  const translated = rewriteCoreErrors(message, say);
  return translated === message ? message : `${translated} [${message}]`;
}

function say(error: CoreErrorKind): string {
  switch (error.kind) {
    case 'command-not-found':
      return vscode.l10n.t('{0} was not found on PATH (searched: {1}). Use an absolute path, set cwd, or add its folder to PATH through env.', error.command, error.searched);
    case 'input-without-value':
      // Not `${input:{0}}`: vscode.l10n.t reads `{input:{0}` as one unknown key and would leave `{0}` unfilled.
      return vscode.l10n.t('no value was given for the input {0}', `\${input:${error.input}}`);
    case 'timed-out':
      return vscode.l10n.t('{0} got no answer within {1} ms (timed out)', error.method, error.ms);
    case 'launcher-silent':
      return vscode.l10n.t('with nothing on stderr: "{0}" may have failed to download or install the package; run the same command in a terminal to see why', error.launcher);
    default: {
      const exhaustive: never = error;
      throw new Error(`unknown core error ${JSON.stringify(exhaustive)}`);
    }
  }
}
