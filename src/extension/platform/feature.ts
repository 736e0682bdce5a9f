import * as vscode from 'vscode';
import type { CommandId } from './commandIds';
import type { Platform } from './platform';
import type { OfferedServices } from './services';

/** A command's handler: the arguments VS Code passes (a tree node, or values from a caller). */
type CommandHandler = (...args: unknown[]) => unknown;

/** A feature's slice of the command table: a handler for each command it owns. */
export type CommandTable<Ids extends CommandId> = { readonly [Id in Ids]: CommandHandler };

/** What a feature is given when it activates. */
export interface FeatureContext {
  readonly extension: vscode.ExtensionContext;
  readonly platform: Platform;
  /** Services features offer each other (platform/services.ts). */
  readonly services: OfferedServices;
  /** Disposed when the extension deactivates, after every server has shut down. */
  own(...disposables: vscode.Disposable[]): void;
}

/** What a feature's activation leaves: its commands, and what the test build may reach of it. */
interface FeatureActivation<Ids extends CommandId, Exports> {
  readonly commands: CommandTable<Ids>;
  /** The feature's live objects, for the test build's hooks only: the product hands them to no one. */
  readonly exports: Exports;
}

/**
 * One feature of the extension: a folder `features/<name>/` whose `index.ts` exports one of these. It imports only the
 * platform, the workbench, the protocol and its own folder (eslint.config.mjs); what it needs of another feature comes
 * through `context.services`.
 */
export interface Feature<Ids extends CommandId, Exports> {
  readonly name: string;
  activate(context: FeatureContext): FeatureActivation<Ids, Exports>;
}

/** Declares a feature; the command ids it handles are read from its table's keys. */
export function defineFeature<Ids extends CommandId = never, Exports = undefined>(
  feature: Feature<Ids, Exports>,
): Feature<Ids, Exports> {
  return feature;
}

/** Compiles only when `Unhandled` is never: the composition root names the contributed commands no feature handles. */
export function everyCommandHandled<Unhandled extends never>(): void {
  return undefined as Unhandled;
}

/**
 * Registers every feature's commands: the one place the extension calls registerCommand. A command run while the
 * configuration is still being read for the first time (one that activated the extension) waits for that read, so it
 * sees the configured servers.
 */
export function registerCommands(
  firstLoad: Promise<unknown>,
  tables: readonly CommandTable<CommandId>[],
): vscode.Disposable {
  const handlers = new Map<string, CommandHandler>();
  for (const table of tables) {
    for (const [id, handler] of Object.entries(table) as [string, CommandHandler][]) {
      if (handlers.has(id)) throw new Error(`Two features handle the command ${id}`);
      handlers.set(id, handler);
    }
  }
  return vscode.Disposable.from(
    ...[...handlers].map(([id, handler]) =>
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        await firstLoad;
        return handler(...args);
      }),
    ),
  );
}
