import { access, constants, stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { ErrorDetail } from '../../protocol/errors';

/**
 * Finds the executable a stdio server's `command` names, the way the OS would, so a missing `npx` is reported with
 * the PATH that was searched instead of a bare `spawn npx ENOENT`. On Windows, `npx` is really `npx.cmd`: since
 * Node 18.20.2/20.12.2 (CVE-2024-27980) `.cmd`/`.bat` files can only run through `cmd.exe`, so the result says so and
 * `windowsShimInvocation` builds a safely quoted `cmd.exe` command line.
 *
 * The platform is a parameter so the Windows rules can be tested anywhere.
 */

interface CommandResolutionOptions {
  /** The environment the server will get (PATH and PATHEXT are read from it; names are case-insensitive on Windows). */
  env: Readonly<Record<string, string | null | undefined>>;
  /** The server's working directory: relative commands like `./server.sh` resolve against it. */
  cwd?: string;
  platform: NodeJS.Platform;
  /**
   * PATH folders the host application adds for itself (an editor's own CLI folder): still searched, but left out of
   * the message, which lists the PATH a person set and can change.
   */
  isHostFolder?: (directory: string) => boolean;
}

export type CommandResolution =
  | { kind: 'found'; path: string; viaShim?: 'cmd' }
  /** `hint` in English (logs, CLI); `detail` for a host to word it (see ErrorDetail). */
  | { kind: 'not-found'; searched: string[]; hint: string; detail: ErrorDetail };

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';
const SHIM_EXTENSIONS = new Set(['.cmd', '.bat']);

export async function resolveCommand(command: string, options: CommandResolutionOptions): Promise<CommandResolution> {
  const windows = options.platform === 'win32';
  const paths = windows ? path.win32 : path.posix;
  const extensions = windows ? pathExtensions(options.env) : [''];
  if (command.trim() === '')
    return { kind: 'not-found', searched: [], hint: 'the command is empty', detail: { kind: 'command-empty' } };

  if (isPathLike(command, windows)) {
    const base = options.cwd && !paths.isAbsolute(command) ? joinPath(options.cwd, command, windows) : command;
    const found = await findWithExtensions(base, extensions, windows);
    if (found) return found;
    const notExecutable = !windows && (await isFile(base));
    const cwd = options.cwd && !paths.isAbsolute(command) ? options.cwd : undefined;
    const lookedFor = `${base}${extensionNote(extensions, windows)}`;
    return {
      kind: 'not-found',
      searched: [base],
      hint: notExecutable
        ? `${base} exists but is not executable: run chmod +x on it, or use the interpreter as the command (e.g. "node", "python")`
        : `${command} not found${cwd ? ` relative to cwd ${cwd}` : ''} (looked for ${lookedFor}). Check the path, or use an absolute path.`,
      detail: notExecutable
        ? { kind: 'not-executable', path: base }
        : { kind: 'path-not-found', command, ...(cwd ? { cwd } : {}), lookedFor },
    };
  }

  // Only PATH is searched. Windows would also try the working directory first, but a workspace should not be
  // able to shadow `npx` with a file of the same name.
  const directories = splitPath(readEnv(options.env, 'PATH', windows), windows);
  for (const directory of directories) {
    const found = await findWithExtensions(joinPath(directory, command, windows), extensions, windows);
    if (found) return found;
  }
  const shown = directories.filter((directory) => !options.isHostFolder?.(directory));
  const hidden = directories.length - shown.length;
  const hiddenNote =
    hidden === 0
      ? ''
      : `${shown.length ? (windows ? '; ' : ', ') : ''}and ${hidden} folder${hidden === 1 ? '' : 's'} of the editor itself`;
  const searched = `${directories.length ? `${shown.join(windows ? '; ' : ', ')}${hiddenNote}` : 'PATH is empty'}${extensionNote(extensions, windows)}`;
  return {
    kind: 'not-found',
    searched: directories,
    hint: `${command} not found on PATH (searched: ${searched}). Use an absolute path, set cwd, or add its folder to PATH through env.`,
    detail: { kind: 'command-not-found', command, searched },
  };
}

function isPathLike(command: string, windows: boolean): boolean {
  return command.includes('/') || (windows && (command.includes('\\') || /^[A-Za-z]:/.test(command)));
}

async function findWithExtensions(
  base: string,
  extensions: string[],
  windows: boolean,
): Promise<CommandResolution | undefined> {
  const candidates =
    windows && hasExtension(base, extensions) ? [base] : extensions.map((extension) => base + extension);
  for (const candidate of candidates) {
    if (!(await isRunnable(candidate, windows))) continue;
    const shim = windows && SHIM_EXTENSIONS.has(path.win32.extname(candidate).toLowerCase());
    return shim ? { kind: 'found', path: candidate, viaShim: 'cmd' } : { kind: 'found', path: candidate };
  }
  return undefined;
}

function hasExtension(file: string, extensions: string[]): boolean {
  const extension = path.win32.extname(file).toLowerCase();
  return extension !== '' && extensions.includes(extension);
}

async function isRunnable(file: string, windows: boolean): Promise<boolean> {
  if (!(await isFile(file))) return false;
  if (windows) return true; // Windows decides by extension, not by permission bits.
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Lower-cased so they match on case-sensitive file systems too (tests simulate Windows on Linux). */
function pathExtensions(env: CommandResolutionOptions['env']): string[] {
  const raw = readEnv(env, 'PATHEXT', true) || DEFAULT_PATHEXT;
  return raw
    .split(';')
    .map((extension) => extension.trim().toLowerCase())
    .filter((extension) => extension.startsWith('.'));
}

function readEnv(env: CommandResolutionOptions['env'], name: string, caseInsensitive: boolean): string {
  if (!caseInsensitive) return env[name] ?? '';
  const key = Object.keys(env).find((candidate) => candidate.toUpperCase() === name);
  return (key !== undefined ? env[key] : undefined) ?? '';
}

function splitPath(value: string, windows: boolean): string[] {
  // Empty entries mean "current directory" on POSIX, and a relative entry is relative to it: both skipped for the
  // same reason as the cwd above.
  const entries = value
    .split(windows ? ';' : ':')
    .map((entry) => (windows ? entry.trim().replace(/^"(.*)"$/, '$1') : entry));
  const absolute = (entry: string) =>
    windows ? path.win32.isAbsolute(entry) || path.posix.isAbsolute(entry) : path.posix.isAbsolute(entry);
  return [...new Set(entries.filter((entry) => entry !== '' && absolute(entry)))];
}

/** Keeps the directory's own separator, so a simulated Windows PATH of POSIX folders still points at real files. */
function joinPath(directory: string, file: string, windows: boolean): string {
  if (!windows) return path.posix.join(directory, file);
  const separator = directory.includes('\\') || !directory.includes('/') ? '\\' : '/';
  return directory.endsWith('\\') || directory.endsWith('/') ? directory + file : directory + separator + file;
}

function extensionNote(extensions: string[], windows: boolean): string {
  return windows ? `; extensions tried: ${extensions.join(' ')}` : '';
}

interface ShimInvocation {
  command: string;
  args: string[];
  /** Must be passed to `spawn`: the command line is already quoted for cmd.exe. */
  windowsVerbatimArguments: true;
}

/**
 * cmd.exe expands or interprets these even inside double quotes (`%VAR%`, `!VAR!` with delayed expansion) or
 * cannot carry them at all (newlines), so no quoting makes them safe: such arguments are refused.
 */
const UNSAFE_FOR_CMD = /[%^&|<>!\r\n\0]/;

/**
 * Builds `cmd.exe /d /s /c ""C:\path\npx.cmd" "arg1" "arg2""` for running a `.cmd`/`.bat` shim. `/d` skips AutoRun
 * commands, `/s` makes cmd strip exactly the outer quotes. Each argument is quoted; an embedded `"` is doubled (the
 * batch convention) and trailing backslashes are doubled so a program the shim forwards `%*` to does not read `\"`
 * as an escaped quote.
 */
export function windowsShimInvocation(shimPath: string, args: readonly string[], comSpec = 'cmd.exe'): ShimInvocation {
  const quoted = [shimPath, ...args].map((arg, index) => {
    const unsafe = UNSAFE_FOR_CMD.exec(arg);
    if (unsafe) {
      const what =
        index === 0 ? `the shim path ${JSON.stringify(shimPath)}` : `argument ${index} (${JSON.stringify(arg)})`;
      throw new Error(
        `cannot run ${path.win32.basename(shimPath)} through cmd.exe safely: ${what} contains ${JSON.stringify(unsafe[0])}, ` +
          'which cmd.exe interprets even inside quotes. Remove that character, or run the program the shim wraps ' +
          '(for example node.exe with the script path) directly as the command.',
      );
    }
    return `"${arg.replace(/"/g, '""').replace(/(\\+)$/, '$1$1')}"`;
  });
  return { command: comSpec, args: ['/d', '/s', '/c', `"${quoted.join(' ')}"`], windowsVerbatimArguments: true };
}

/** What to spawn for a stdio server: its own command and arguments, or cmd.exe wrapping a `.cmd`/`.bat` shim. */
export interface StdioLaunch {
  command: string;
  args: string[];
  windowsVerbatimArguments?: true;
}

/**
 * The launch for a command `resolveCommand` found. A shim (Windows only) runs as `cmd.exe /d /s /c "..."` with the
 * full path `resolveCommand` found, so cmd.exe does not search PATH (or the working directory) again; anything else
 * is spawned by that path too, never by name: a spawn by name searches again, and on Windows that search starts in
 * the current directory (a folder the workspace controls). `comSpec` is the host's `%ComSpec%` (never the server's
 * env, which a workspace controls).
 */
export function stdioLaunch(
  resolution: Extract<CommandResolution, { kind: 'found' }>,
  args: readonly string[],
  comSpec?: string,
): StdioLaunch {
  if (resolution.viaShim !== 'cmd') return { command: resolution.path, args: [...args] };
  const {
    command: shell,
    args: shellArgs,
    windowsVerbatimArguments,
  } = windowsShimInvocation(resolution.path, args, comSpec || 'cmd.exe');
  return { command: shell, args: shellArgs, windowsVerbatimArguments };
}
