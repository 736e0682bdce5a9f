import * as vscode from 'vscode';
import type { ServerCatalog } from '../../platform/servers/serverCatalog';
import type { ServerManager } from '../../platform/servers/serverManager';
import { ServerState } from '../../platform/servers/serverState';
import { isServerNode } from '../../platform/servers/serverPicker';
import type { ServersTreeNode } from './serversTreeProvider';
import { showError } from '../../platform/ui/coreErrors';

/** A command argument from a Servers view row (every row carries its server's controller). */
function isTreeNode(value: unknown): value is ServersTreeNode {
  return isServerNode(value);
}

/** Copy Name: the row's server, tool, resource, template or prompt name. */
export async function copyName(node: unknown): Promise<void> {
  const name = nameOf(node);
  if (name !== undefined) await copy(name);
}

/** Copy URI: a resource's URI or a template's URI template. */
export async function copyUri(node: unknown): Promise<void> {
  if (!isTreeNode(node)) return;
  if (node.kind === 'resource') await copy(node.resource.uri);
  else if (node.kind === 'template') await copy(node.template.uriTemplate);
}

/** Refresh Server: lists the row's server's resources, templates and prompts again. */
export async function refreshServer(catalog: ServerCatalog, node: unknown): Promise<void> {
  if (!isTreeNode(node) || node.kind === 'configError' || node.kind === 'badEntry' || node.kind === 'hint') return;
  try {
    await catalog.refresh(node.controller);
  } catch (error) {
    void showError(error, { server: node.controller, logAs: 'Refresh failed' });
  }
}

function nameOf(node: unknown): string | undefined {
  if (!isTreeNode(node)) return undefined;
  switch (node.kind) {
    case 'server':
    case 'group':
    case 'message':
      return node.controller.name;
    case 'tool':
      return node.tool.name;
    case 'resource':
      return node.resource.name;
    case 'template':
      return node.template.name;
    case 'prompt':
      return node.prompt.name;
    default:
      return undefined;
  }
}

async function copy(text: string): Promise<void> {
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', text), 3000);
}

/**
 * Show Server Instructions: the whole text the server sent at initialize, read-only. The argument is a server row,
 * or the server's id (from the link in the row's tooltip, which shows the instructions shortened).
 */
export async function showServerInstructions(
  manager: ServerManager,
  documents: { show(title: string, markdown: string): Thenable<vscode.TextEditor> },
  argument: unknown,
): Promise<void> {
  const controller =
    isTreeNode(argument) && 'controller' in argument
      ? argument.controller
      : typeof argument === 'string'
        ? manager.get(argument)
        : undefined;
  if (!controller) return;
  const state = controller.state;
  const instructions = ServerState.isRunning(state) ? state.session.instructions : undefined;
  if (!instructions) {
    void vscode.window.showInformationMessage(vscode.l10n.t('MCP server "{0}" sent no instructions.', controller.name));
    return;
  }
  const longest = Math.max(2, ...Array.from(instructions.matchAll(/`+/g), (match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  await documents.show(
    vscode.l10n.t('Instructions of {0}', controller.name),
    `# ${vscode.l10n.t('Instructions of {0}', controller.name)}\n\n${fence}text\n${instructions}\n${fence}\n`,
  );
}
