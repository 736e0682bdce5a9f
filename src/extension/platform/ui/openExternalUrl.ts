import * as vscode from 'vscode';

/**
 * Opens a URL in the external browser exactly as the person agreed to it. VS Code opens a string as is, while a
 * vscode.Uri is opened as encodeURI(uri.toString(true)), which first decodes: `%2F` becomes `/` and `%26` becomes
 * `&`, another path and another query than the one shown. `env.openExternal` is typed for a Uri, but the extension
 * host accepts a string (ExtHostWindow.openUri keeps it) and the workbench opens it unchanged unless port
 * forwarding rewrites it (OpenerService), so the string is passed through the cast.
 */
export function openExternalUrl(url: string): Thenable<boolean> {
  return vscode.env.openExternal(url as unknown as vscode.Uri);
}
