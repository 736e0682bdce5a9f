import * as vscode from 'vscode';
import type { Tool } from '../../../protocol/types';
import { offeredTools } from '../../../workbench/apps/offeredTools';

/** `mcpWorkbench.apps.enabled`: draw MCP Apps beside tool results (and declare the extension to servers). */
export function appsEnabled(): boolean {
  return vscode.workspace.getConfiguration('mcpWorkbench').get<boolean>('apps.enabled', true);
}

/** The tools offered to the person (the tree and its counts, the Call Tool picker): see offeredTools. */
export function personVisibleTools(tools: readonly Tool[]): readonly Tool[] {
  return offeredTools(tools, appsEnabled());
}
