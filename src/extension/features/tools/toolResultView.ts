import * as vscode from 'vscode';
import type { ServerController } from '../../platform/servers/serverController';
import type { ToolResultDocuments } from '../../platform/ui/toolResultDocuments';
import { toolResultMarkdown, type ToolCallRecord } from './toolResultMarkdown';
import { resultArea, resultBody, statusBody, type CallStatus, type ResultPlace } from './resultHtml';
import { ResultChannel, type ChannelDelivery, type ResultBodyMessage } from './resultChannel';
import type { CallAttempt } from './callTool';
import { openSidePanel } from '../../platform/webviews/sidePanel';

/** What the last result shown looked like, for tests (the HTML body and the same result as Markdown). */
interface ShownResult {
  title: string;
  html: string;
  markdown: string;
  /** Counts the results shown in this session; the webview echoes it back once it has drawn that result. */
  sequence: number;
  /** Where the result went: under the tool's form (the call was made there) or into the tool's result tab. */
  place: ResultPlace;
  /**
   * How the result reached its page: carried by the HTML of a new tab, posted to a page that listens, or held until
   * a page still loading said it listens.
   */
  delivery: 'created' | ChannelDelivery;
}

/** A result numbered and timed, ready for its page. */
interface PreparedResult {
  /** When the call's answer was handed over to be shown (Date.now()). */
  answeredAt: number;
  title: string;
  markdown: string;
  message: ResultBodyMessage & { type: 'show' };
}

/** The result tab of a call in flight: it shows "Calling…" from the start, then the result or what went wrong. */
interface CallScreen {
  progress(text: string): void;
  settle(attempt: CallAttempt): void;
}

/** A result tab opened while the arguments of a call are asked. */
export interface PreparedCall {
  begin(cancel: () => void): CallScreen;
  /** No call after all: closes the tab if it was opened for this call and shows nothing else. */
  abandon(): void;
}

/** Messages a result area posts (media/results/results.js). */
export type ResultAreaMessage =
  | { type: 'ready'; showing?: unknown }
  | { type: 'rendered'; sequence: number }
  | { type: 'readResource'; uri: string }
  | { type: 'openMarkdown' }
  | { type: 'openTab' }
  | { type: 'cancelCall' };

/** One tab per tool, showing that tool's latest result. */
interface ResultTab {
  panel: vscode.WebviewPanel;
  channel: ResultChannel;
  /** What the tab shows now; its links, "Open as Markdown" and "Cancel Call" act on this. */
  current: { controller: ServerController; title: string; markdown?: string; cancel?: () => void };
}

/**
 * Shows tool results (text, images, audio, embedded resources, clickable resource links, structured content with
 * its verdict). A call made from the tool's form is drawn under the form, a page already on screen, so a result is
 * one posted message. Other results (History's Open Result, Call Tool with JSON Arguments, "Open in Its Own Tab")
 * go to the tool's result tab, one per tool and reused: creating a webview costs about a second, so a direct call
 * opens its tab as it starts. This class numbers every result, wherever it is drawn, and logs how long it took to
 * reach the screen.
 */
export class ToolResultView implements vscode.Disposable {
  private readonly tabs = new Map<string, ResultTab>();
  private readonly renderedEmitter = new vscode.EventEmitter<number>();
  private lastShownValue: ShownResult | undefined;
  private sequence = 0;
  private statusCount = 0;
  /** When each result not yet drawn was handed over, to log how long it took to reach the screen. */
  private readonly pending = new Map<
    number,
    { at: number; toolName: string; place: ResultPlace; delivery: ShownResult['delivery'] }
  >();

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

  /** Numbers the result and starts its clock (the call has just answered). */
  prepare(record: ToolCallRecord, place: ResultPlace): PreparedResult {
    const answeredAt = Date.now();
    const sequence = ++this.sequence;
    return {
      answeredAt,
      title: vscode.l10n.t('{0} result', record.toolName),
      markdown: toolResultMarkdown(record),
      message: { type: 'show', key: `result-${sequence}`, html: resultBody(record, place), sequence },
    };
  }

  /** Records where and how a prepared result was handed to its page (tests read it; the log times it). */
  handedOver(
    prepared: PreparedResult,
    toolName: string,
    place: ResultPlace,
    delivery: ShownResult['delivery'],
  ): ShownResult {
    const { sequence, html } = prepared.message;
    this.lastShownValue = { title: prepared.title, html, markdown: prepared.markdown, sequence, place, delivery };
    this.pending.set(sequence, { at: prepared.answeredAt, toolName, place, delivery });
    if (this.pending.size > 100) this.pending.delete(this.pending.keys().next().value as number);
    return this.lastShownValue;
  }

  /** A status body (a call in flight, cancelled, failed) under a key of its own. */
  status(place: ResultPlace, controller: ServerController, toolName: string, status: CallStatus): ResultBodyMessage {
    return {
      type: 'status',
      key: `status-${++this.statusCount}`,
      html: statusBody(place, toolName, controller.name, status),
    };
  }

  /** Shows the result in the tool's tab (created if none is open). */
  show(controller: ServerController, record: ToolCallRecord): ShownResult {
    const prepared = this.prepare(record, 'tab');
    const { tab, created } = this.tabFor(controller, record.toolName, prepared.title, prepared.message);
    tab.current = { controller, title: prepared.title, markdown: prepared.markdown };
    const delivery = created ? 'created' : tab.channel.deliver(prepared.message);
    if (!created) {
      tab.panel.title = prepared.title;
      tab.panel.reveal(undefined, true);
    }
    return this.handedOver(prepared, record.toolName, 'tab', delivery);
  }

  /**
   * Opens the tool's tab while the arguments are asked, when none is open: a new webview takes about a second to
   * load, about as long as typing the arguments, so by the answer its page listens. Abandoned (the person cancelled
   * the arguments), the tab is closed again.
   */
  prepareCall(controller: ServerController, toolName: string): PreparedCall {
    const key = tabKey(controller, toolName);
    if (this.tabs.has(key))
      return { begin: (cancel) => this.beginCall(controller, toolName, cancel), abandon: () => undefined };
    const waiting = this.status('tab', controller, toolName, { kind: 'waiting' });
    const title = vscode.l10n.t('{0} result', toolName);
    // Without focus: the person is typing the arguments in the input box.
    const { tab } = this.tabFor(controller, toolName, title, waiting, true);
    return {
      begin: (cancel) => this.beginCall(controller, toolName, cancel),
      abandon: () => {
        if (this.tabs.get(key) === tab && tab.channel.current === waiting) tab.panel.dispose();
      },
    };
  }

  /** Opens (or reveals) the tool's tab as a call starts, so its page is loaded and listening by the answer. */
  beginCall(controller: ServerController, toolName: string, cancel: () => void): CallScreen {
    const calling = this.status('tab', controller, toolName, { kind: 'calling' });
    const title = vscode.l10n.t('{0} result', toolName);
    const { tab, created } = this.tabFor(controller, toolName, title, calling);
    tab.current = { controller, title, cancel };
    if (!created) {
      tab.channel.deliver(calling);
      tab.panel.reveal(undefined, true);
    }
    const settleStatus = (status: CallStatus) => {
      if (this.tabs.has(tabKey(controller, toolName)))
        tab.channel.deliver(this.status('tab', controller, toolName, status));
    };
    return {
      progress: (text) => tab.channel.progress(text),
      settle: (attempt) => {
        if (tab.current.cancel === cancel) tab.current = { controller, title };
        switch (attempt.kind) {
          case 'answered':
            this.show(controller, attempt.record);
            return;
          case 'cancelled':
            settleStatus({ kind: 'cancelled' });
            return;
          case 'failed':
            settleStatus({ kind: 'failed', message: attempt.message });
            return;
          default: {
            const exhaustive: never = attempt;
            return exhaustive;
          }
        }
      },
    };
  }

  /** A message from a result area, in a tab or under a form; the caller names what the area shows now. */
  handleAreaMessage(
    message: ResultAreaMessage,
    channel: ResultChannel,
    current: {
      controller: ServerController;
      title: string;
      markdown?: string;
      cancel?: () => void;
      openTab?: () => void;
    },
  ): void {
    switch (message?.type) {
      case 'ready':
        channel.ready(message.showing);
        return;
      case 'rendered':
        if (typeof message.sequence === 'number') this.rendered(message.sequence);
        return;
      case 'readResource':
        if (typeof message.uri === 'string') void this.readResource(current.controller, message.uri);
        return;
      case 'openMarkdown':
        if (current.markdown !== undefined) void this.documents.show(current.title, current.markdown);
        return;
      case 'openTab':
        current.openTab?.();
        return;
      case 'cancelCall':
        current.cancel?.();
        return;
      default:
        // Anything else is not a result area's message (the form's own messages are handled by the form).
        return;
    }
  }

  private tabFor(
    controller: ServerController,
    toolName: string,
    title: string,
    initial: ResultBodyMessage,
    preserveFocus = false,
  ): { tab: ResultTab; created: boolean } {
    const key = tabKey(controller, toolName);
    const existing = this.tabs.get(key);
    if (existing) return { tab: existing, created: false };
    // The side group the forms use (panelColumn.ts): a result tab never opens a column of its own. Kept while hidden
    // (behind the form, usually) so the next result can be posted to it: rebuilding the page costs about as much as a
    // new tab. One webview per tool.
    const panel = openSidePanel(this.extensionUri, {
      viewType: 'mcpWorkbench.toolResult',
      title,
      body: resultArea('tab', initial),
      scripts: ['results/results.js'],
      styles: ['results/results.css'],
      preserveFocus,
    });
    const tab: ResultTab = {
      panel,
      channel: new ResultChannel(panel.webview, initial),
      current: { controller, title },
    };
    this.tabs.set(key, tab);
    const subscription = panel.webview.onDidReceiveMessage((message: ResultAreaMessage) =>
      this.handleAreaMessage(message, tab.channel, tab.current),
    );
    panel.onDidDispose(() => {
      subscription.dispose();
      if (this.tabs.get(key) === tab) this.tabs.delete(key);
    });
    return { tab, created: true };
  }

  private rendered(sequence: number): void {
    const pending = this.pending.get(sequence);
    if (pending) {
      this.pending.delete(sequence);
      this.log(
        `Result ${sequence} of ${pending.toolName} on screen ${Date.now() - pending.at} ms after the call answered (${pending.place === 'form' ? 'in the form' : 'in its tab'}, ${pending.delivery})`,
      );
    }
    this.renderedEmitter.fire(sequence);
  }

  dispose(): void {
    for (const { panel } of [...this.tabs.values()]) panel.dispose();
    this.renderedEmitter.dispose();
  }
}

function tabKey(controller: ServerController, toolName: string): string {
  return `${controller.id}\u0000${toolName}`;
}
