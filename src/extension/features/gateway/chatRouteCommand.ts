import * as vscode from 'vscode';
import type { ChatRoute, ChatRouteChoice } from '../../platform/gateway/chatRoute';

/** The two ways chat can reach this workspace's servers, worded for a pick and for the notice. */
export function chatRouteLabels(): Record<ChatRoute, string> {
  return {
    workbench: vscode.l10n.t('Chat Uses MCP Workbench'),
    vscode: vscode.l10n.t("Chat Runs VS Code's Own Copy"),
  };
}

/** Choose How Chat Reaches Servers…: the workspace's choice, changeable at any time. */
export async function chooseChatRoute(choice: ChatRouteChoice): Promise<void> {
  if (!choice.available) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        "This version of VS Code cannot take MCP servers from an extension (VS Code 1.101 or later can): chat runs VS Code's own copy of .vscode/mcp.json's servers.",
      ),
    );
    return;
  }
  const labels = chatRouteLabels();
  const current = choice.route;
  const items: (vscode.QuickPickItem & { route: ChatRoute })[] = [
    {
      label: labels.workbench,
      description: current === 'workbench' ? vscode.l10n.t('current') : undefined,
      detail: vscode.l10n.t(
        "One process per server: chat reaches .vscode/mcp.json's servers through this extension's gateway, and every call shows here. Start them from MCP: List Servers (\"MCP Workbench\"), not VS Code's own entries.",
      ),
      route: 'workbench',
    },
    {
      label: labels.vscode,
      description: current === 'vscode' ? vscode.l10n.t('current') : undefined,
      detail: vscode.l10n.t(
        'As before: VS Code starts its own process for each server it reads from .vscode/mcp.json.',
      ),
      route: 'vscode',
    },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t("How should chat reach this workspace's MCP servers?"),
    ignoreFocusOut: true,
  });
  if (picked) await choice.choose(picked.route);
}
