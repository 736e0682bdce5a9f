import * as vscode from 'vscode';
import {
  asConversationRecord,
  conversationJson,
  conversationMarkdown,
  type ConversationRecord,
} from '../../../workbench/evals/conversation';
import type { HistoryLog } from '../../../workbench/history/historyLog';
import type { ServerManager } from '../../platform/servers/serverManager';
import { showError } from '../../platform/ui/coreErrors';
import type { HistoryNode } from './historyTreeProvider';

/**
 * Export Conversation…: a playground conversation (from its History row, or from the panel, which passes its live
 * record) written as Markdown or JSON to the file the person picks. Masked with every configured secret of its
 * servers and every stored model key, on top of History's masking: a model may have echoed a key it was sent.
 * `preset.file` (a script, a test) gives the file instead of asking; its extension picks the format.
 */
export async function exportConversation(
  history: HistoryLog,
  manager: ServerManager,
  modelKeys: () => Promise<string[]>,
  argument: unknown,
  preset?: { file?: string },
): Promise<vscode.Uri | undefined> {
  const record = recordOf(history, argument);
  if (!record) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('History no longer keeps this conversation whole, so it cannot be exported.'),
    );
    return undefined;
  }
  const target = preset?.file
    ? vscode.Uri.file(preset.file)
    : await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Export Conversation'),
        saveLabel: vscode.l10n.t('Export'),
        defaultUri: defaultUri(record),
        filters: { [vscode.l10n.t('Markdown')]: ['md'], JSON: ['json'] },
      });
  if (!target) return undefined;
  const secrets = [
    ...record.servers.flatMap((name) => manager.byName(name).flatMap((controller) => controller.knownSecrets())),
    ...(await modelKeys().catch(() => [])),
  ];
  const text = target.path.toLowerCase().endsWith('.json')
    ? conversationJson(record, secrets)
    : conversationMarkdown(record, secrets);
  try {
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  } catch (error) {
    void showError(error, { words: (reason) => vscode.l10n.t('Could not export the conversation: {0}', reason) });
    return undefined;
  }
  vscode.window.setStatusBarMessage(vscode.l10n.t('Exported the conversation'), 3000);
  return target;
}

/** The record of a History row (its kept result), or the one the playground panel passes as `{ conversation }`. */
function recordOf(history: HistoryLog, argument: unknown): ConversationRecord | undefined {
  if (typeof argument !== 'object' || argument === null) return undefined;
  if ('conversation' in argument) return asConversationRecord(argument.conversation);
  const node = argument as Partial<HistoryNode>;
  const entry =
    node.kind === 'entry' && node.entry
      ? node.entry
      : 'id' in argument && typeof argument.id === 'number'
        ? history.get(argument.id)
        : undefined;
  if (entry?.operation.kind !== 'conversation' || entry.result.kind !== 'kept') return undefined;
  return asConversationRecord(entry.result.value);
}

function defaultUri(record: ConversationRecord): vscode.Uri | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const stamp = new Date(record.startedAt).toISOString().slice(0, 16).replace(/[:T]/g, '-');
  return folder ? vscode.Uri.joinPath(folder, `conversation-${stamp}.md`) : undefined;
}
