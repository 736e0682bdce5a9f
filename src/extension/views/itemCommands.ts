import * as vscode from 'vscode';
import { errorMessage } from '../../protocol/errors';
import { isTreeNode } from '../servers/serverPicker';
import type { BrowseContext } from '../browse/browseContext';

/** Copy Name, Copy URI and Refresh Server: the small actions every tree row offers. */
export function registerItemCommands(context: BrowseContext): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand('mcpWorkbench.copyName', async (node?: unknown) => {
      const name = nameOf(node);
      if (name !== undefined) await copy(name);
    }),
    vscode.commands.registerCommand('mcpWorkbench.copyUri', async (node?: unknown) => {
      if (!isTreeNode(node)) return;
      if (node.kind === 'resource') await copy(node.resource.uri);
      else if (node.kind === 'template') await copy(node.template.uriTemplate);
    }),
    vscode.commands.registerCommand('mcpWorkbench.refreshServer', async (node?: unknown) => {
      if (!isTreeNode(node)) return;
      try {
        await context.catalog.refresh(node.controller);
      } catch (error) {
        void vscode.window.showErrorMessage(errorMessage(error));
      }
    }),
  );
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
