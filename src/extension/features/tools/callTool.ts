import * as vscode from 'vscode';
import type { CallToolOutcome } from '../../../protocol/client';
import { errorMessage, isLocalError } from '../../../protocol/errors';
import type { JsonObject, Tool } from '../../../protocol/types';
import { loadSchemaValidator, schemaValidator } from '../../platform/shared/schemaValidator';
import type { HistoryOutcome, HistoryRecording } from '../../../workbench/history/historyLog';
import type { ServerController } from '../../platform/servers/serverController';
import { sayError, showError } from '../../platform/ui/coreErrors';
import { argumentSkeleton, checkArguments, type ArgumentLabels } from './toolArguments';
import type { ToolCallRecord } from './toolResultMarkdown';
import type { PreparedCall } from './toolResultView';
import type { ServerManager } from '../../platform/servers/serverManager';
import { runningServer } from '../../platform/servers/serverPicker';
import { ServerState } from '../../platform/servers/serverState';
import type { AppsService } from '../../platform/services';
import { personVisibleTools } from '../../platform/apps/appsSetting';
import type { AskingSignal } from '../../platform/ui/delayedProgress';
import { callProgressNotification } from '../../platform/ui/progressNotification';

/** How a call is shown and how the form is opened; the browse services supply both. */
export interface ToolCallUi {
  openForm(controller: ServerController, tool: Tool): void;
  /** Puts the tool's result tab on screen before the call starts, so its page listens by the answer. */
  prepareCall(controller: ServerController, toolName: string): PreparedCall;
  /** Where every call is recorded (the History view). */
  history: HistoryRecording;
  /** Draws a called tool's app (features/apps), when that feature is there. */
  apps(): AppsService | undefined;
}

/** MCP Workbench: Call Tool… — pick a server (started on demand) and a tool, fill the form generated from its input schema. */
export async function callTool(manager: ServerManager, ui: ToolCallUi, argument: unknown): Promise<void> {
  const target = await resolveTool(manager, argument);
  if (target) ui.openForm(target.controller, target.tool);
}

/** MCP Workbench: Call Tool with JSON Arguments… — the same with one JSON input box (quick for keyboard users and scripts). */
export async function callToolJson(manager: ServerManager, ui: ToolCallUi, argument: unknown): Promise<void> {
  const target = await resolveTool(manager, argument);
  if (!target) return;
  const prepared = ui.prepareCall(target.controller, target.tool.name);
  const args = await askArguments(target.controller, target.tool);
  if (!args) {
    prepared.abandon();
    return;
  }
  const abort = new AbortController();
  const screen = prepared.begin(() => abort.abort());
  const attempt = await callToolWithProgress(target.controller, target.tool, args, ui.history, {
    signal: abort.signal,
    onProgress: (text) => screen.progress(text),
    apps: ui.apps(),
  });
  screen.settle(attempt);
}

async function resolveTool(
  manager: ServerManager,
  argument: unknown,
): Promise<{ controller: ServerController; tool: Tool } | undefined> {
  const controller = await runningServer(manager, argument, vscode.l10n.t('Select the MCP server whose tool to call'));
  if (!controller) return undefined;
  const preselected =
    typeof argument === 'object' && argument !== null && 'tool' in argument ? (argument.tool as Tool) : undefined;
  const tool = preselected ?? (await pickTool(controller));
  return tool ? { controller, tool } : undefined;
}

async function pickTool(controller: ServerController): Promise<Tool | undefined> {
  const state = controller.state;
  const tools = ServerState.isRunning(state) ? personVisibleTools(state.tools) : [];
  if (tools.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('MCP server "{0}" offers no tools.', controller.name));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    tools.map((tool) => ({
      label: tool.name,
      description: tool.title ?? tool.annotations?.title,
      detail: tool.description?.split('\n', 1)[0],
      tool,
    })),
    {
      placeHolder: vscode.l10n.t('Select the tool of {0} to call', controller.name),
      matchOnDescription: true,
      matchOnDetail: true,
      ignoreFocusOut: true,
    },
  );
  return picked?.tool;
}

async function askArguments(controller: ServerController, tool: Tool): Promise<JsonObject | undefined> {
  const labels: ArgumentLabels = {
    notJson: (reason) => vscode.l10n.t('Not valid JSON: {0}', reason),
    notObject: vscode.l10n.t('Arguments must be a JSON object, like {0}', '{"name": "value"}'),
    invalid: (errors) => vscode.l10n.t('Does not match the input schema: {0}', errors),
    unchecked: (reason) => vscode.l10n.t('The input schema could not be checked: {0}', reason),
  };
  // validateInput checks each keystroke synchronously: the validator is loaded before the box opens.
  await loadSchemaValidator();
  const text = await vscode.window.showInputBox({
    title: vscode.l10n.t('Arguments for {0} ({1})', tool.name, controller.name),
    prompt: vscode.l10n.t("A JSON object, checked against the tool's input schema. Press Enter to call the tool."),
    value: argumentSkeleton(tool.inputSchema),
    ignoreFocusOut: true,
    validateInput: (value) => {
      const check = checkArguments(value, tool.inputSchema, schemaValidator(), labels);
      if (check.kind === 'error') return { message: check.message, severity: vscode.InputBoxValidationSeverity.Error };
      if (check.warning) return { message: check.warning, severity: vscode.InputBoxValidationSeverity.Warning };
      return undefined;
    },
  });
  if (text === undefined) return undefined;
  const check = checkArguments(text, tool.inputSchema, schemaValidator(), labels);
  return check.kind === 'ok' ? check.value : undefined;
}

/** How a call ended: answered (a result, possibly a tool error), cancelled by the person, or failed (already reported). */
export type CallAttempt =
  { kind: 'answered'; record: ToolCallRecord } | { kind: 'cancelled' } | { kind: 'failed'; message: string };

/** What the page that started the call adds: its own Cancel button, and a place to show progress. */
interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (text: string) => void;
  /** The form's "Run as task" (tools whose task support is optional); undefined: the setting decides. */
  runAsTask?: boolean;
  /** Draws the tool's app beside its result, if it has one. */
  apps?: AppsService;
  /** While this asks the person (the platform's review panel), the progress notification is not shown. */
  quiet?: AskingSignal;
}

/** Calls the tool with progress and Cancel (the page's own, else a notification's); a failure or a cancel is reported here. */
export async function callToolWithProgress(
  controller: ServerController,
  tool: Tool,
  args: JsonObject,
  history: HistoryRecording,
  options: CallOptions = {},
): Promise<CallAttempt> {
  const started = Date.now();
  const record = (outcome: HistoryOutcome, result?: CallToolOutcome): void => {
    history.record({
      server: { id: controller.id, name: controller.name },
      startedAt: started,
      durationMs: Date.now() - started,
      operation: { kind: 'tool', toolName: tool.name, arguments: args },
      outcome,
      result,
    });
  };
  // A tool with an MCP App: its app is drawn beside the result, hearing the input now and the answer later.
  const app = options.apps?.begin(controller, tool, args);
  // One progress UI per call: a page that shows the call's progress and has its own Cancel (the form, the result tab)
  // is that UI; only a call without one gets the cancellable progress notification, and only once it takes a while.
  // Cancel aborts the request; the core then sends notifications/cancelled to the server.
  const abort = new AbortController();
  const onPageCancel = () => abort.abort();
  if (options.signal?.aborted) abort.abort();
  options.signal?.addEventListener('abort', onPageCancel, { once: true });
  const notification = options.onProgress
    ? undefined
    : callProgressNotification(
        vscode.l10n.t('Calling {0} on {1}', tool.name, controller.name),
        () => abort.abort(),
        options.quiet,
      );
  let reported = 0;
  let outcome: CallToolOutcome;
  try {
    outcome = await controller
      .callTool(tool.name, args, {
        signal: abort.signal,
        runAsTask: options.runAsTask,
        onProgress: (update) => {
          const message =
            update.message ?? (update.total ? `${update.progress}/${update.total}` : String(update.progress));
          options.onProgress?.(message);
          if (!notification) return;
          if (update.total && update.total > 0) {
            const percent = Math.min(100, (update.progress / update.total) * 100);
            notification.report({ message, increment: Math.max(0, percent - reported) });
            reported = Math.max(reported, percent);
          } else {
            notification.report({ message });
          }
        },
      })
      .finally(() => {
        notification?.done();
        options.signal?.removeEventListener('abort', onPageCancel);
      });
  } catch (error) {
    if (isLocalError(error, 'cancelled')) {
      controller.log.info(`Call of ${tool.name} cancelled by the user`);
      record({ kind: 'cancelled' });
      app?.cancelled('cancelled by the user');
      void vscode.window.showInformationMessage(vscode.l10n.t('The call of {0} was cancelled.', tool.name));
      return { kind: 'cancelled' };
    }
    record({ kind: 'failed', message: errorMessage(error) });
    app?.cancelled(`the call failed: ${errorMessage(error)}`);
    void showError(error, {
      server: controller,
      words: (reason) => vscode.l10n.t('Calling {0} failed: {1}', tool.name, reason),
      logAs: `Call of ${tool.name} failed`,
      showLog: true,
    });
    return { kind: 'failed', message: sayError(error, controller) };
  }
  const durationMs = Date.now() - started;
  controller.log.info(
    `Called ${tool.name} in ${durationMs} ms${outcome.result.isError ? ' (the tool reported an error)' : ''}`,
  );
  record({ kind: outcome.result.isError ? 'tool-error' : 'succeeded' }, outcome);
  app?.answered(outcome.result);
  return { kind: 'answered', record: { serverName: controller.name, toolName: tool.name, args, outcome, durationMs } };
}
