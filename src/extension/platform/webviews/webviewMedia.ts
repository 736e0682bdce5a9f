import * as vscode from 'vscode';

/** The folders of media/ whose scripts and styles a webview loads. */
export type WebviewMediaFolder =
  'apps' | 'events' | 'forms' | 'loadTest' | 'playground' | 'protocol' | 'results' | 'review';

/**
 * Where a webview's scripts and styles are: `dist/media/<folder>`, which the build makes from `media/<folder>`
 * (minified in the VSIX: the pages' comments were a third of their compressed size; esbuild.js). The sources in
 * media/ are what is edited, type-checked and linted.
 */
export function webviewMedia(extensionUri: vscode.Uri, folder: WebviewMediaFolder): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'dist', 'media', folder);
}
