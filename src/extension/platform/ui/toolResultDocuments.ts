import * as vscode from 'vscode';

const RESULT_SCHEME = 'mcp-result';

/**
 * Read-only virtual documents (`mcp-result:` URIs) holding tool results. Read-only means closing the tab never
 * asks to save; the `.md` path gives the document Markdown highlighting.
 */
export class ToolResultDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly subscriptions: vscode.Disposable[];
  private counter = 0;

  constructor() {
    this.subscriptions = [
      vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, this),
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (document.uri.scheme === RESULT_SCHEME) this.contents.delete(document.uri.toString());
      }),
    ];
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? vscode.l10n.t('This result is no longer available.');
  }

  /** Opens a new tab with `markdown`; `title` becomes the tab's name. */
  async show(title: string, markdown: string): Promise<vscode.TextEditor> {
    const safe = title.replace(/[\\/:*?"<>|#]+/g, '-');
    const uri = vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${++this.counter}/${safe}.md` });
    this.contents.set(uri.toString(), markdown);
    const document = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(document, { preview: false });
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.contents.clear();
  }
}
