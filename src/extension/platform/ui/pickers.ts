import * as vscode from 'vscode';

/** A quick pick over a server's items; an empty list becomes an information message instead. */
export async function pickItem<T>(
  items: readonly T[],
  toItem: (item: T) => vscode.QuickPickItem,
  placeHolder: string,
  emptyMessage: string,
): Promise<T | undefined> {
  if (items.length === 0) {
    void vscode.window.showInformationMessage(emptyMessage);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    items.map((item) => ({ ...toItem(item), item })),
    { placeHolder, matchOnDescription: true, matchOnDetail: true, ignoreFocusOut: true },
  );
  return picked?.item;
}

/** Reads a property of a tree node or command argument without trusting its shape. */
export function argumentField<T>(argument: unknown, key: string, check: (value: unknown) => value is T): T | undefined {
  if (typeof argument !== 'object' || argument === null || !(key in argument)) return undefined;
  const value = (argument as Record<string, unknown>)[key];
  return check(value) ? value : undefined;
}
