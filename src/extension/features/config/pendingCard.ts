import type * as vscode from 'vscode';

/**
 * workspaceState key of the Server Cards servers were added from, waiting for each server's first connection:
 * `{ [server identity]: { card, at } }` (workbench/serverCards/afterAdd.ts). Here, apart from that module, so the
 * config feature can tell at every connection whether a card waits without loading the Server Card code.
 */
export const PENDING_CARDS_KEY = 'mcpWorkbench.cardsAfterAdd';

/** Whether a card waits for the server of `identity` (a lookup; the card itself is checked when compared). */
export function cardWaitsFor(state: vscode.Memento, identity: string): boolean {
  const stored = state.get<unknown>(PENDING_CARDS_KEY);
  return typeof stored === 'object' && stored !== null && Object.hasOwn(stored, identity);
}
