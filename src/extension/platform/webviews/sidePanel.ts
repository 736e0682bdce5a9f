import * as vscode from 'vscode';
import { sideColumn, trackPersonPanel } from './panelColumn';
import { webviewMedia, type WebviewMediaFolder } from './webviewMedia';
import { webviewPage } from './webviewPage';

/** A page's script or style sheet: its folder of media/ and its file name there, e.g. `loadTest/loadTest.js`. */
export type MediaFile = `${WebviewMediaFolder}/${string}`;

export interface SidePanelOptions {
  /** The panel's view type (`mcpWorkbench.…`). */
  viewType: string;
  title: string;
  /** Already-escaped HTML. */
  body: string;
  scripts?: readonly MediaFile[];
  styles?: readonly MediaFile[];
  /** JSON handed to the scripts (`#initial-state`). */
  state?: unknown;
  /** Shown without taking the focus: the person keeps typing where they were. */
  preserveFocus?: boolean;
}

/**
 * A panel the person opened, in the side group our panels share (panelColumn.ts), counted toward that group while it
 * is open, with its page built the one way (webviewPage.ts: a strict CSP, nonce'd scripts). It may load only the media
 * folders its scripts and styles are in; a page without scripts runs none. A page with scripts keeps its context
 * while hidden (behind another tab, usually), so what comes next can be posted to it instead of rebuilding it.
 */
export function openSidePanel(extensionUri: vscode.Uri, options: SidePanelOptions): vscode.WebviewPanel {
  const scripts = options.scripts ?? [];
  const styles = options.styles ?? [];
  const folderOf = (file: MediaFile) => file.slice(0, file.indexOf('/')) as WebviewMediaFolder;
  const folders = [...new Set([...scripts, ...styles].map(folderOf))];
  const media = (file: MediaFile) =>
    vscode.Uri.joinPath(webviewMedia(extensionUri, folderOf(file)), file.slice(file.indexOf('/') + 1));
  const column = sideColumn('person');
  const panel = vscode.window.createWebviewPanel(
    options.viewType,
    options.title,
    options.preserveFocus === undefined ? column : { viewColumn: column, preserveFocus: options.preserveFocus },
    {
      enableScripts: scripts.length > 0,
      ...(scripts.length > 0 ? { retainContextWhenHidden: true } : {}),
      localResourceRoots: folders.map((folder) => webviewMedia(extensionUri, folder)),
    },
  );
  trackPersonPanel(panel);
  panel.webview.html = webviewPage({
    webview: panel.webview,
    title: options.title,
    body: options.body,
    scripts: scripts.map(media),
    styles: styles.map(media),
    ...(options.state === undefined ? {} : { state: options.state }),
  });
  return panel;
}
