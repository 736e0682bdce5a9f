import type * as vscode from 'vscode';

/**
 * The Servers view's provider as VS Code sees it: its rows are asked for only once the configuration has been read
 * for the first time. Activation does not wait for that read (it goes to the disk, and at start-up to a busy event
 * loop), so the view may ask first; until the read is done it waits with its progress bar instead of showing no
 * servers, and the welcome text meant for an empty configuration never flashes by.
 */
export function afterFirstLoad<T>(
  provider: vscode.TreeDataProvider<T>,
  firstLoad: Promise<unknown>,
): vscode.TreeDataProvider<T> {
  let loaded = false;
  // Settled either way: a first read that failed has reported why, and the view shows what the provider has.
  const done = () => {
    loaded = true;
  };
  const ready = firstLoad.then(done, done);
  return {
    onDidChangeTreeData: provider.onDidChangeTreeData,
    getTreeItem: (element) => provider.getTreeItem(element),
    getChildren: (element) =>
      element !== undefined || loaded ? provider.getChildren(element) : ready.then(() => provider.getChildren()),
    ...(provider.getParent ? { getParent: (element: T) => provider.getParent?.(element) } : {}),
    ...(provider.resolveTreeItem
      ? {
          resolveTreeItem: (item: vscode.TreeItem, element: T, token: vscode.CancellationToken) =>
            provider.resolveTreeItem?.(item, element, token),
        }
      : {}),
  };
}
