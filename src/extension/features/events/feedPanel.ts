import * as vscode from 'vscode';
import type { SubscriptionStats } from '../../../protocol/extensions/events/eventTypes';
import type { FeedRow } from '../../../workbench/events/feedModel';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import { sideColumn, trackPersonPanel } from '../../platform/webviews/panelColumn';
import { webviewMedia } from '../../platform/webviews/webviewMedia';
import { escapeHtml, webviewPage } from '../../platform/webviews/webviewPage';
import { modeLabel, type SubscriptionRecord } from './eventsSection';

/** Rows the page keeps (the model keeps as many: the page never holds more than the host). */
const PAGE_ROWS = 200;
/** New rows are posted together at most this often: a flood is a few messages, not hundreds. */
const FLUSH_MS = 100;

/** What the page is sent: new rows, the counters and the status (all text; the page sets it as text only). */
interface FeedUpdate {
  type: 'update';
  rows: FeedRow[];
  stats: SubscriptionStats | undefined;
  status: string;
  ended: boolean;
}

/**
 * The live feed of each subscription, one panel per subscription: the rows of its FeedModel (time, eventId,
 * payload as capped pretty JSON, the schema verdict; gaps, statuses and refusals marked) and the counters (delivered,
 * duplicates dropped, gaps, refused, dropped by the flood bound). Closing the panel leaves the subscription running;
 * Unsubscribe (on the page or the row) ends it.
 */
export class FeedPanels implements vscode.Disposable {
  private readonly panels = new Map<SubscriptionRecord, vscode.WebviewPanel>();

  constructor(private readonly extensionUri: vscode.Uri) {}

  /** The open panel of a subscription (test build: the suites read it). */
  panelOf(record: SubscriptionRecord): vscode.WebviewPanel | undefined {
    return this.panels.get(record);
  }

  open(record: SubscriptionRecord): void {
    const existing = this.panels.get(record);
    if (existing) {
      existing.reveal(undefined, true);
      return;
    }
    const media = webviewMedia(this.extensionUri, 'events');
    const title = vscode.l10n.t(
      'Events: {0} ({1})',
      escapeForDisplay(record.type.name).slice(0, 60),
      record.controller.name,
    );
    const panel = vscode.window.createWebviewPanel('mcpWorkbench.eventFeed', title, sideColumn('person'), {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [media],
    });
    trackPersonPanel(panel);
    this.panels.set(record, panel);
    panel.webview.html = webviewPage({
      webview: panel.webview,
      title,
      body: pageBody(record),
      scripts: [vscode.Uri.joinPath(media, 'feed.js')],
      styles: [vscode.Uri.joinPath(media, 'feed.css')],
      state: { labels: labels(), limit: PAGE_ROWS, initial: this.update(record, record.feed.rows()) },
    });
    let pending: FeedRow[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = (): void => {
      timer = undefined;
      const rows = pending.slice(-PAGE_ROWS);
      pending = [];
      void panel.webview.postMessage(this.update(record, rows));
    };
    const listening = record.onDidChange((row) => {
      if (row) pending.push(row);
      if (pending.length > PAGE_ROWS) pending.splice(0, pending.length - PAGE_ROWS);
      timer ??= setTimeout(flush, FLUSH_MS);
    });
    const messages = panel.webview.onDidReceiveMessage((message: unknown) => {
      if ((message as { type?: unknown } | undefined)?.type === 'unsubscribe') void record.subscription?.stop();
    });
    panel.onDidDispose(() => {
      clearTimeout(timer);
      listening.dispose();
      messages.dispose();
      this.panels.delete(record);
    });
  }

  private update(record: SubscriptionRecord, rows: FeedRow[]): FeedUpdate {
    const stats = record.subscription?.stats;
    return { type: 'update', rows, stats: stats && { ...stats }, status: record.status, ended: record.ended };
  }

  dispose(): void {
    for (const panel of [...this.panels.values()]) panel.dispose();
  }
}

function pageBody(record: SubscriptionRecord): string {
  const text = (value: string) => escapeHtml(escapeForDisplay(value));
  return `<h1>${text(record.type.name)}</h1>
<p class="muted">${escapeHtml(vscode.l10n.t('{0} · delivered by {1} · subscription #{2}', record.controller.name, modeLabel(record.mode), record.id))}</p>
<div class="bar">
  <span id="status" role="status"></span>
  <span id="stats" class="muted"></span>
  <button id="unsubscribe" class="secondary">${escapeHtml(vscode.l10n.t('Unsubscribe'))}</button>
</div>
<table id="feed" aria-label="${escapeHtml(vscode.l10n.t('Live feed'))}">
  <thead><tr><th>${escapeHtml(vscode.l10n.t('Time'))}</th><th>${escapeHtml(vscode.l10n.t('Event ID'))}</th><th>${escapeHtml(vscode.l10n.t('Payload'))}</th><th>${escapeHtml(vscode.l10n.t('Schema'))}</th></tr></thead>
  <tbody id="rows"></tbody>
</table>
<p id="empty" class="muted">${escapeHtml(vscode.l10n.t('Waiting for events…'))}</p>`;
}

/** Every word the page shows, translated here (the page has no l10n of its own). */
function labels(): Record<string, string> {
  return {
    valid: vscode.l10n.t('valid'),
    invalid: vscode.l10n.t('invalid'),
    unchecked: vscode.l10n.t('not checked'),
    truncated: vscode.l10n.t('Gap: the server skipped events (truncated)'),
    flood: vscode.l10n.t('Gap: {0} events dropped past the rate bound (flood)'),
    refused: vscode.l10n.t('Refused'),
    status: vscode.l10n.t('Status: {0}'),
    stats: vscode.l10n.t(
      '{0} delivered · {1} duplicates dropped · {2} gaps · {3} refused · {4} dropped by the flood bound',
    ),
    ended: vscode.l10n.t('Ended'),
    active: vscode.l10n.t('active'),
    starting: vscode.l10n.t('starting'),
    reconnecting: vscode.l10n.t('reconnecting'),
    refreshed: vscode.l10n.t('refreshed'),
    error: vscode.l10n.t('error'),
    terminated: vscode.l10n.t('terminated'),
    stopped: vscode.l10n.t('stopped'),
  };
}
