import * as vscode from 'vscode';
import { placePanel, type PanelOpener } from './panelPlacement';

/**
 * The side group our panels share (panelPlacement.ts says why). Its column is read from the panels a person opened
 * (forms, result tabs) that are still open, the one shown last first: a panel the person dragged elsewhere takes the
 * group with it, and once they are all closed the next one opens beside the editor again.
 */
const personPanels: vscode.WebviewPanel[] = [];

function ourColumn(): number | undefined {
  for (let index = personPanels.length - 1; index >= 0; index--) {
    const column = personPanels[index]?.viewColumn;
    if (column !== undefined) return column;
  }
  return undefined;
}

/** The column to create or reveal a panel in. */
export function sideColumn(opener: PanelOpener): vscode.ViewColumn {
  const groups = vscode.window.tabGroups.all.map((group) => ({
    column: group.viewColumn,
    active: group.isActive,
    empty: group.tabs.length === 0,
  }));
  const placement = placePanel(groups, ourColumn(), opener);
  return placement.kind === 'beside' ? vscode.ViewColumn.Beside : placement.column;
}

/** Counts a panel the person opened into the side group (it is dropped again when it closes). */
export function trackPersonPanel(panel: vscode.WebviewPanel): void {
  personPanels.push(panel);
  const moveLast = () => {
    const index = personPanels.indexOf(panel);
    if (index >= 0 && index !== personPanels.length - 1) personPanels.push(...personPanels.splice(index, 1));
  };
  const viewState = panel.onDidChangeViewState((event) => {
    if (event.webviewPanel.visible) moveLast();
  });
  panel.onDidDispose(() => {
    viewState.dispose();
    const index = personPanels.indexOf(panel);
    if (index >= 0) personPanels.splice(index, 1);
  });
}
