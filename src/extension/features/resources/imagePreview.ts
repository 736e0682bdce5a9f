import * as vscode from 'vscode';
import { escapeHtml, webviewPage } from '../../platform/webviews/webviewPage';
import { sideColumn, trackPersonPanel } from '../../platform/webviews/panelColumn';

/** Raster types a webview can show from a data: URI; SVG is left to the hex summary (it can carry script). */
const PREVIEWABLE = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp']);

export function canPreviewImage(mimeType: string | undefined): boolean {
  return mimeType !== undefined && PREVIEWABLE.has(mimeType.toLowerCase());
}

/** Opens a webview showing a binary image resource next to its hex summary. */
export function showImagePreview(title: string, mimeType: string, base64: string): vscode.WebviewPanel {
  const panel = vscode.window.createWebviewPanel('mcpWorkbench.imagePreview', title, sideColumn('person'), {
    enableScripts: false,
    localResourceRoots: [],
  });
  trackPersonPanel(panel);
  const clean = base64.replace(/[^A-Za-z0-9+/=]/g, '');
  panel.webview.html = webviewPage({
    webview: panel.webview,
    title,
    body: `<h1>${escapeHtml(title)}</h1><p class="muted">${escapeHtml(mimeType)}</p><img alt="${escapeHtml(title)}" src="data:${escapeHtml(mimeType.toLowerCase())};base64,${clean}">`,
  });
  return panel;
}
