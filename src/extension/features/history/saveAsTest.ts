import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HistoryEntry, HistoryLog } from '../../../workbench/history/historyLog';
import { MASK, maskText } from '../../../workbench/secrets';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import {
  MCPTEST_FORMAT_VERSION,
  serializeRecording,
  type RecordedServer,
  type RecordedStep,
} from '../../../workbench/recordings/format';
import { proposedTestPath, withTestSuffix } from '../../../workbench/recordings/testFile';
import { historyStep, splitAtLatestStart } from '../../../workbench/recordings/fromHistory';
import { cliTarget } from './historyCommands';
import type { HistoryNode } from './historyTreeProvider';
import { operationTitle, outcomeLabel } from './historyTreeProvider';
import type { ServerManager } from '../../platform/servers/serverManager';
import type { ServerStarts } from './serverStarts';
import { saveAsTestHooks } from './saveAsTestHooks';

export type { EarlierAnswersQuestion } from './saveAsTestHooks';

/**
 * History → Save as Test…: the chosen entries of one server become a `*.mcptest.json` recording, the same file
 * `mcp-workbench session --record` writes, which runs in Test Explorer and with `mcp-workbench test` in CI.
 * `preset` lets a caller (a script, a test) give the entries and the file instead of being asked.
 */
export async function saveHistoryAsTest(
  history: HistoryLog,
  manager: ServerManager,
  starts: ServerStarts,
  argument: unknown,
  preset?: { entryIds?: readonly number[]; file?: string },
): Promise<vscode.Uri | undefined> {
  const serverName = await chooseServer(history, argument);
  if (serverName === undefined) return undefined;
  const choices = history.of(serverName).reverse().map(historyStep);
  const usable = choices.filter((choice) => choice.kind === 'step');
  if (usable.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'No entry of {0} can be saved as a test: only tool calls, reads and prompts answered in full, and Events subscriptions whose events History kept, can.',
        serverName,
      ),
    );
    return undefined;
  }
  const picked = preset?.entryIds
    ? usable.filter((choice) => preset.entryIds?.includes(choice.entry.id))
    : (
        await vscode.window.showQuickPick(
          usable.map((choice) => ({
            label: operationTitle(choice.entry.operation),
            description: `${new Date(choice.entry.startedAt).toLocaleTimeString()} · ${outcomeLabel(choice.entry.outcome)}`,
            picked: true,
            choice,
          })),
          // ignoreFocusOut: the steps come all picked; a focus blip (a webview taking back the focus the palette gave up)
          // must not close the pick and drop the choice.
          {
            canPickMany: true,
            ignoreFocusOut: true,
            title: vscode.l10n.t('Save as Test: the steps of {0}', serverName),
            placeHolder: vscode.l10n.t('{0} of {1} entries can be replayed', usable.length, choices.length),
          },
        )
      )?.map((item) => item.choice);
  if (!picked || picked.length === 0) return undefined;
  const kept = await keepCurrentAnswers(manager, starts, serverName, picked);
  if (!kept) return undefined;
  const steps = kept.flatMap((choice) => (choice.kind === 'step' ? [choice.step] : []));
  const target = preset?.file ? vscode.Uri.file(preset.file) : await chooseTestFile(serverName, steps);
  if (!target) return undefined;
  const controller = manager.get(picked[0].entry.server.id) ?? manager.byName(serverName)[0];
  if (!controller) {
    void vscode.window.showErrorMessage(vscode.l10n.t('MCP server "{0}" is no longer configured.', serverName));
    return undefined;
  }
  const server = recordedServerOf(
    cliTarget(controller),
    serverName,
    path.dirname(target.fsPath),
    controller.knownSecrets(),
  );
  await vscode.workspace.fs.writeFile(
    target,
    new TextEncoder().encode(serializeRecording({ mcptest: MCPTEST_FORMAT_VERSION, server, steps })),
  );
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      'Saved {0} steps of {1} as a test: {2}',
      steps.length,
      serverName,
      vscode.workspace.asRelativePath(target),
    ),
  );
  return target;
}

/**
 * Answers recorded before the server last started came from another process, perhaps an earlier build (dev mode
 * restarts the server on every save), and a test made of them may fail against the server as it runs now for a
 * reason the person did not intend. Says so and lets them keep only the answers since, save all, or stop.
 */
async function keepCurrentAnswers<T extends { entry: HistoryEntry }>(
  manager: ServerManager,
  starts: ServerStarts,
  serverName: string,
  picked: readonly T[],
): Promise<readonly T[] | undefined> {
  const { earlier, since } = splitAtLatestStart(picked, (id) => starts.latestStart(id));
  if (earlier.length === 0) return picked;
  const controller = manager.get(picked[0].entry.server.id) ?? manager.byName(serverName)[0];
  const started = controller ? starts.latestStart(controller.id) : undefined;
  const devMode = controller?.entry.definition.dev !== undefined;
  const shownName = escapeForDisplay(serverName);
  const message = vscode.l10n.t(
    '{0} of the {1} chosen steps were answered before {2} last started.',
    earlier.length,
    picked.length,
    shownName,
  );
  const when =
    started === undefined
      ? vscode.l10n.t('{0} has not started in this window: those answers came from an earlier session.', shownName)
      : vscode.l10n.t(
          '{0} started again at {1}: those answers came from the process before it.',
          shownName,
          new Date(started).toLocaleTimeString(),
        );
  const detail = [
    when,
    devMode
      ? vscode.l10n.t(
          'Dev mode restarts it when its files change, so they may be answers of an earlier build, and the test would fail against the server as it is now.',
        )
      : vscode.l10n.t('If the server changed in between, the test would fail against it as it is now.'),
    since.length > 0
      ? vscode.l10n.t('Save only the {0} answered since, or call the others again and then save.', since.length)
      : vscode.l10n.t('Call them again and then save, or save them as they are.'),
  ].join('\n\n');
  const onlySince = vscode.l10n.t('Save Only the {0} Answered Since', since.length);
  const all = vscode.l10n.t('Save All {0}', picked.length);
  const buttons = since.length > 0 ? [onlySince, all] : [all];
  const answer = saveAsTestHooks.answerEarlierAnswers
    ? saveAsTestHooks.answerEarlierAnswers({ serverName: shownName, message, detail, buttons })
    : await vscode.window.showWarningMessage(message, { modal: true, detail }, ...buttons);
  if (answer === onlySince && since.length > 0) return since;
  return answer === all ? picked : undefined;
}

/**
 * One confirmation for the proposed `tests/<server>-<tool>.mcptest.json` of the workspace (a name not taken), or the
 * save dialog when the person wants another place (or no folder is open). The dialog filters on `json`: VS Code's own
 * dialog judges only the last extension, and with `mcptest.json` it doubled the suffix (see withTestSuffix).
 */
async function chooseTestFile(serverName: string, steps: readonly RecordedStep[]): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const chooseAnother = vscode.l10n.t('Choose Another Location…');
  let proposed: vscode.Uri | undefined;
  if (folder) {
    const relative = await proposedTestPath(serverName, steps, (candidate) =>
      exists(vscode.Uri.joinPath(folder, candidate)),
    );
    proposed = vscode.Uri.joinPath(folder, relative);
    const save = vscode.l10n.t('Save');
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t('Save the {0} chosen step(s) of {1} as a test?', steps.length, serverName),
      {
        modal: true,
        detail: vscode.l10n.t(
          'It will be written to {0}, where Test Explorer runs it (and `mcp-workbench test` in CI).',
          relative,
        ),
      },
      save,
      chooseAnother,
    );
    if (choice === save) return proposed;
    if (choice !== chooseAnother) return undefined;
  }
  const chosen = await vscode.window.showSaveDialog({
    defaultUri: proposed,
    filters: { [vscode.l10n.t('MCP recorded session')]: ['json'] },
    title: vscode.l10n.t('Save as Test'),
  });
  return chosen && chosen.with({ path: withTestSuffix(chosen.path) });
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

async function chooseServer(history: HistoryLog, argument: unknown): Promise<string | undefined> {
  const node = argument as Partial<HistoryNode> | undefined;
  if (node?.kind === 'server' && typeof node.serverName === 'string') return node.serverName;
  if (node?.kind === 'entry' && node.entry) return (node.entry as HistoryEntry).server.name;
  const names = history.serverNames();
  if (names.length <= 1) return names[0];
  return vscode.window.showQuickPick(names, {
    title: vscode.l10n.t('Save as Test: which server?'),
    ignoreFocusOut: true,
  });
}

/** The server as the recording names it (the same shapes `session --record` writes); env and header values masked. */
function recordedServerOf(
  target: ReturnType<typeof cliTarget>,
  name: string,
  folder: string,
  secrets: readonly string[],
): RecordedServer {
  const masked = (values: Readonly<Record<string, string | null>> | undefined): Record<string, string> | undefined =>
    values && Object.keys(values).length > 0
      ? Object.fromEntries(Object.keys(values).map((key) => [key, MASK]))
      : undefined;
  switch (target.kind) {
    case 'config':
      return {
        kind: 'config',
        config: path.relative(folder, target.configPath).split(path.sep).join('/'),
        server: target.serverName,
      };
    case 'stdio': {
      const env = masked(target.env);
      return {
        kind: 'stdio',
        name,
        command: maskText(target.command, secrets),
        args: target.args.map((arg) => maskText(arg, secrets)),
        ...(env ? { env } : {}),
        ...(target.cwd ? { cwd: target.cwd } : {}),
      };
    }
    case 'url': {
      const headers = masked(target.headers);
      return { kind: 'http', name, url: maskText(target.url, secrets), ...(headers ? { headers } : {}) };
    }
    default: {
      const exhaustive: never = target;
      return exhaustive;
    }
  }
}
