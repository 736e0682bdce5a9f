import * as vscode from 'vscode';
import { APPS_API, toolUi } from '../../../protocol/extensions/apps/toolUi';
import type { CallToolResult, Tool } from '../../../protocol/types';
import type { ServerController } from '../../platform/servers/serverController';
import type { AppPanel } from './appPanel';
import { appsEnabled } from '../../platform/apps/appsSetting';
import type { AppCall, AppsService } from '../../platform/services';
import { showError } from '../../platform/ui/coreErrors';
import type { HistoryRecording } from '../../../workbench/history/historyLog';

const NO_APP: AppCall = { answered: () => undefined, cancelled: () => undefined };

/** Draws the app of a called tool beside its result (and again in an editor tab on request). */
export class AppHost implements AppsService, vscode.Disposable {
  private readonly panels = new Set<AppPanel>();
  private readonly drawnEmitter = new vscode.EventEmitter<{ toolName: string }>();
  /** Fires when an app's frame loaded (tests and the UI benchmark wait on it). */
  readonly onDidDrawApp = this.drawnEmitter.event;

  /** `history`: where the apps' own tool calls are recorded (the platform's History recorder). */
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly history: HistoryRecording,
  ) {}

  /** Starts the app of a call that is starting: its document is read meanwhile; input goes first, then the result. */
  begin(controller: ServerController, tool: Tool, args: Record<string, unknown>): AppCall {
    const uri = toolUi(tool).resourceUri;
    const api = controller.client?.extension(APPS_API);
    if (!uri || !api || !appsEnabled()) return NO_APP;
    let last:
      { kind: 'answered'; result: CallToolResult; at: number } | { kind: 'cancelled'; reason: string } | undefined;
    // The call's panels already drawn hear the answer when it comes; one drawn later gets it on creation.
    const drawn = new Set<AppPanel>();
    // The call's copy in an editor tab, once asked for: asking again reveals it rather than drawing a second one
    // (kept as the promise, so a second click while the first is still reading the resource finds it too).
    let editorCopy: Promise<AppPanel | undefined> | undefined;
    const openInEditor = (): void => {
      if (!editorCopy) {
        editorCopy = open('fullscreen');
        void editorCopy.then((panel) => {
          if (!panel) editorCopy = undefined;
          else panel.panel.onDidDispose(() => (editorCopy = undefined));
        });
        return;
      }
      void editorCopy.then((panel) => panel?.panel.reveal(panel.panel.viewColumn, false));
    };
    const open = (mode: 'inline' | 'fullscreen'): Promise<AppPanel | undefined> =>
      // The panel's code (with the app session and its bridge) loads with the first app drawn, not with the extension.
      Promise.all([api.readUiResource(uri), import('./appPanel.js')]).then(
        ([resource, { AppPanel }]) => {
          const panel: AppPanel = new AppPanel({
            extensionUri: this.context.extensionUri,
            serverName: controller.name,
            tool,
            args,
            api,
            resource,
            mode,
            log: controller.log,
            hostVersion: String(this.context.extension.packageJSON.version ?? '0'),
            openInEditor,
            // The list as the server last sent it (the app's calls read it when made, so a refreshed list counts).
            toolOf: (name) => {
              const state = controller.state;
              return state.kind === 'running' ? state.tools.find((candidate) => candidate.name === name) : undefined;
            },
            history: { recording: this.history, server: { id: controller.id, name: controller.name } },
          });
          this.panels.add(panel);
          panel.onDidDraw(() => this.drawnEmitter.fire({ toolName: tool.name }));
          panel.panel.onDidDispose(() => {
            this.panels.delete(panel);
            drawn.delete(panel);
          });
          if (last?.kind === 'answered') panel.toolResult(last.result, last.at);
          else if (last?.kind === 'cancelled') panel.toolCancelled(last.reason);
          drawn.add(panel);
          return panel;
        },
        (error: unknown) => {
          void showError(error, {
            server: controller,
            severity: 'warning',
            words: (reason) => vscode.l10n.t('The app of {0} was not drawn: {1}', tool.name, reason),
            logAs: `The app of ${tool.name} was not drawn`,
          });
          return undefined;
        },
      );
    void open('inline');
    return {
      answered: (result) => {
        const at = Date.now();
        last = { kind: 'answered', result, at };
        for (const panel of drawn) panel.toolResult(result, at);
      },
      cancelled: (reason) => {
        last = { kind: 'cancelled', reason };
        for (const panel of drawn) panel.toolCancelled(reason);
      },
    };
  }

  /** History's Open Result: a kept result of a tool with an app is shown with its app again (when the server runs). */
  reopen(controller: ServerController, toolName: string, args: unknown, outcome: unknown): void {
    const state = controller.state;
    const tool = state.kind === 'running' ? state.tools.find((candidate) => candidate.name === toolName) : undefined;
    const result =
      typeof outcome === 'object' && outcome !== null ? (outcome as { result?: unknown }).result : undefined;
    if (!tool || typeof result !== 'object' || result === null || !Array.isArray((result as CallToolResult).content))
      return;
    this.begin(
      controller,
      tool,
      typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {},
    ).answered(result as CallToolResult);
  }

  dispose(): void {
    for (const panel of this.panels) panel.dispose();
    this.panels.clear();
    this.drawnEmitter.dispose();
  }
}
