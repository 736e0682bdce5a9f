import * as vscode from 'vscode';
import { openWalkthroughOnce } from './firstRun';

/** The walkthrough's id in package.json (`contributes.walkthroughs`). */
const WALKTHROUGH_ID = 'mcpWorkbench.firstRun';

/** Opens "Get Started with MCP Workbench" on the first activation after install (firstRun.ts says why). */
export function openWalkthroughOnFirstRun(context: vscode.ExtensionContext, log: (line: string) => void): void {
  void openWalkthroughOnce(context.globalState, () =>
    // `false`: in the editor area, not to the side (the Servers view is in the side bar already).
    vscode.commands.executeCommand(
      'workbench.action.openWalkthrough',
      `${context.extension.id}#${WALKTHROUGH_ID}`,
      false,
    ),
  ).then(
    (opened) => opened && log('First activation: opened the walkthrough'),
    (error: unknown) => log(`The walkthrough could not be opened: ${String(error)}`),
  );
}
