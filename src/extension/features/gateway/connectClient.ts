import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  clipboardSnippet,
  writeClientEntries,
  type GatewayClientKind,
  type GatewayEndpoint,
} from '../../../workbench/gateway/clientEntries';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import type { GatewayService } from '../../platform/gateway/gatewayService';
import type { ServerController } from '../../platform/servers/serverController';
import type { ServerManager } from '../../platform/servers/serverManager';
import { ServerState } from '../../platform/servers/serverState';
import { showError } from '../../platform/ui/coreErrors';

type Target = { kind: GatewayClientKind; file: vscode.Uri } | { kind: 'clipboard' };

/**
 * Connect Another Client…: points Claude Code, Cursor, VS Code (user mcp.json) or Copilot CLI at a running server's
 * gateway, or copies the entry. The file keeps its other entries and comments; the person confirms first, seeing
 * the file and that the token in it works only while the workbench serves the gateway.
 */
export async function connectAnotherClient(
  manager: ServerManager,
  gateways: GatewayService,
  globalStorage: vscode.Uri,
): Promise<void> {
  const running = manager.servers.filter((controller) => ServerState.isRunning(controller.state));
  if (running.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Start a server first: another client connects to a running server through the workbench.'),
    );
    return;
  }
  const servers = await pickServers(running);
  if (!servers) return;
  const target = await pickTarget(globalStorage);
  if (!target) return;
  let endpoints: GatewayEndpoint[];
  try {
    endpoints = await Promise.all(
      servers.map(async (controller) => ({ ...(await gateways.serve(controller)), name: controller.name })),
    );
  } catch (error) {
    void showError(error);
    return;
  }
  if (target.kind === 'clipboard') {
    await vscode.env.clipboard.writeText(clipboardSnippet(endpoints));
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Copied the entry for {0}. Its token is valid while this window serves the server through the workbench; after the window closes or reloads, connect again.',
        endpoints.map((endpoint) => escapeForDisplay(endpoint.name)).join(', '),
      ),
    );
    return;
  }
  await writeToFile(target.kind, target.file, endpoints);
}

async function pickServers(running: readonly ServerController[]): Promise<ServerController[] | undefined> {
  if (running.length === 1) return [...running];
  type Item = vscode.QuickPickItem & { servers: ServerController[] };
  const items: Item[] = [
    ...running.map((controller) => ({
      label: escapeForDisplay(controller.name),
      description: controller.entry.origin.label,
      servers: [controller],
    })),
    { label: vscode.l10n.t('All running servers'), servers: [...running] },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Connect Another Client: which server?'),
    ignoreFocusOut: true,
  });
  return picked?.servers;
}

async function pickTarget(globalStorage: vscode.Uri): Promise<Target | undefined> {
  const folder = vscode.workspace.workspaceFolders?.find((candidate) => candidate.uri.scheme === 'file');
  type Item = vscode.QuickPickItem & { target: Target };
  const items: Item[] = [];
  if (folder) {
    items.push(
      {
        label: 'Claude Code',
        description: '.mcp.json',
        detail: vscode.l10n.t('In the workspace folder {0}', folder.name),
        target: { kind: 'claudeCode', file: vscode.Uri.joinPath(folder.uri, '.mcp.json') },
      },
      {
        label: 'Cursor',
        description: '.cursor/mcp.json',
        detail: vscode.l10n.t('In the workspace folder {0}', folder.name),
        target: { kind: 'cursor', file: vscode.Uri.joinPath(folder.uri, '.cursor', 'mcp.json') },
      },
    );
  }
  // The user profile's mcp.json sits beside globalStorage (…/User/globalStorage/<extension> → …/User/mcp.json).
  const userFolder = vscode.Uri.joinPath(globalStorage, '..', '..');
  items.push(
    {
      label: vscode.l10n.t('VS Code (user)'),
      description: 'mcp.json',
      detail: vscode.l10n.t("Your user profile's MCP servers"),
      target: { kind: 'vscodeUser', file: vscode.Uri.joinPath(userFolder, 'mcp.json') },
    },
    {
      label: 'Copilot CLI',
      description: '~/.copilot/mcp-config.json',
      target: { kind: 'copilotCli', file: vscode.Uri.file(copilotConfigPath()) },
    },
    { label: vscode.l10n.t('Copy to Clipboard'), target: { kind: 'clipboard' } },
  );
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Connect Another Client: which client?'),
    ignoreFocusOut: true,
  });
  return picked?.target;
}

/** `$COPILOT_HOME/mcp-config.json`, else `~/.copilot/mcp-config.json` (where Copilot CLI reads its servers). */
function copilotConfigPath(): string {
  const home = process.env.COPILOT_HOME;
  return path.join(home && home.trim() !== '' ? home : path.join(os.homedir(), '.copilot'), 'mcp-config.json');
}

async function writeToFile(kind: GatewayClientKind, file: vscode.Uri, endpoints: GatewayEndpoint[]): Promise<void> {
  let text = '';
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
  } catch (error) {
    if (!(error instanceof vscode.FileSystemError) || error.code !== 'FileNotFound') {
      void showError(error);
      return;
    }
  }
  let edit: ReturnType<typeof writeClientEntries>;
  try {
    edit = writeClientEntries(kind, text, endpoints);
  } catch (error) {
    void showError(error, {
      words: (reason) => vscode.l10n.t('{0} was not changed: {1}', file.fsPath, reason),
    });
    return;
  }
  const names = endpoints.map((endpoint) => escapeForDisplay(endpoint.name)).join(', ');
  const detail = [
    vscode.l10n.t('File: {0}', file.fsPath),
    vscode.l10n.t(
      'The entry holds a token in its Authorization header. It is valid while this window serves the server through the workbench; after the window closes or reloads, connect again.',
    ),
    ...(edit.replaced.length > 0
      ? [
          vscode.l10n.t(
            'Replaces the existing entry for {0}.',
            edit.replaced.map((name) => escapeForDisplay(name)).join(', '),
          ),
        ]
      : []),
  ].join('\n\n');
  const write = vscode.l10n.t('Write');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Point this client at {0} through the workbench?', names),
    { modal: true, detail },
    write,
  );
  if (choice !== write) return;
  try {
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(file, '..'));
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(edit.text));
  } catch (error) {
    void showError(error);
    return;
  }
  const open = vscode.l10n.t('Open File');
  const opened = await vscode.window.showInformationMessage(
    vscode.l10n.t('Wrote the entry for {0} to {1}.', names, file.fsPath),
    open,
  );
  if (opened === open) await vscode.window.showTextDocument(file);
}
