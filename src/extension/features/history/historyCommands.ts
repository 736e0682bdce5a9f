import * as vscode from 'vscode';
import type { JsonObject, Tool } from '../../../protocol/types';
import { cliCommand, shellQuote, type CliTarget } from '../../../workbench/history/cliCommand';
import { asConversationRecord, conversationMarkdown } from '../../../workbench/evals/conversation';
import type { HistoryEntry, HistoryLog } from '../../../workbench/history/historyLog';
import type { ServerEntry } from '../../platform/config/serverEntry';
import type { ServerController } from '../../platform/servers/serverController';
import type { ServerManager } from '../../platform/servers/serverManager';
import { ServerState } from '../../platform/servers/serverState';
import { startWithFeedback } from '../../platform/servers/startServer';
import { showError } from '../../platform/ui/coreErrors';
import type { HistoryNode } from './historyTreeProvider';
import { kindLabel, operationArguments, operationTitle, outcomeLabel } from './historyTreeProvider';

/**
 * What History's commands work with. The features that show results and open forms sit beside this one, so the
 * composition root hands their entry points in.
 */
export interface HistoryContext {
  history: HistoryLog;
  manager: ServerManager;
  /** Shows a kept tool result in the tool's result tab (the call's CallToolOutcome as the history holds it). */
  showToolResult(
    controller: ServerController,
    entry: HistoryEntry & { operation: { kind: 'tool' } },
    outcome: unknown,
  ): void;
  /** Opens the tool's Call form prefilled with `values`. */
  openToolForm(controller: ServerController, tool: Tool, values: JsonObject): void;
  /** Read-only Markdown documents (`mcp-result:`). */
  documents: { show(title: string, markdown: string): Thenable<vscode.TextEditor> };
  /** The CLI as a shell command prefix, e.g. `node '/path/to/extension/dist/cli.js'`. */
  cliProgram: string;
  /** Shows a kept result of a tool with an MCP App with its app again (features/apps, when it is there). */
  reopenApp(controller: ServerController, toolName: string, args: unknown, outcome: unknown): void;
}

function entryOf(argument: unknown, history: HistoryLog): HistoryEntry | undefined {
  if (typeof argument !== 'object' || argument === null) return undefined;
  const node = argument as Partial<HistoryNode>;
  if (node.kind === 'entry' && node.entry) return node.entry;
  if ('id' in argument && typeof argument.id === 'number') return history.get(argument.id);
  return undefined;
}

/** The entry's server if it is still configured: the same controller, else one with the same name. */
function serverOf(manager: ServerManager, entry: HistoryEntry): ServerController | undefined {
  return manager.get(entry.server.id) ?? manager.byName(entry.server.name)[0];
}

/** Open Result: a kept tool result in its result tab; everything else as a read-only Markdown document. */
export async function openHistoryEntry(context: HistoryContext, argument: unknown): Promise<void> {
  const entry = entryOf(argument, context.history);
  if (!entry) return;
  const controller = serverOf(context.manager, entry);
  if (entry.operation.kind === 'tool' && entry.result.kind === 'kept' && controller) {
    context.showToolResult(controller, entry as HistoryEntry & { operation: { kind: 'tool' } }, entry.result.value);
    context.reopenApp(controller, entry.operation.toolName, entry.operation.arguments, entry.result.value);
    return;
  }
  const conversation = entry.result.kind === 'kept' ? asConversationRecord(entry.result.value) : undefined;
  if (entry.operation.kind === 'conversation' && conversation) {
    // History masked it when it was recorded; the servers' current secrets are masked again.
    const secrets = entry.operation.servers.flatMap((name) =>
      context.manager.byName(name).flatMap((server) => server.knownSecrets()),
    );
    await context.documents.show(operationTitle(entry.operation), conversationMarkdown(conversation, secrets));
    return;
  }
  await context.documents.show(`${operationTitle(entry.operation)} · ${entry.server.name}`, entryMarkdown(entry));
}

/**
 * Re-run: a tool call opens the tool's form with the same arguments (the person checks them and presses Call);
 * a resource is read again; a prompt is got again with the same arguments. The server is started if it is not
 * running.
 */
export async function rerunHistoryEntry(context: HistoryContext, argument: unknown): Promise<void> {
  const entry = entryOf(argument, context.history);
  if (!entry) return;
  const { operation } = entry;
  if (operation.kind === 'sampling' || operation.kind === 'elicitation') {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('A {0} comes from the server; it cannot be re-run from here.', kindLabel(operation)),
    );
    return;
  }
  if (operation.kind === 'events') {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('A subscription is not re-run from History: use Subscribe… on the event under its server.'),
    );
    return;
  }
  if (operation.kind === 'conversation') {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('A conversation is not re-run from History: run Try with a Model on its servers.'),
    );
    return;
  }
  const controller = serverOf(context.manager, entry);
  if (!controller) {
    void vscode.window.showErrorMessage(vscode.l10n.t('MCP server "{0}" is no longer configured.', entry.server.name));
    return;
  }
  if (!ServerState.isRunning(controller.state) && !(await startWithFeedback(controller))) return;
  switch (operation.kind) {
    case 'tool': {
      const state = controller.state;
      const tool = ServerState.isRunning(state)
        ? state.tools.find((candidate) => candidate.name === operation.toolName)
        : undefined;
      if (!tool) {
        void vscode.window.showErrorMessage(
          vscode.l10n.t('MCP server "{0}" no longer offers the tool {1}.', controller.name, operation.toolName),
        );
        return;
      }
      context.openToolForm(controller, tool, operation.arguments as JsonObject);
      return;
    }
    case 'resource':
      await vscode.commands.executeCommand('mcpWorkbench.readResource', { controller, uri: operation.uri });
      return;
    case 'prompt':
      await vscode.commands.executeCommand('mcpWorkbench.getPrompt', {
        controller,
        prompt: { name: operation.promptName },
        arguments: operation.arguments,
      });
      return;
    default: {
      const exhaustive: never = operation;
      return exhaustive;
    }
  }
}

/** Copy as CLI Command: the `node dist/cli.js …` line that repeats the entry (arguments masked as in History). */
export async function copyHistoryCliCommand(context: HistoryContext, argument: unknown): Promise<string | undefined> {
  const entry = entryOf(argument, context.history);
  if (!entry) return undefined;
  const controller = serverOf(context.manager, entry);
  if (!controller) {
    void vscode.window.showErrorMessage(vscode.l10n.t('MCP server "{0}" is no longer configured.', entry.server.name));
    return undefined;
  }
  const command = cliCommand(entry.operation, cliTarget(controller), context.cliProgram);
  if (!command) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('A {0} comes from the server; the CLI cannot repeat it.', kindLabel(entry.operation)),
    );
    return undefined;
  }
  // Not awaited: in a browser-hosted VS Code the clipboard write can wait on a permission that never comes.
  void vscode.env.clipboard.writeText(command).then(
    () => vscode.window.setStatusBarMessage(vscode.l10n.t('Copied the CLI command'), 3000),
    (error: unknown) =>
      void showError(error, {
        server: controller,
        words: (reason) => vscode.l10n.t('Could not copy the CLI command: {0}', reason),
        logAs: 'Could not copy the CLI command',
      }),
  );
  return command;
}

/** Clear History: every entry, or one server's when run on its row. */
export function clearHistory(context: HistoryContext, argument: unknown): void {
  const serverName =
    typeof argument === 'object' && argument !== null && (argument as Partial<HistoryNode>).kind === 'server'
      ? (argument as HistoryNode & { kind: 'server' }).serverName
      : undefined;
  context.history.clear(serverName);
}

/**
 * A workspace mcp.json is passed as is (with a placeholder for each `${input:…}` its server uses); user-settings
 * servers (settings.json is not an mcp.json) by their command line and env, or their URL and headers.
 */
export function cliTarget(controller: ServerController): CliTarget {
  const { entry } = controller;
  const definition = entry.definition;
  if (entry.origin.scope === 'workspace' && entry.origin.configUri.scheme === 'file') {
    return {
      kind: 'config',
      configPath: entry.origin.configUri.fsPath,
      serverName: entry.name,
      inputIds: inputIdsOf(definition),
    };
  }
  switch (definition.kind) {
    case 'stdio':
      return {
        kind: 'stdio',
        command: definition.command,
        args: definition.args,
        env: definition.env,
        ...(definition.cwd ? { cwd: definition.cwd } : {}),
      };
    case 'http':
      return { kind: 'url', url: definition.url, headers: definition.headers };
    default: {
      const exhaustive: never = definition;
      return exhaustive;
    }
  }
}

/** The ids of the `${input:…}` variables a definition uses, in order of first use. */
function inputIdsOf(definition: ServerEntry['definition']): string[] {
  return [...new Set(Array.from(JSON.stringify(definition).matchAll(/\$\{input:([^}]+)\}/g), (match) => match[1]))];
}

export function cliProgram(extensionUri: vscode.Uri): string {
  return `node ${shellQuote(vscode.Uri.joinPath(extensionUri, 'dist', 'cli.js').fsPath)}`;
}

/** An entry as Markdown: what was done, when, how it ended, and the kept result (or why it was not kept). */
function entryMarkdown(entry: HistoryEntry): string {
  const lines = [`# ${operationTitle(entry.operation)} · ${entry.server.name}`, ''];
  lines.push(`- ${vscode.l10n.t('Kind')}: ${kindLabel(entry.operation)}`);
  lines.push(`- ${vscode.l10n.t('Time')}: ${new Date(entry.startedAt).toLocaleString()}`);
  if (entry.durationMs !== undefined)
    lines.push(`- ${vscode.l10n.t('Duration')}: ${vscode.l10n.t('{0} ms', entry.durationMs)}`);
  lines.push(`- ${vscode.l10n.t('Outcome')}: ${outcomeLabel(entry.outcome)}`, '');
  const args = operationArguments(entry.operation);
  if (args !== undefined)
    lines.push(`## ${vscode.l10n.t('Arguments')}`, '', fence(JSON.stringify(args, null, 2), 'json'), '');
  if (entry.operation.kind === 'sampling')
    lines.push(`## ${vscode.l10n.t('Request')}`, '', fence(entry.operation.request, 'text'), '');
  if (entry.operation.kind === 'elicitation')
    lines.push(`## ${vscode.l10n.t('Message')}`, '', fence(entry.operation.message, 'text'), '');
  const { result } = entry;
  switch (result.kind) {
    case 'none':
      break;
    case 'kept':
      lines.push(`## ${vscode.l10n.t('Result')}`, '', fence(JSON.stringify(result.value, null, 2), 'json'), '');
      break;
    case 'truncated':
      lines.push(`## ${vscode.l10n.t('Result')}`, '');
      lines.push(
        `> ${vscode.l10n.t('Truncated: the first {0} of {1} characters are kept in the history.', result.text.length, result.originalChars)}`,
        '',
      );
      lines.push(fence(result.text, 'json'), '');
      break;
    case 'dropped':
      lines.push(`## ${vscode.l10n.t('Result')}`, '');
      lines.push(
        `> ${vscode.l10n.t('Not kept: the result ({0} characters) gave way to newer ones to keep the history within its memory bound.', result.originalChars)}`,
        '',
      );
      break;
    default: {
      const exhaustive: never = result;
      return exhaustive;
    }
  }
  return lines.join('\n');
}

function fence(text: string, language: string): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  const marker = '`'.repeat(longest + 1);
  return `${marker}${language}\n${text}\n${marker}`;
}
