import * as vscode from 'vscode';
import type { McpClient } from '../../../protocol/client';
import { errorMessage } from '../../../protocol/errors';
import {
  runLoad,
  type LoadCall,
  type LoadClock,
  type LoadReport,
  type LoadShape,
} from '../../../workbench/load/loadRun';
import {
  SnapshotSeries,
  loadReportFileName,
  savedLoadReport,
  type SavedLoadReport,
} from '../../../workbench/load/savedReport';
import { maskText } from '../../../workbench/secrets';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import type { ServerController } from '../../platform/servers/serverController';
import { showError } from '../../platform/ui/coreErrors';
import { openSidePanel } from '../../platform/webviews/sidePanel';
import { escapeHtml } from '../../platform/webviews/webviewPage';

/** What the person chose for one run. */
export interface LoadPlan {
  calls: LoadCall[];
  shape: LoadShape;
  durationMs?: number;
  requests?: number;
  /** The recording the calls came from (its workspace path), when they did. */
  source?: string;
}

/** Messages from the page (media/loadTest/loadTest.js). */
type PageMessage = { type: 'ready' } | { type: 'cancel' } | { type: 'saveReport' } | { type: 'openReport' };

/** What the panel's run came to: running, ended (with its saved report), or failed. */
type RunState =
  | { kind: 'running' }
  | { kind: 'done'; report: LoadReport; saved: SavedLoadReport; file: vscode.Uri | undefined }
  | { kind: 'failed'; message: string };

const nodeClock: LoadClock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  cpuMicros: () => {
    const usage = process.cpuUsage();
    return usage.user + usage.system;
  },
};

/**
 * One load run in a panel: the live chart of latency (p50, p99) and throughput from the run's snapshots, Cancel, and at
 * the end the report saved as JSON in the workspace's storage, with Open Report and Save Report…. The panel owns the
 * run's client: Cancel or closing the panel aborts the run and closes the client, which ends the server process it
 * started (its whole tree).
 */
export class LoadTestPanel {
  private readonly stop = new AbortController();
  private readonly series = new SnapshotSeries();
  private readonly startedAt = new Date();
  private state: RunState = { kind: 'running' };
  private pageReady = false;
  private closed: Promise<void> | undefined;
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  /** The panel was closed (its run is stopped). */
  readonly onDidDispose = this.disposeEmitter.event;
  /** Settles when the run ended and its client is closed (test hooks). */
  finished: Promise<void> = Promise.resolve();

  static open(
    extensionUri: vscode.Uri,
    reportsFolder: vscode.Uri,
    controller: ServerController,
    client: McpClient,
    plan: LoadPlan,
  ): LoadTestPanel {
    const panel = openSidePanel(extensionUri, {
      viewType: 'mcpWorkbench.loadTest',
      title: vscode.l10n.t('Load Test {0}', controller.name),
      body: pageBody(controller, plan),
      scripts: ['loadTest/loadTest.js'],
      styles: ['loadTest/loadTest.css'],
      state: { labels: pageLabels() },
    });
    return new LoadTestPanel(panel, reportsFolder, controller, client, plan);
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly reportsFolder: vscode.Uri,
    readonly controller: ServerController,
    private readonly client: McpClient,
    readonly plan: LoadPlan,
  ) {
    const messages = panel.webview.onDidReceiveMessage((message: PageMessage) => void this.receive(message));
    panel.onDidDispose(() => {
      messages.dispose();
      // Closing the panel stops the run at once; the client's close ends the server it started.
      this.cancel();
      this.disposeEmitter.fire();
      this.disposeEmitter.dispose();
    });
  }

  get running(): boolean {
    return this.state.kind === 'running';
  }

  /** The report of the finished run (test hooks). */
  get result(): RunState {
    return this.state;
  }

  start(): void {
    this.finished = this.runToEnd();
  }

  /** Stops the run now: its calls are cancelled and the client (and the server process it started) closed. */
  cancel(): void {
    this.stop.abort('cancelled');
    void this.close();
  }

  private close(): Promise<void> {
    this.closed ??= this.client.close().catch(() => undefined);
    return this.closed;
  }

  private async runToEnd(): Promise<void> {
    const client = this.client;
    const secrets = () => this.controller.knownSecrets();
    try {
      const report = await runLoad(
        (call, signal) =>
          client.callTool(call.tool, call.args, { signal }).then((outcome) => ({
            isError: outcome.result.isError === true,
            outputInvalid: outcome.outputValidation?.kind === 'invalid',
          })),
        {
          calls: this.plan.calls,
          shape: this.plan.shape,
          durationMs: this.plan.durationMs,
          requests: this.plan.requests,
          signal: this.stop.signal,
          clock: nodeClock,
          onSnapshot: (snapshot) => {
            this.series.push(snapshot);
            this.post({ type: 'snapshot', snapshot });
          },
        },
      );
      await this.close();
      const saved = savedLoadReport(
        {
          server: this.controller.name,
          startedAt: this.startedAt,
          calls: this.plan.calls,
          shape: this.plan.shape,
          requests: this.plan.requests,
          durationMs: this.plan.durationMs,
          report,
          snapshots: this.series.points,
        },
        secrets(),
      );
      const file = await this.write(saved);
      this.state = { kind: 'done', report, saved, file };
    } catch (error) {
      await this.close();
      this.state = { kind: 'failed', message: maskText(errorMessage(error), secrets()) };
    }
    this.post(this.endMessage());
  }

  /** The report in the workspace's storage (or the extension's, without a workspace); undefined when it failed (said). */
  private async write(saved: SavedLoadReport): Promise<vscode.Uri | undefined> {
    const file = vscode.Uri.joinPath(this.reportsFolder, loadReportFileName(this.controller.name, this.startedAt));
    try {
      await vscode.workspace.fs.createDirectory(this.reportsFolder);
      await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(`${JSON.stringify(saved, null, 2)}\n`));
      return file;
    } catch (error) {
      void showError(error, { words: (reason) => vscode.l10n.t('The load report could not be saved: {0}', reason) });
      return undefined;
    }
  }

  private endMessage(): unknown {
    const state = this.state;
    switch (state.kind) {
      case 'running':
        return undefined;
      case 'done':
        return {
          type: 'done',
          summary: state.saved.summary,
          interrupted: state.report.interrupted,
          file: state.file ? state.file.fsPath : undefined,
        };
      case 'failed':
        return { type: 'failed', message: state.message };
      default: {
        const unknown: never = state;
        return unknown;
      }
    }
  }

  private post(message: unknown): void {
    if (!this.pageReady || message === undefined) return;
    void this.panel.webview.postMessage(message);
  }

  private async receive(message: PageMessage): Promise<void> {
    switch (message?.type) {
      case 'ready':
        // The page draws what it missed while it loaded: every snapshot so far, and the end if it came.
        this.pageReady = true;
        this.post({ type: 'snapshots', snapshots: this.series.points });
        this.post(this.endMessage());
        return;
      case 'cancel':
        this.cancel();
        return;
      case 'openReport':
        if (this.state.kind === 'done' && this.state.file)
          await vscode.window.showTextDocument(this.state.file, { preview: true });
        return;
      case 'saveReport':
        await this.saveAs();
        return;
      default:
        return;
    }
  }

  private async saveAs(): Promise<void> {
    if (this.state.kind !== 'done') return;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = loadReportFileName(this.controller.name, this.startedAt);
    const target = await vscode.window.showSaveDialog({
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
      filters: { JSON: ['json'] },
      saveLabel: vscode.l10n.t('Save Report'),
    });
    if (!target) return;
    try {
      await vscode.workspace.fs.writeFile(
        target,
        new TextEncoder().encode(`${JSON.stringify(this.state.saved, null, 2)}\n`),
      );
    } catch (error) {
      void showError(error, { words: (reason) => vscode.l10n.t('The load report could not be saved: {0}', reason) });
    }
  }

  dispose(): void {
    this.panel.dispose();
  }
}

function describeEnd(plan: LoadPlan): string {
  if (plan.durationMs !== undefined) return vscode.l10n.t('for {0} s', plan.durationMs / 1000);
  return vscode.l10n.t('{0} calls', plan.requests ?? 0);
}

function pageBody(controller: ServerController, plan: LoadPlan): string {
  const tools = [...new Set(plan.calls.map((call) => call.tool))].map(escapeForDisplay).join(', ');
  const concurrency = plan.shape.kind === 'closed' ? plan.shape.concurrency : 0;
  const what = vscode.l10n.t(
    '{0}: {1}, {2} at once, {3}',
    escapeForDisplay(controller.name),
    tools,
    concurrency,
    describeEnd(plan),
  );
  const source = plan.source ? vscode.l10n.t('The calls of {0}', escapeForDisplay(plan.source)) : '';
  return `<h1>${escapeHtml(vscode.l10n.t('Load Test'))}</h1>
<p id="plan">${escapeHtml(what)}</p>
${source ? `<p class="muted">${escapeHtml(source)}</p>` : ''}
<div class="actions">
  <button id="cancel" type="button">${escapeHtml(vscode.l10n.t('Cancel'))}</button>
  <button id="open-report" type="button" class="secondary" hidden>${escapeHtml(vscode.l10n.t('Open Report'))}</button>
  <button id="save-report" type="button" class="secondary" hidden>${escapeHtml(vscode.l10n.t('Save Report…'))}</button>
</div>
<p id="status" role="status" aria-live="polite">${escapeHtml(vscode.l10n.t('Running…'))}</p>
<h2>${escapeHtml(vscode.l10n.t('Latency'))}</h2>
<div class="legend"><span class="key p50"></span>p50 <span class="key p99"></span>p99</div>
<svg id="latency-chart" class="chart" role="img" tabindex="0" aria-label="${escapeHtml(vscode.l10n.t('Latency over time'))}" viewBox="0 0 600 180" preserveAspectRatio="none"></svg>
<h2>${escapeHtml(vscode.l10n.t('Throughput'))}</h2>
<svg id="throughput-chart" class="chart" role="img" tabindex="0" aria-label="${escapeHtml(vscode.l10n.t('Throughput over time'))}" viewBox="0 0 600 140" preserveAspectRatio="none"></svg>
<pre id="summary" hidden></pre>`;
}

/** The page's words: the page has no l10n of its own. */
function pageLabels(): Record<string, string> {
  return {
    running: vscode.l10n.t('Running…'),
    live: vscode.l10n.t('{0} calls answered, {1} errors, {2} calls/s, p50 {3} ms, p99 {4} ms'),
    done: vscode.l10n.t('Finished. The report is saved in {0}.'),
    doneUnsaved: vscode.l10n.t('Finished.'),
    stopped: vscode.l10n.t('Stopped: the run was cancelled and its server process ended.'),
    failed: vscode.l10n.t('The load test failed: {0}'),
    cancelling: vscode.l10n.t('Stopping…'),
    ms: vscode.l10n.t('ms'),
    perSecond: vscode.l10n.t('calls/s'),
    seconds: vscode.l10n.t('s'),
  };
}
