import * as vscode from 'vscode';
import { errorMessage } from '../../../protocol/errors';
import { RegistryClient } from '../../../workbench/registry/client';
import { exportServerJson } from '../../../workbench/registry/exportServerJson';
import { DEFAULT_REGISTRY_URL, type RegistryEntry } from '../../../workbench/registry/types';
import { validateServerJson } from '../../../workbench/registry/validate';
import { dotMcpTargetFromArgument } from '../../platform/config/addTargets';
import { configTargets, targetFromArgument } from '../../platform/config/configTargets';
import type { ServerManager } from '../../platform/servers/serverManager';
import { resolveServer } from '../../platform/servers/serverPicker';
import { addRegistryServer } from './addRegistryServer';
import { pickRegistryEntry, pickVersion, showRegistryDetails } from './registryBrowser';
import { showError } from '../../platform/ui/coreErrors';

/** The registry to browse: `mcpWorkbench.registry.url`, the official MCP Registry by default. */
function registryUrl(): string {
  const value = vscode.workspace.getConfiguration('mcpWorkbench').get<string>('registry.url');
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : DEFAULT_REGISTRY_URL;
}

/** MCP Workbench: Browse MCP Registry… — search, details, then Add to Workspace / Add to User Settings. */
export async function browseRegistry(): Promise<string | undefined> {
  let url = registryUrl();
  try {
    const client = new RegistryClient({ baseUrl: url });
    url = client.baseUrl;
    let entry: RegistryEntry | undefined = await pickRegistryEntry(client);
    while (entry) {
      const action = await showRegistryDetails(
        entry,
        configTargets().some((target) => target.kind === 'workspace'),
      );
      if (!action) return undefined;
      switch (action.kind) {
        case 'back':
          continue;
        case 'version':
          entry = (await pickVersion(client, entry.server.name)) ?? entry;
          continue;
        case 'card':
          // Shown, then back to the same details (loaded on first use, as Add Server's card step).
          await (await import('../../platform/serverCards/serverCardDialog.js')).showCardOf(action.url);
          continue;
        case 'add': {
          // "Add to Workspace" asks which of the workspace's files, as Add Server does.
          return await addRegistryServer(
            entry,
            action.where === 'user' ? { kind: 'user' } : { kind: 'ask', workspaceOnly: true },
          );
        }
      }
    }
    return undefined;
  } catch (error) {
    void showError(error, {
      words: (reason) => vscode.l10n.t('Could not add a server from the MCP registry at {0}: {1}', url, reason),
      logAs: `Could not add a server from the MCP registry at ${url}`,
    });
    return undefined;
  }
}

/**
 * What a caller may fill in ahead of time: the file and the target ("user", a folder's or its mcp.json's URI string,
 * or a `.mcp.json`'s URI string).
 */
interface ImportServerJsonArguments {
  file?: string;
  target?: string;
}

const MAX_SERVER_JSON_BYTES = 1024 * 1024;

/** MCP Workbench: Import server.json… — adds the entry a server.json describes, as if it came from the registry. */
export async function importServerJson(argument: unknown): Promise<string | undefined> {
  const given: ImportServerJsonArguments =
    typeof argument === 'object' && argument !== null ? (argument as ImportServerJsonArguments) : {};
  const title = vscode.l10n.t('Import server.json');
  let file: vscode.Uri | undefined = given.file ? vscode.Uri.file(given.file) : undefined;
  try {
    file ??= (
      await vscode.window.showOpenDialog({
        title,
        canSelectMany: false,
        openLabel: vscode.l10n.t('Import'),
        filters: { 'server.json': ['json'] },
      })
    )?.[0];
    if (!file) return undefined;
    const stat = await vscode.workspace.fs.stat(file);
    if (stat.size > MAX_SERVER_JSON_BYTES)
      throw new Error(vscode.l10n.t('{0} is larger than {1} bytes', file.fsPath, MAX_SERVER_JSON_BYTES));
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (error) {
      throw new Error(vscode.l10n.t('{0} is not JSON: {1}', file.fsPath, errorMessage(error)));
    }
    const server = validateServerJson(document);
    const target = targetFromArgument(given.target) ??
      dotMcpTargetFromArgument(given.target) ?? { kind: 'ask' as const, workspaceOnly: false };
    return await addRegistryServer({ server }, target);
  } catch (error) {
    const what = file?.fsPath ?? 'server.json';
    void showError(error, {
      words: (reason) => vscode.l10n.t('Could not import {0}: {1}', what, reason),
      logAs: `Could not import ${what}`,
    });
    return undefined;
  }
}

/** MCP Workbench: Export as server.json… — the chosen server's entry as a server.json skeleton, in a new editor. */
export async function exportServerJsonCommand(
  manager: ServerManager,
  argument: unknown,
): Promise<vscode.TextDocument | undefined> {
  const controller = await resolveServer(manager, argument, {
    placeHolder: vscode.l10n.t('Select the MCP server to export as server.json'),
  });
  if (!controller) return undefined;
  const exported = exportServerJson(controller.entry.definition);
  const document = await vscode.workspace.openTextDocument({
    language: 'json',
    content: `${JSON.stringify(exported.document, null, 2)}\n`,
  });
  await vscode.window.showTextDocument(document, { preview: false });
  if (exported.notes.length > 0)
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Before publishing {0}: {1}', controller.name, exported.notes.join('; ')),
    );
  return document;
}
