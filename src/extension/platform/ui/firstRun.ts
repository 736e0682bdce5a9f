/**
 * The walkthrough ("Get Started with MCP Workbench") opens by itself once, on the first activation after install: on
 * a first run the view alone did not say where to begin, and the walkthrough was only reachable through Welcome: Open
 * Walkthrough (the first-hour trial, 1.2). The flag is kept in global state and set before opening, so a window that
 * fails to open it does not open it on every start. No vscode import: it runs in unit tests (walkthrough.ts opens it).
 */

export const WALKTHROUGH_SHOWN_KEY = 'mcpWorkbench.walkthroughShown';

/** The part of VS Code's global state (`Memento`) this needs. */
export interface FlagStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

/** Opens the walkthrough unless it was opened before in this profile; says whether it opened it. */
export async function openWalkthroughOnce(state: FlagStore, open: () => Thenable<unknown>): Promise<boolean> {
  if (state.get<boolean>(WALKTHROUGH_SHOWN_KEY) === true) return false;
  await state.update(WALKTHROUGH_SHOWN_KEY, true);
  await open();
  return true;
}
