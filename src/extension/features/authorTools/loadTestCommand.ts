import * as vscode from 'vscode';
import type { McpClient } from '../../../protocol/client';
import type { Tool } from '../../../protocol/types';
import { loadCallsFromRecording } from '../../../workbench/load/loadMix';
import type { LoadCall } from '../../../workbench/load/loadRun';
import { MCPTEST_SUFFIX, parseRecording } from '../../../workbench/recordings/format';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import type { Platform } from '../../platform/platform';
import type { ServerController } from '../../platform/servers/serverController';
import { isServerNode, resolveServer } from '../../platform/servers/serverPicker';
import { checkCommand } from '../../platform/shared/commandCheck';
import { showError } from '../../platform/ui/coreErrors';
import { MAX_CONCURRENCY, parseArgsObject, parseEnd, wholeNumber } from './loadInputs';
import { LoadTestPanel, type LoadPlan } from './loadTestPanel';
import { mayRunOwnCopy, ownClient, resolveEntry } from './ownServer';

/** The recording a Load Test… on a `*.mcptest.json` sends: its tool calls, and the server it names. */
interface RecordedMix {
  file: string;
  calls: LoadCall[];
  serverName: string | undefined;
}

/**
 * Load Test… (issue 40): on a server row, from the palette, or on a `*.mcptest.json` (its tool calls are the mix). The
 * server is always one the person picks (a recording only puts the server it names first in the list): the file
 * chooses no server and runs no command line of its own. The run gets its own copy of the server (trust and the
 * first-start consent as for the row), asks for the tool and arguments, the concurrency and the length, then runs in
 * a panel with a live chart; the panel's Cancel, or closing it, stops the run and the copy at once.
 */
export class LoadTestCommand {
  /** The panels open now (test hooks). */
  readonly panels = new Set<LoadTestPanel>();

  constructor(
    private readonly platform: Platform,
    private readonly extensionUri: vscode.Uri,
    private readonly reportsFolder: vscode.Uri,
  ) {}

  async run(argument: unknown): Promise<LoadTestPanel | undefined> {
    const recording = argument instanceof vscode.Uri ? await this.readRecording(argument) : undefined;
    if (argument instanceof vscode.Uri && !recording) return undefined;
    const controller = isServerNode(argument)
      ? argument.controller
      : await resolveServer(this.platform.manager, undefined, {
          placeHolder: recording
            ? vscode.l10n.t(
                'Send the {0} tool calls of {1} to which server?',
                recording.calls.length,
                escapeForDisplay(recording.file),
              )
            : vscode.l10n.t('Load test which server?'),
          prefer: (server) => recording?.serverName === undefined || server.name === recording.serverName,
        });
    if (!controller) return undefined;
    if (!(await mayRunOwnCopy(this.platform, controller))) return undefined;
    const started = await this.startCopy(controller);
    if (!started) return undefined;
    const { client, tools } = started;
    let handedOver = false;
    try {
      const calls = recording
        ? this.checkRecordedTools(controller, recording, tools)
        : await askCall(controller, tools);
      if (!calls) return undefined;
      const concurrency = await askConcurrency();
      if (concurrency === undefined) return undefined;
      const end = await askEnd();
      if (!end) return undefined;
      const plan: LoadPlan = {
        calls,
        shape: { kind: 'closed', concurrency },
        ...end,
        source: recording?.file,
      };
      const panel = LoadTestPanel.open(this.extensionUri, this.reportsFolder, controller, client, plan);
      handedOver = true;
      this.panels.add(panel);
      panel.onDidDispose(() => this.panels.delete(panel));
      panel.start();
      return panel;
    } finally {
      if (!handedOver) await client.close().catch(() => undefined);
    }
  }

  private async readRecording(uri: vscode.Uri): Promise<RecordedMix | undefined> {
    const file = vscode.workspace.asRelativePath(uri, false);
    try {
      if (!uri.path.endsWith(MCPTEST_SUFFIX)) throw new Error(vscode.l10n.t('{0} is not a *.mcptest.json file', file));
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      const { recording } = parseRecording(text, file);
      const calls = loadCallsFromRecording(recording);
      if (calls.length === 0) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('{0} records no tool call to send.', escapeForDisplay(file)),
        );
        return undefined;
      }
      const server = recording.server;
      return { file, calls, serverName: server.kind === 'config' ? server.server : server.name };
    } catch (error) {
      void showError(error, { words: (reason) => vscode.l10n.t('Cannot load test {0}: {1}', file, reason) });
      return undefined;
    }
  }

  /** The load run's own client, connected, and its tools; undefined when it failed (said) or was cancelled. */
  private async startCopy(controller: ServerController): Promise<{ client: McpClient; tools: Tool[] } | undefined> {
    let client: McpClient | undefined;
    let cancelledByPerson = false;
    let started: { client: McpClient; tools: Tool[] } | undefined;
    try {
      started = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Starting {0} for the load test…', escapeForDisplay(controller.name)),
          cancellable: true,
        },
        async (_progress, token) => {
          const stop = new AbortController();
          const cancelled = token.onCancellationRequested(() => {
            cancelledByPerson = true;
            stop.abort();
            void client?.close().catch(() => undefined);
          });
          try {
            const { resolved } = await resolveEntry(this.platform, controller.entry);
            const launch = await checkCommand(resolved);
            if (token.isCancellationRequested) return undefined;
            client = await ownClient(this.platform, controller.entry, resolved, launch, stop.signal);
            await client.connect();
            const tools = await client.listTools();
            return token.isCancellationRequested ? undefined : { client, tools };
          } finally {
            cancelled.dispose();
          }
        },
      );
    } catch (error) {
      if (!cancelledByPerson)
        void showError(error, {
          server: controller,
          words: (reason) => vscode.l10n.t('The load test could not start {0}: {1}', controller.name, reason),
        });
    }
    // A start that hands no client over (failed or cancelled) leaves nothing running.
    if (!started) await (client as McpClient | undefined)?.close().catch(() => undefined);
    return started;
  }

  /** Every tool of the recording must be one the server lists: a typo would otherwise be thousands of equal errors. */
  private checkRecordedTools(
    controller: ServerController,
    recording: RecordedMix,
    tools: Tool[],
  ): LoadCall[] | undefined {
    const listed = new Set(tools.map((tool) => tool.name));
    const missing = [...new Set(recording.calls.map((call) => call.tool))].filter((name) => !listed.has(name));
    if (missing.length === 0) return recording.calls;
    void controller.notify(
      'warning',
      vscode.l10n.t(
        '{0} has no tool {1}, which {2} calls.',
        escapeForDisplay(controller.name),
        missing.map((name) => `"${escapeForDisplay(name)}"`).join(', '),
        escapeForDisplay(recording.file),
      ),
    );
    return undefined;
  }
}

async function askCall(controller: ServerController, tools: readonly Tool[]): Promise<LoadCall[] | undefined> {
  if (tools.length === 0) {
    void controller.notify('info', vscode.l10n.t('{0} lists no tool to load test.', escapeForDisplay(controller.name)));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    tools.map((tool) => ({
      label: escapeForDisplay(tool.name),
      detail: tool.description ? escapeForDisplay(tool.description.split('\n', 1)[0] ?? '') : undefined,
      tool,
    })),
    {
      placeHolder: vscode.l10n.t('Load test which tool of {0}?', escapeForDisplay(controller.name)),
      matchOnDetail: true,
      ignoreFocusOut: true,
    },
  );
  if (!picked) return undefined;
  const text = await vscode.window.showInputBox({
    title: vscode.l10n.t('Load Test: the arguments of {0}', escapeForDisplay(picked.tool.name)),
    prompt: vscode.l10n.t('The arguments every call sends, as a JSON object'),
    value: '{}',
    ignoreFocusOut: true,
    validateInput: (value) =>
      parseArgsObject(value) === undefined ? vscode.l10n.t('Enter a JSON object, e.g. {}') : null,
  });
  const args = text === undefined ? undefined : parseArgsObject(text);
  return args === undefined ? undefined : [{ tool: picked.tool.name, args }];
}

async function askConcurrency(): Promise<number | undefined> {
  const text = await vscode.window.showInputBox({
    title: vscode.l10n.t('Load Test: concurrency'),
    prompt: vscode.l10n.t('How many calls wait for their answer at once (1 to {0})', MAX_CONCURRENCY),
    value: '4',
    ignoreFocusOut: true,
    validateInput: (value) =>
      wholeNumber(value, MAX_CONCURRENCY) === undefined
        ? vscode.l10n.t('Enter a whole number from 1 to {0}', MAX_CONCURRENCY)
        : null,
  });
  return text === undefined ? undefined : wholeNumber(text, MAX_CONCURRENCY);
}

async function askEnd(): Promise<{ durationMs: number } | { requests: number } | undefined> {
  const text = await vscode.window.showInputBox({
    title: vscode.l10n.t('Load Test: how long'),
    prompt: vscode.l10n.t('A duration in seconds (e.g. 10s) or a number of calls (e.g. 500)'),
    value: '10s',
    ignoreFocusOut: true,
    validateInput: (value) =>
      parseEnd(value) === undefined
        ? vscode.l10n.t('Enter seconds such as 10s, or a number of calls such as 500')
        : null,
  });
  return text === undefined ? undefined : parseEnd(text);
}
