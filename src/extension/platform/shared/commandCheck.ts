import * as path from 'node:path';
import * as vscode from 'vscode';
import type { StdioLaunch } from '../../../workbench/node/commandResolution';
import type { LaunchHost, ResolvedServer } from '../../../workbench/node/launch';
import { sayStoredError } from '../ui/coreErrors';

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
 * "npx not found on PATH (searched: ...)" instead of `spawn npx ENOENT`. Returns what to spawn for a stdio server
 * (on Windows, a `.cmd`/`.bat` shim such as `npx.cmd` runs through `cmd.exe /d /s /c` with safe quoting); pass it to
 * `createTransport` as `launch`.
 */
export async function checkCommand(
  resolved: ResolvedServer,
  host: LaunchHost = editorLaunchHost(),
): Promise<StdioLaunch | undefined> {
  if (resolved.kind !== 'stdio') return undefined;
  // launch.ts makes transports too: it loads with the first start, not with the extension (esbuild.js).
  const { planStdioLaunch } = await import('../../../workbench/node/launch.js');
  const plan = await planStdioLaunch(resolved, host);
  if (plan.kind === 'ready') return plan.launch;
  throw new CommandNotFoundError(
    // The hint already says what was searched and how to fix it (absolute path, cwd, PATH through env).
    vscode.l10n.t(
      'Command "{0}" was not found: {1}',
      resolved.command,
      sayStoredError({ message: plan.hint, detail: plan.detail }),
    ),
    resolved.command,
    plan.searched,
  );
}

/**
 * The launch plan of a stdio server as `checkCommand` makes it, without throwing: doctor reports a command not found
 * as its failed step (with the folders searched) instead of an error.
 */
export async function planCommand(
  resolved: Extract<ResolvedServer, { kind: 'stdio' }>,
): Promise<Awaited<ReturnType<typeof import('../../../workbench/node/launch').planStdioLaunch>>> {
  const { planStdioLaunch } = await import('../../../workbench/node/launch.js');
  return planStdioLaunch(resolved, editorLaunchHost());
}

/**
 * The extension host's environment. VS Code (and code-server, and remote servers) put their own CLI folders on the
 * extension host's PATH; they are searched like any other, but a "not found" message lists only what the person set.
 */
function editorLaunchHost(): LaunchHost {
  const appRoot = path.resolve(vscode.env.appRoot);
  // The application's install folder: appRoot is <install>/resources/app on desktop, <install>/lib/vscode in code-server.
  const installRoot = path.dirname(path.basename(appRoot) === 'app' ? path.dirname(appRoot) : appRoot);
  const inside = (directory: string, root: string) => {
    const relative = path.relative(root, path.resolve(directory));
    return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  };
  return {
    platform: process.platform,
    env: process.env,
    isHostFolder: (directory) => directory !== '' && inside(directory, installRoot),
  };
}
