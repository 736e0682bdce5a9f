import * as vscode from 'vscode';
import { resolveServer } from '../servers/serverPicker';
import { startWithFeedback } from '../servers/startServer';
import type { ServerController } from '../servers/serverController';
import type { ServerManager } from '../servers/serverManager';

/** A server for a browsing command: the tree row's, or one picked from the palette; started when needed. */
export async function runningServer(manager: ServerManager, argument: unknown, placeHolder: string): Promise<ServerController | undefined> {
  const controller = await resolveServer(manager, argument, { placeHolder, prefer: (server) => server.state.kind === 'running' });
  if (!controller) return undefined;
  if (controller.state.kind !== 'running' && !(await startWithFeedback(controller))) return undefined;
  return controller;
}

/** A quick pick over a server's items; an empty list becomes an information message instead. */
export async function pickItem<T>(items: readonly T[], toItem: (item: T) => vscode.QuickPickItem, placeHolder: string, emptyMessage: string): Promise<T | undefined> {
  if (items.length === 0) {
    void vscode.window.showInformationMessage(emptyMessage);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    items.map((item) => ({ ...toItem(item), item })),
    { placeHolder, matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.item;
}

/** Reads a property of a tree node or command argument without trusting its shape. */
export function argumentField<T>(argument: unknown, key: string, check: (value: unknown) => value is T): T | undefined {
  if (typeof argument !== 'object' || argument === null || !(key in argument)) return undefined;
  const value = (argument as Record<string, unknown>)[key];
  return check(value) ? value : undefined;
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
export const isStringRecord = (value: unknown): value is Record<string, string> => isObject(value) && Object.values(value).every((v) => typeof v === 'string');
