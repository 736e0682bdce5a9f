import * as vscode from 'vscode';
import { transportLabel } from '../config/serverEntry';
import { ServerController } from './serverController';
import type { ServerManager } from './serverManager';
import { ServerState } from './serverState';
import { startWithFeedback } from './startServer';

/**
 * A command invoked from a tree row receives the row's node; from the palette it receives nothing. Every node of
 * the Servers view carries its server's controller, which is all this layer needs to know about the tree.
 */
export function isServerNode(value: unknown): value is { controller: ServerController } {
  return (
    typeof value === 'object' && value !== null && 'controller' in value && value.controller instanceof ServerController
  );
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
  if (isServerNode(argument)) return argument.controller;
  const servers = [...manager.servers].sort((a, b) => a.name.localeCompare(b.name));
  if (servers.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('No MCP servers are configured. Run "MCP Workbench: Add Server…" or add them to .vscode/mcp.json.'),
    );
    return undefined;
  }
  const prefer = options.prefer ?? (() => true);
  const ordered = [...servers.filter(prefer), ...servers.filter((server) => !prefer(server))];
  const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  const picked = await vscode.window.showQuickPick(
    ordered.map((controller) => ({
      label: controller.name,
      description: [
        ServerState.label(controller.state),
        transportLabel(controller.entry.definition),
        ...(multiRoot || controller.entry.origin.scope === 'user' ? [controller.entry.origin.label] : []),
      ].join(' · '),
      controller,
    })),
    // ignoreFocusOut: run from the palette while a form or result page had the focus, VS Code hands the focus back
    // to that page after the palette closes, asynchronously; a picker that closed on that focus loss would leave the
    // command acting on nothing (seen in CI as a Stop Server whose picker never showed). Escape still closes it.
    { placeHolder: options.placeHolder, matchOnDescription: true, ignoreFocusOut: true },
  );
  return picked?.controller;
}

/** A server for a browsing or tool command: the tree row's, or one picked from the palette; started when needed. */
export async function runningServer(
  manager: ServerManager,
  argument: unknown,
  placeHolder: string,
): Promise<ServerController | undefined> {
  const controller = await resolveServer(manager, argument, {
    placeHolder,
    prefer: (server) => ServerState.isRunning(server.state),
  });
  if (!controller) return undefined;
  if (!ServerState.isRunning(controller.state) && !(await startWithFeedback(controller))) return undefined;
  return controller;
}
