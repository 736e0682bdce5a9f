import * as vscode from 'vscode';
import type { ServerController } from '../servers/serverController';
import type { ToolResultDocuments } from './toolResultDocuments';
import { toolResultMarkdown, type ToolCallRecord } from './toolResultMarkdown';
import { webviewPage } from '../webviews/webviewPage';
import { resultBody } from './resultHtml';

/** What the last result view showed, for tests (the HTML body and the same result as Markdown). */
export interface ShownResult {
  title: string;
  html: string;
  markdown: string;
}

type ResultMessage = { type: 'readResource'; uri: string } | { type: 'openMarkdown' };

/**
 * Shows tool results in a webview (text, images, audio, embedded resources, clickable resource links, structured
 * content with its verdict). Each call gets its own tab so results can be compared side by side.
 */
export class ToolResultView implements vscode.Disposable {
  private readonly panels = new Set<vscode.WebviewPanel>();
  private lastShownValue: ShownResult | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly documents: ToolResultDocuments,
    private readonly readResource: (controller: ServerController, uri: string) => Promise<void>,
  ) {}

  get lastShown(): ShownResult | undefined {
    return this.lastShownValue;
  }

  show(controller: ServerController, record: ToolCallRecord): void {
    const title = vscode.l10n.t('{0} result', record.toolName);
    const mediaRoot = vscode.Uri.joinPath(this.extensionUri, 'media', 'results');
    const panel = vscode.window.createWebviewPanel('mcpWorkbench.toolResult', title, vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [mediaRoot],
    });
    const body = resultBody(record);
    const markdown = toolResultMarkdown(record);
    panel.webview.html = webviewPage({
      webview: panel.webview,
      title,
      body,
      scripts: [vscode.Uri.joinPath(mediaRoot, 'results.js')],
      styles: [vscode.Uri.joinPath(mediaRoot, 'results.css')],
    });
    this.lastShownValue = { title, html: body, markdown };
    this.panels.add(panel);
    const subscription = panel.webview.onDidReceiveMessage((message: ResultMessage) => {
      if (message?.type === 'readResource' && typeof message.uri === 'string') void this.readResource(controller, message.uri);
      else if (message?.type === 'openMarkdown') void this.documents.show(title, markdown);
    });
    panel.onDidDispose(() => {
      subscription.dispose();
      this.panels.delete(panel);
    });
  }

  dispose(): void {
    for (const panel of [...this.panels]) panel.dispose();
  }
}
