import * as vscode from 'vscode';
import { ServerController } from './serverController';
import type { ServerManager } from './serverManager';
import type { ServersTreeNode } from '../views/serversTreeProvider';
import { stateLabel } from '../views/serversTreeProvider';
import { transportLabel } from '../config/serverEntry';

/** A command invoked from a tree row receives the row's node; from the palette it receives nothing. */
export function isTreeNode(value: unknown): value is ServersTreeNode {
  return typeof value === 'object' && value !== null && 'controller' in value && value.controller instanceof ServerController;
}

/**
 * The server a command applies to: the tree node's, or one the user picks. Servers that `prefer` accepts are
 * offered first (e.g. stopped ones for Start); the others stay pickable so the palette never hides a server.
 */
export async function resolveServer(
  manager: ServerManager,
  argument: unknown,
  options: { placeHolder: string; prefer?: (controller: ServerController) => boolean },
): Promise<ServerController | undefined> {
  if (isTreeNode(argument)) return argument.controller;
  const servers = [...manager.servers].sort((a, b) => a.name.localeCompare(b.name));
  if (servers.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No MCP servers are configured. Run "MCP: Add Server…" or add them to .vscode/mcp.json.'));
    return undefined;
  }
  const prefer = options.prefer ?? (() => true);
  const ordered = [...servers.filter(prefer), ...servers.filter((server) => !prefer(server))];
  const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  const picked = await vscode.window.showQuickPick(
    ordered.map((controller) => ({
      label: controller.name,
      description: [stateLabel(controller.state), transportLabel(controller.entry.definition), ...(multiRoot || controller.entry.origin.scope === 'user' ? [controller.entry.origin.label] : [])].join(' · '),
      controller,
    })),
    { placeHolder: options.placeHolder, matchOnDescription: true },
  );
  return picked?.controller;
}
