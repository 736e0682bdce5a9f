import * as os from 'node:os';
import * as vscode from 'vscode';
import type { Disposable } from '../../../protocol/disposable';
import { encodeEventBatch } from '../../../workbench/protocolLog/eventBatch';
import { toJsonLines } from '../../../workbench/protocolLog/jsonLines';
import type { ProtocolLog } from '../../../workbench/protocolLog/protocolLog';
import { checkEditedRequest } from '../../../workbench/protocolLog/replay';
import type { WireEvent } from '../../../workbench/protocolLog/wireEvent';
import type { ServerController } from '../../platform/servers/serverController';
import { escapeHtml, webviewPage } from '../../platform/webviews/webviewPage';
import type { CompareDocuments } from './compareDocuments';
import { protocolStrings } from './protocolStrings';
import { sendAgain, type SendOutcome } from './sendAgain';
import { webviewMedia } from '../../platform/webviews/webviewMedia';

/** Events are posted to the page at most this often, in one message: a flood of notifications is one post per tick. */
const FLUSH_MS = 100;
/** A page that opens on a full log receives it in pieces of this many events. */
const CHUNK = 5000;

type PageMessage =
  | { type: 'ready' }
  | { type: 'copy'; text: string }
  | { type: 'export' }
  | { type: 'clear' }
  /** Send row `seq` again as it was. */
  | { type: 'replay'; seq: number }
  /** Send `text`, edited from row `seq`. */
  | { type: 'send'; seq: number; text: string }
  | { type: 'pin'; seq: number }
  | { type: 'unpin'; seq: number }
  | { type: 'compare'; left: number; right: number };

/**
 * One Show Protocol panel for one server: it holds the server's log while open (dropped when closed, so a closed
 * panel costs nothing) and streams the log's events to the page, which draws only the rows on screen.
 */
export class ProtocolPanel implements vscode.Disposable {
  private readonly subscriptions: Disposable[] = [];
  private queued: WireEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private ready = false;
  /** While the whole log is being posted, newer events wait, so the page receives every event in order. */
  private sendingAll = false;
  private disposed = false;
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;

  private readonly serverName: string;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly log: ProtocolLog,
    private readonly release: Disposable,
    private readonly controller: ServerController,
    private readonly compareDocuments: CompareDocuments,
    extensionUri: vscode.Uri,
  ) {
    const serverName = controller.name;
    this.serverName = serverName;
    const media = webviewMedia(extensionUri, 'protocol');
    panel.webview.html = webviewPage({
      webview: panel.webview,
      title: panel.title,
      body: `<div id="app" data-server="${escapeHtml(serverName)}"></div>`,
      scripts: [vscode.Uri.joinPath(media, 'protocol.js')],
      styles: [vscode.Uri.joinPath(media, 'protocol.css')],
      state: { strings: protocolStrings() },
    });
    this.subscriptions.push(
      log.onDidAppend((event) => this.enqueue(event)),
      log.onDidClear(() => void this.post('reset', [])),
      log.onDidChangePins(() => void this.postPins()),
      panel.webview.onDidReceiveMessage((message: PageMessage) => void this.onMessage(message)),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  reveal(): void {
    this.panel.reveal();
  }

  private async onMessage(message: PageMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.queued = [];
        await this.sendAll();
        await this.postPins();
        return;
      case 'copy':
        await vscode.env.clipboard.writeText(String(message.text));
        return;
      case 'export':
        await this.export();
        return;
      case 'clear':
        this.log.clear();
        return;
      case 'replay':
        await this.sendResult(
          message.seq,
          await sendAgain(
            this.controller,
            this.log,
            Number(message.seq),
            this.log.replaySource(Number(message.seq)),
            false,
          ),
        );
        return;
      case 'send':
        await this.sendResult(
          message.seq,
          await sendAgain(
            this.controller,
            this.log,
            Number(message.seq),
            checkEditedRequest(String(message.text)),
            true,
          ),
        );
        return;
      case 'pin': {
        const outcome = this.log.pin(Number(message.seq));
        switch (outcome) {
          case 'pinned':
            return;
          case 'full':
            void vscode.window.showInformationMessage(
              vscode.l10n.t('Row {0} was not pinned: at most 50 rows are pinned; unpin one first.', message.seq),
            );
            return;
          case 'gone':
            void vscode.window.showInformationMessage(
              vscode.l10n.t('Row {0} was not pinned: the log no longer holds it.', message.seq),
            );
            return;
          default: {
            const exhaustive: never = outcome;
            throw new Error(`unknown pin outcome ${String(exhaustive)}`);
          }
        }
      }
      case 'unpin':
        this.log.unpin(Number(message.seq));
        return;
      case 'compare': {
        const left = this.log.event(Number(message.left));
        const right = this.log.event(Number(message.right));
        if (left && right) await this.compareDocuments.compare(this.serverName, left, right);
        return;
      }
      default: {
        const exhaustive: never = message;
        throw new Error(`unknown page message ${JSON.stringify(exhaustive)}`);
      }
    }
  }

  private async sendAll(): Promise<void> {
    this.sendingAll = true;
    try {
      const events = this.log.events();
      await this.post('reset', events.slice(0, CHUNK));
      for (let start = CHUNK; start < events.length; start += CHUNK)
        await this.post('append', events.slice(start, start + CHUNK));
    } finally {
      this.sendingAll = false;
    }
  }

  private enqueue(event: WireEvent): void {
    if (!this.ready) return;
    this.queued.push(event);
    this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  private flush(): void {
    this.timer = undefined;
    if (this.queued.length === 0) return;
    if (this.sendingAll) {
      this.timer = setTimeout(() => this.flush(), FLUSH_MS);
      return;
    }
    const events = this.queued;
    this.queued = [];
    void this.post('append', events);
  }

  private async sendResult(seq: number, outcome: SendOutcome): Promise<void> {
    if (!this.disposed) await this.panel.webview.postMessage({ type: 'sendResult', seq, outcome });
  }

  /** The pinned rows, whole, each time they change (they are kept apart from the events, see ProtocolLog.pin). */
  private async postPins(): Promise<void> {
    if (this.disposed || !this.ready) return;
    await this.panel.webview.postMessage({ type: 'pins', json: encodeEventBatch(this.log.pinned(), 0) });
  }

  /** Events go to the page as the UTF-8 bytes of their JSON (encodeEventBatch says why). */
  private async post(type: 'reset' | 'append', events: readonly WireEvent[]): Promise<void> {
    if (this.disposed) return;
    await this.panel.webview.postMessage({ type, json: encodeEventBatch(events, this.log.dropped) });
  }

  private async export(): Promise<void> {
    const safeName = this.serverName.replace(/[^\w.-]+/g, '_');
    const target = await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Export the protocol log of "{0}"', this.serverName),
      defaultUri: vscode.Uri.joinPath(
        vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir()),
        `${safeName}.protocol.jsonl`,
      ),
      filters: { [vscode.l10n.t('JSON Lines')]: ['jsonl'] },
    });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode([...toJsonLines(this.log.events())].join('')));
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Exported {0} events of "{1}" to {2}.', this.log.size, this.serverName, target.fsPath),
    );
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
    this.release.dispose();
    this.panel.dispose();
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
  }
}
