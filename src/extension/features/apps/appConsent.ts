import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AppsApi } from '../../../protocol/extensions/apps';
import type { ContentBlock, Tool } from '../../../protocol/types';
import type { DownloadItem } from '../../../workbench/apps/appRequests';
import { appCallReason, shownArguments } from '../../../workbench/apps/appToolCalls';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import { askSafeDefault } from '../../platform/ui/askSafeDefault';
import { openExternalUrl } from '../../platform/ui/openExternalUrl';

/** The most bytes one downloaded file may have. */
const MAX_DOWNLOAD_BYTES = 50 * 1024 * 1024;

/**
 * What an app asks of the person: each prompt is modal, names the server, and shows exactly what will happen (the
 * URL opened is the one shown; the message text shown is the text copied or sent to chat). Each has "Not Now" as its
 * default (askSafeDefault): a stray Enter answers no.
 */
export async function askOpenLink(serverName: string, url: string): Promise<boolean> {
  const open = vscode.l10n.t('Open Link');
  const choice = await askSafeDefault(
    'warning',
    vscode.l10n.t('The app of MCP server "{0}" wants to open a link.', serverName),
    url,
    [open],
  );
  if (choice !== open) return false;
  return openExternalUrl(url);
}

function textOf(content: readonly ContentBlock[]): string {
  return content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
}

/**
 * The app's message as shown, and as copied or sent to chat: each line through `escapeForDisplay`, as any server
 * text in a prompt, so a right-to-left override or a zero-width character is seen (as `\u202E`) and not carried
 * unseen into the clipboard or the chat.
 */
export function shownMessage(content: readonly ContentBlock[]): string {
  return textOf(content).slice(0, 20_000).split('\n').map(escapeForDisplay).join('\n');
}

export async function offerMessage(serverName: string, content: readonly ContentBlock[]): Promise<boolean> {
  const text = shownMessage(content);
  const copy = vscode.l10n.t('Copy');
  const chat = vscode.l10n.t('Open in Chat');
  const choice = await askSafeDefault(
    'information',
    vscode.l10n.t('The app of MCP server "{0}" offers a message.', serverName),
    text,
    [copy, chat],
  );
  if (choice === copy) {
    await vscode.env.clipboard.writeText(text);
    return true;
  }
  if (choice === chat) {
    try {
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: text, isPartialQuery: true });
    } catch {
      // No chat in this VS Code: the text is still the person's.
      await vscode.env.clipboard.writeText(text);
      void vscode.window.showInformationMessage(vscode.l10n.t('VS Code has no chat here; the message was copied.'));
    }
    return true;
  }
  return false;
}

/**
 * A tool call the app makes on its own, to a tool its server marks destructive (or one the host does not know):
 * names the app, the server, the tool and its arguments (escaped, cut), with "Not Now" the default.
 */
export async function askAppToolCall(
  serverName: string,
  appTool: string,
  call: { name: string; args: Record<string, unknown>; tool: Tool | undefined },
): Promise<boolean> {
  const allow = vscode.l10n.t('Allow Call');
  const app = escapeForDisplay(appTool);
  const name = escapeForDisplay(call.name);
  const reason = appCallReason(call.tool);
  let message: string;
  switch (reason) {
    case 'destructive':
      message = vscode.l10n.t(
        'The app of {0} (MCP server "{1}") wants to call the tool {2}, which its server marks as destructive.',
        app,
        serverName,
        name,
      );
      break;
    case 'unlisted':
      message = vscode.l10n.t(
        'The app of {0} (MCP server "{1}") wants to call {2}, a tool its server did not list when last asked.',
        app,
        serverName,
        name,
      );
      break;
    default: {
      const exhaustive: never = reason;
      return exhaustive;
    }
  }
  const choice = await askSafeDefault('warning', message, vscode.l10n.t('Arguments:\n{0}', shownArguments(call.args)), [
    allow,
  ]);
  return choice === allow;
}

function bytesOf(item: { text?: unknown; blob?: unknown }): Uint8Array | undefined {
  if (typeof item.text === 'string') return new TextEncoder().encode(item.text);
  if (typeof item.blob === 'string') return Buffer.from(item.blob, 'base64');
  return undefined;
}

/** A file name from the item's URI, without any directory part the app put in it. */
function suggestedName(uri: string): string {
  const last = uri.split(/[\\/]/).filter(Boolean).pop() ?? 'download';
  return (
    path
      .basename(decodeURIComponent(last.replace(/[?#].*$/, '')))
      .replace(/[^\w.\- ]/g, '_')
      .slice(0, 120) || 'download'
  );
}

/** Each file through a save dialog (the person picks the place); a linked file is read from the same server. */
export async function downloadFiles(api: AppsApi, items: readonly DownloadItem[]): Promise<boolean> {
  let saved = false;
  for (const item of items) {
    let bytes: Uint8Array | undefined;
    if (item.kind === 'embedded') bytes = bytesOf(item);
    else {
      const read = await api.readResourceForApp(item.uri);
      bytes = read.contents[0] ? bytesOf(read.contents[0]) : undefined;
    }
    if (!bytes || bytes.length > MAX_DOWNLOAD_BYTES) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'The app offered a file that is empty or larger than {0} MB; it was not saved.',
          MAX_DOWNLOAD_BYTES / 1024 / 1024,
        ),
      );
      continue;
    }
    const home = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = suggestedName(item.kind === 'link' ? item.name : item.uri);
    const target = await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Save the file offered by the app'),
      defaultUri: home ? vscode.Uri.joinPath(home, name) : undefined,
    });
    if (!target) continue;
    await vscode.workspace.fs.writeFile(target, bytes);
    saved = true;
  }
  return saved;
}
