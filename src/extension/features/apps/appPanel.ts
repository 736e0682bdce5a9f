import * as vscode from 'vscode';
import { sideColumn } from '../../platform/webviews/panelColumn';
import type { AppsApi, UiResource } from '../../../protocol/extensions/apps';
import type { CallToolResult, Tool } from '../../../protocol/types';
import { describeAppSecurity, VSCODE_GRANTABLE_PERMISSIONS } from '../../../workbench/apps/appCsp';
import { AppSession } from '../../../workbench/apps/appSession';
import {
  appTheme,
  safeStyleValue,
  switchTakesFocus,
  type AppDisplayMode,
  type EditorThemeKind,
  type HostSurroundings,
} from '../../../workbench/apps/hostContext';
import type { HistoryRecording, HistoryServer } from '../../../workbench/history/historyLog';
import { askAppToolCall, askOpenLink, downloadFiles, offerMessage } from './appConsent';
import { appPage } from './appPage';
import { webviewMedia } from '../../platform/webviews/webviewMedia';
import { showError } from '../../platform/ui/coreErrors';

/** How long closing waits for the app's answer to ui/resource-teardown. */
const TEARDOWN_TIMEOUT_MS = 3000;

interface AppPanelOptions {
  readonly extensionUri: vscode.Uri;
  readonly serverName: string;
  readonly tool: Tool;
  readonly args: Record<string, unknown>;
  readonly api: AppsApi;
  readonly resource: UiResource;
  readonly mode: 'inline' | 'fullscreen';
  readonly log: vscode.LogOutputChannel;
  readonly hostVersion: string;
  /** Where an inline app opens "in editor" (the same app in a tab of its own). */
  readonly openInEditor?: () => void;
  /** The server's tool of that name as last listed (a destructive one asks before the app may call it). */
  readonly toolOf: (name: string) => Tool | undefined;
  /** History, where the app's own tool calls are recorded, and the server they go to. */
  readonly history: { readonly recording: HistoryRecording; readonly server: HistoryServer };
}

const THEME_KINDS: readonly EditorThemeKind[] = ['light', 'dark', 'high-contrast', 'high-contrast-light'];

/**
 * One MCP App in a webview of its own (VS Code's approach: one webview per app): inline beside the result, or in
 * an editor tab (display mode fullscreen). Owns the app's session; closing with the page's button tears the app
 * down (awaited, bounded); closing the tab ends the session at once (the frame is gone).
 */
export class AppPanel implements vscode.Disposable {
  readonly panel: vscode.WebviewPanel;
  readonly session: AppSession;
  private readonly disposables: vscode.Disposable[] = [];
  private surroundings: HostSurroundings;
  private disposed = false;
  private readonly drawnEmitter = new vscode.EventEmitter<void>();
  /** Fires when the app's frame has loaded its document. */
  readonly onDidDraw = this.drawnEmitter.event;
  /**
   * When the call answered and when the app first told its size (its first laid-out frame): the gap between them is
   * logged once both are known (`npm run bench:ui` reads that line). The app may lay out before a slow call answers.
   * The editor copy is opened by the person later: its gap is from opening it.
   */
  private readonly drawTiming: { answeredAt?: number; firstSizeAt?: number; logged: boolean } = { logged: false };
  private readonly openedAt = Date.now();
  /** When the page last relayed a message of the app sent right after the person acted in it (see appHost.js). */
  private lastGestureAt: number | undefined;

  constructor(private readonly options: AppPanelOptions) {
    const { resource, tool, serverName } = options;
    const security = describeAppSecurity(resource.meta, VSCODE_GRANTABLE_PERMISSIONS);
    this.panel = vscode.window.createWebviewPanel(
      'mcpWorkbench.app',
      vscode.l10n.t('{0} (app)', tool.title ?? tool.name),
      options.mode === 'inline'
        ? // Beside its result: out of the group the form and result are in (the person is there), never a third column.
          { viewColumn: sideColumn('server'), preserveFocus: true }
        : { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      {
        enableScripts: true,
        retainContextWhenHidden: true,
        localResourceRoots: [webviewMedia(options.extensionUri, 'apps')],
      },
    );
    this.surroundings = {
      theme: appTheme(themeKind(vscode.window.activeColorTheme.kind)),
      styles: {},
      displayMode: options.mode,
      container: { width: 800, maxHeight: 4000 },
      locale: vscode.env.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    };
    this.session = new AppSession({
      serverName,
      tool,
      api: options.api,
      hostInfo: { name: 'mcp-workbench', version: options.hostVersion },
      surroundings: this.surroundings,
      toolOf: options.toolOf,
      history: {
        ...options.history,
        note: vscode.l10n.t('via the app of {0}', tool.name),
      },
      port: {
        post: (message) => void this.panel.webview.postMessage({ type: 'toApp', message }),
        openLink: (url) => askOpenLink(serverName, url),
        offerMessage: (content) => offerMessage(serverName, content),
        confirmToolCall: (call) => askAppToolCall(serverName, tool.name, call),
        downloadFiles: (items) => downloadFiles(options.api, items),
        requestDisplayMode: (mode) => this.switchMode(mode),
        sizeChanged: (size) => {
          this.drawTiming.firstSizeAt ??= Date.now();
          this.logDrawTiming();
          if (size.height !== undefined) void this.panel.webview.postMessage({ type: 'resize', height: size.height });
        },
        modelContextChanged: (context) => {
          const text = context.content
            .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
            .join('\n');
          const structured = context.structuredContent ? `\n${JSON.stringify(context.structuredContent, null, 2)}` : '';
          void this.panel.webview.postMessage({ type: 'context', text: `${text}${structured}`.slice(0, 20_000) });
        },
        log: (level, text) =>
          this.log(
            level === 'debug' || level === 'info' || level === 'notice' ? 'info' : 'warn',
            `app of ${tool.name}: ${text}`,
          ),
        teardownRequested: () => void this.close(),
        stopped: (reason) => {
          this.log('warn', reason);
          void this.panel.webview.postMessage({ type: 'stopped', reason });
          void showError(reason, { severity: 'warning', logged: true });
        },
      },
    });
    this.panel.webview.html = appPage({
      webview: this.panel.webview,
      extensionUri: options.extensionUri,
      serverName,
      toolName: tool.name,
      html: resource.html,
      csp: security.csp,
      permissions: security.permissions,
      mode: options.mode,
    });
    if (security.csp.refused.length > 0)
      this.log(
        'warn',
        `app of ${tool.name}: refused CSP entries ${security.csp.refused.map((refusal) => refusal.entry).join(', ')}`,
      );
    this.disposables.push(
      this.panel.webview.onDidReceiveMessage((message: unknown) => this.onPageMessage(message)),
      this.panel.onDidDispose(() => this.dispose()),
      this.drawnEmitter,
    );
    this.session.toolInput(options.args);
  }

  /** The call's result; `answeredAt` is when the call answered (earlier than now for a panel drawn after it). */
  toolResult(result: CallToolResult, answeredAt: number): void {
    this.drawTiming.answeredAt ??= answeredAt;
    this.logDrawTiming();
    this.session.toolResult(result);
  }

  private logDrawTiming(): void {
    const { answeredAt, firstSizeAt, logged } = this.drawTiming;
    if (logged || answeredAt === undefined || firstSizeAt === undefined) return;
    this.drawTiming.logged = true;
    if (this.options.mode === 'fullscreen') {
      this.log(
        'info',
        `app of ${this.options.tool.name} drawn (its first ui/notifications/size-changed) ${firstSizeAt - this.openedAt} ms after its editor tab opened (fullscreen)`,
      );
      return;
    }
    const gap = firstSizeAt - answeredAt;
    const when = gap >= 0 ? `${gap} ms after the call answered` : `${-gap} ms before the call answered`;
    this.log(
      'info',
      `app of ${this.options.tool.name} drawn (its first ui/notifications/size-changed) ${when} (${this.options.mode})`,
    );
  }

  toolCancelled(reason: string): void {
    this.session.toolCancelled(reason);
  }

  /** Tears the app down (waits for its answer, bounded), then closes its tab. */
  async close(): Promise<void> {
    if (this.disposed) return;
    const outcome = await this.session.teardown(TEARDOWN_TIMEOUT_MS);
    const name = this.options.tool.name;
    switch (outcome) {
      case 'answered':
        this.log('info', `app of ${name} answered ui/resource-teardown; closed`);
        break;
      case 'timed-out':
        this.log('warn', `app of ${name} did not answer ui/resource-teardown within ${TEARDOWN_TIMEOUT_MS} ms; closed`);
        break;
      case 'not-running':
        this.log('info', `app of ${name} had already ended; closed`);
        break;
      case 'closed':
        // The tab was closed while the app was still answering; dispose logged it.
        break;
      default: {
        const exhaustive: never = outcome;
        throw new Error(`unknown teardown outcome ${String(exhaustive)}`);
      }
    }
    this.panel.dispose();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    // Closed with its tab's X (or the window closing): the webview is already gone, and the app's frame with it, so
    // the app cannot be told (no ui/resource-teardown can reach it). Only the host side ends: its requests in flight
    // are cancelled at the server, a teardown still waiting stops waiting, and nothing more is posted.
    const wasRunning = !this.session.ended;
    const cancelled = this.session.close();
    if (wasRunning)
      this.log(
        'info',
        `app of ${this.options.tool.name}: its tab was closed, so the app was not told (its frame is gone); ${cancelled} request(s) in flight cancelled`,
      );
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    this.panel.dispose();
  }

  private log(level: 'info' | 'warn', text: string): void {
    this.options.log[level](`${this.options.serverName}: ${text}`);
  }

  private switchMode(mode: AppDisplayMode): AppDisplayMode {
    if (mode === 'pip') return this.surroundings.displayMode;
    this.surroundings = { ...this.surroundings, displayMode: mode };
    void this.panel.webview.postMessage({ type: 'mode', mode });
    // The app asks on its own: only right after the person acted in it may its tab take the focus; otherwise it is
    // shown without the focus, so a switch on a timer cannot raise it over the editor and swallow the person's typing.
    if (mode === 'fullscreen')
      this.panel.reveal(this.panel.viewColumn, !switchTakesFocus(this.lastGestureAt, Date.now()));
    return mode;
  }

  private onPageMessage(message: unknown): void {
    if (typeof message !== 'object' || message === null) return;
    const data = message as Record<string, unknown>;
    switch (data.type) {
      case 'fromApp':
        // The page says whether the app's frame held a fresh user activation and the focus when it relayed this.
        if (data.gesture === true) this.lastGestureAt = Date.now();
        return this.session.receive(data.message);
      case 'dropped':
        return this.session.receive(undefined);
      case 'flooded':
        this.log('warn', `app of ${this.options.tool.name} sent too many messages and was stopped`);
        this.session.close();
        return;
      case 'loaded':
        return this.drawnEmitter.fire();
      case 'surroundings':
        return this.onSurroundings(data);
      case 'action':
        if (data.action === 'close') void this.close();
        else if (data.action === 'openInEditor') this.options.openInEditor?.();
        return;
      default:
        return;
    }
  }

  private onSurroundings(data: Record<string, unknown>): void {
    const kind = THEME_KINDS.includes(data.theme as EditorThemeKind) ? (data.theme as EditorThemeKind) : 'dark';
    const styles: Record<string, string> = {};
    if (typeof data.styles === 'object' && data.styles !== null) {
      for (const [name, value] of Object.entries(data.styles)) {
        const safe = safeStyleValue(value);
        if (safe !== undefined && name.startsWith('--')) styles[name] = safe;
      }
    }
    const width =
      typeof data.width === 'number' && data.width > 0 ? Math.round(data.width) : this.surroundings.container.width;
    const height =
      typeof data.height === 'number' && data.height > 0
        ? Math.round(data.height)
        : this.surroundings.container.maxHeight;
    this.surroundings = {
      ...this.surroundings,
      theme: appTheme(kind),
      styles,
      container: { width, maxHeight: height },
    };
    this.session.updateSurroundings(this.surroundings);
  }
}

function themeKind(kind: vscode.ColorThemeKind): EditorThemeKind {
  switch (kind) {
    case vscode.ColorThemeKind.Light:
      return 'light';
    case vscode.ColorThemeKind.HighContrast:
      return 'high-contrast';
    case vscode.ColorThemeKind.HighContrastLight:
      return 'high-contrast-light';
    default:
      return 'dark';
  }
}
