import * as vscode from 'vscode';
import type { Tool } from '../../protocol/types';
import { isVisibleToModel } from '../../protocol/extensions/apps';

/** `mcpWorkbench.apps.enabled`: draw MCP Apps beside tool results (and declare the extension to servers). */
export function appsEnabled(): boolean {
  return vscode.workspace.getConfiguration('mcpWorkbench').get<boolean>('apps.enabled', true);
}

const visible = new WeakMap<readonly Tool[], readonly Tool[]>();

/**
 * The tools offered to the person (the tree, the Call Tool picker): without those whose visibility is `["app"]`
 * only. The same input list gives the same output list, so views that cache rows by list identity keep them.
 */
export function personVisibleTools(tools: readonly Tool[]): readonly Tool[] {
  if (!appsEnabled()) return tools;
  let shown = visible.get(tools);
  if (!shown) {
    const filtered = tools.filter(isVisibleToModel);
    shown = filtered.length === tools.length ? tools : filtered;
    visible.set(tools, shown);
  }
  return shown;
}
