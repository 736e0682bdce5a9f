import * as vscode from 'vscode';
import { resolveCommand } from '../../core/config/commandResolution';
import type { ResolvedServer } from '../../core/config/launch';

/** A stdio server's command does not exist; the message names the command, the PATH searched and the fix. */
export class CommandNotFoundError extends Error {
  override readonly name = 'CommandNotFoundError';
  constructor(
    message: string,
    readonly command: string,
    readonly searched: readonly string[],
  ) {
    super(message);
  }
}

/**
 * Looks the command up the way the OS will (with the server's own PATH and cwd) before spawning, so the user reads
 * "npx not found on PATH (searched: ...)" instead of `spawn npx ENOENT`.
 */
export async function checkCommand(resolved: ResolvedServer): Promise<void> {
  if (resolved.kind !== 'stdio') return;
  const env: Record<string, string | undefined> = { ...process.env };
  for (const [key, value] of Object.entries(resolved.env)) env[key] = value ?? undefined;
  const resolution = await resolveCommand(resolved.command, { env, cwd: resolved.cwd, platform: process.platform });
  if (resolution.kind === 'found') return;
  throw new CommandNotFoundError(
    // The hint already says what was searched and how to fix it (absolute path, cwd, PATH through env).
    vscode.l10n.t('Command "{0}" was not found: {1}', resolved.command, resolution.hint),
    resolved.command,
    resolution.searched,
  );
}
