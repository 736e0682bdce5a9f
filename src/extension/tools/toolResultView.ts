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
  /** Counts the results shown in this session; the webview echoes it back once it has drawn that result. */
  sequence: number;
  /** How the result reached the screen: a new tab, a message to the open tab, or the open tab's page rebuilt. */
  delivery: 'created' | 'posted' | 'reloaded';
}

type ResultMessage = { type: 'readResource'; uri: string } | { type: 'openMarkdown' } | { type: 'rendered'; sequence: number };

/** One tab per tool, showing that tool's latest result. */
interface ResultTab {
  panel: vscode.WebviewPanel;
  /** What the tab shows now; its links and "Open as Markdown" act on this. */
  current: { controller: ServerController; title: string; markdown: string };
}

/**
 * Shows tool results in a webview (text, images, audio, embedded resources, clickable resource links, structured
 * content with its verdict). Each tool has one tab, reused for its next result: creating a webview costs about a
 * second, posting the new body to the open one a few milliseconds.
 */
export class ToolResultView implements vscode.Disposable {
  private readonly tabs = new Map<string, ResultTab>();
  private readonly renderedEmitter = new vscode.EventEmitter<number>();
  private lastShownValue: ShownResult | undefined;
  private sequence = 0;
  /** When each result not yet drawn was handed over, to log how long it took to reach the screen. */
  private readonly pending = new Map<number, { at: number; toolName: string; delivery: ShownResult['delivery'] }>();

  /** Fires with a result's sequence once the webview has put it on screen. */
  readonly onDidRender = this.renderedEmitter.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly documents: ToolResultDocuments,
    private readonly readResource: (controller: ServerController, uri: string) => Promise<void>,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  get lastShown(): ShownResult | undefined {
    return this.lastShownValue;
  }

  /** How many result tabs are open (one per tool at most). */
  get openTabs(): number {
    return this.tabs.size;
  }

  show(controller: ServerController, record: ToolCallRecord): ShownResult {
    const title = vscode.l10n.t('{0} result', record.toolName);
    const body = resultBody(record);
    const markdown = toolResultMarkdown(record);
    const sequence = ++this.sequence;
    const key = `${controller.id}\u0000${record.toolName}`;
    const existing = this.tabs.get(key);
    let delivery: ShownResult['delivery'];
    if (existing) {
      existing.current = { controller, title, markdown };
      existing.panel.title = title;
      // The page stays alive while hidden (retainContextWhenHidden), so the message reaches it either way.
      void existing.panel.webview.postMessage({ type: 'show', html: body, sequence }).then((delivered) => {
        // Not delivered (the page was being rebuilt): set it whole instead.
        if (!delivered) existing.panel.webview.html = this.page(existing.panel.webview, title, body, sequence);
      });
      delivery = 'posted';
      existing.panel.reveal(undefined, true);
    } else {
      this.create(key, controller, title, body, markdown, sequence);
      delivery = 'created';
    }
    this.lastShownValue = { title, html: body, markdown, sequence, delivery };
    this.pending.set(sequence, { at: Date.now(), toolName: record.toolName, delivery });
    if (this.pending.size > 100) this.pending.delete(this.pending.keys().next().value as number);
    return this.lastShownValue;
  }

  private create(key: string, controller: ServerController, title: string, body: string, markdown: string, sequence: number): void {
    const mediaRoot = vscode.Uri.joinPath(this.extensionUri, 'media', 'results');
    const panel = vscode.window.createWebviewPanel('mcpWorkbench.toolResult', title, vscode.ViewColumn.Active, {
      enableScripts: true,
      // Kept while hidden (behind the form, usually) so the next result can be posted to it: rebuilding the page
      // costs about as much as a new tab. One webview per tool.
      retainContextWhenHidden: true,
      localResourceRoots: [mediaRoot],
    });
    panel.webview.html = this.page(panel.webview, title, body, sequence);
    const tab: ResultTab = { panel, current: { controller, title, markdown } };
    this.tabs.set(key, tab);
    const subscription = panel.webview.onDidReceiveMessage((message: ResultMessage) => {
      const { current } = tab;
      if (message?.type === 'readResource' && typeof message.uri === 'string') void this.readResource(current.controller, message.uri);
      else if (message?.type === 'openMarkdown') void this.documents.show(current.title, current.markdown);
      else if (message?.type === 'rendered' && typeof message.sequence === 'number') this.rendered(message.sequence);
    });
    panel.onDidDispose(() => {
      subscription.dispose();
      if (this.tabs.get(key) === tab) this.tabs.delete(key);
    });
  }

  private rendered(sequence: number): void {
    const pending = this.pending.get(sequence);
    if (pending) {
      this.pending.delete(sequence);
      this.log(`Result ${sequence} of ${pending.toolName} on screen ${Date.now() - pending.at} ms after the call answered (${pending.delivery})`);
    }
    this.renderedEmitter.fire(sequence);
  }

  private page(webview: vscode.Webview, title: string, body: string, sequence: number): string {
    const mediaRoot = vscode.Uri.joinPath(this.extensionUri, 'media', 'results');
    return webviewPage({
      webview,
      title,
      body: `<main id="result">${body}</main>`,
      scripts: [vscode.Uri.joinPath(mediaRoot, 'results.js')],
      styles: [vscode.Uri.joinPath(mediaRoot, 'results.css')],
      state: { sequence },
    });
  }

  dispose(): void {
    for (const { panel } of [...this.tabs.values()]) panel.dispose();
    this.renderedEmitter.dispose();
  }
}
