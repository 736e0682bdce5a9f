/**
 * `"dev"` on a server in mcp.json, VS Code's own shape so one file serves both clients:
 *
 *     "dev": { "watch": "src/**\/*.ts" | ["src/**", "!src/generated/**"], "debug": { "type": "node" } | { "type": "debugpy" } }
 *
 * `watch` globs are relative to the folder the server runs in: its `cwd` when it has one (variables resolved, a relative
 * `cwd` taken from the workspace folder), else the workspace folder; a glob starting with `!` excludes.
 * `debug` applies to stdio servers: node is started with `--inspect-brk=127.0.0.1:0` and VS Code's JavaScript
 * debugger attaches to the port node announces; python is wrapped with debugpy and the Python debugger attaches.
 */
import { isObject } from '../../protocol/guards';
export interface DevOptions {
  /** Globs whose changes restart the server (empty: no watching). */
  watch: string[];
  /** Globs (without their `!`) whose changes never restart it. */
  exclude: string[];
  debug?: DevDebug;
}

/** `debugpyPath`: VS Code's option, debugpy's folder or script to run instead of `-m debugpy`. */
export type DevDebug = { type: 'node' } | { type: 'debugpy'; debugpyPath?: string };

export function parseDev(value: unknown): DevOptions | undefined | { problem: string } {
  if (value === undefined) return undefined;
  if (!isObject(value)) return { problem: '"dev" must be an object with "watch" and/or "debug"' };
  const record = value as Record<string, unknown>;
  const globs = record.watch === undefined ? [] : typeof record.watch === 'string' ? [record.watch] : record.watch;
  if (
    !Array.isArray(globs) ||
    !globs.every((glob) => typeof glob === 'string' && glob.trim() !== '' && glob.trim() !== '!')
  ) {
    return { problem: '"dev.watch" must be a glob or an array of globs ("!glob" excludes)' };
  }
  const watch: string[] = [];
  const exclude: string[] = [];
  for (const glob of globs as string[]) {
    const trimmed = glob.trim();
    if (trimmed.startsWith('!')) exclude.push(trimmed.slice(1));
    else watch.push(trimmed);
  }
  const debug = parseDebug(record.debug);
  if (typeof debug === 'string') return { problem: debug };
  return { watch, exclude, ...(debug ? { debug } : {}) };
}

function parseDebug(value: unknown): DevDebug | undefined | string {
  if (value === undefined) return undefined;
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  if (record.type === 'node') return { type: 'node' };
  if (record.type === 'debugpy') {
    if (record.debugpyPath !== undefined && typeof record.debugpyPath !== 'string')
      return '"dev.debug.debugpyPath" must be a string';
    return typeof record.debugpyPath === 'string'
      ? { type: 'debugpy', debugpyPath: record.debugpyPath }
      : { type: 'debugpy' };
  }
  return `"dev.debug" must be {"type": "node"} or {"type": "debugpy"}, got ${JSON.stringify(value)?.slice(0, 80)}`;
}

/**
 * The folder a server's `dev.watch` globs are relative to, as a person expects: where the server runs. `cwd` with its
 * variables resolved (`${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`, `${env:NAME}`, a leading
 * `~`), `relative` when it does not start at a root (then it is taken from the workspace folder); no `cwd`: the
 * workspace folder. A `cwd` that cannot be resolved without asking the person (`${input:…}`, an unknown variable, no
 * folder open) is `unresolved`: watching must not open an input box, so the caller falls back and says why.
 */
export type DevWatchFolder =
  | { kind: 'workspaceFolder' }
  | { kind: 'cwd'; path: string; relative: boolean }
  | { kind: 'unresolved'; cwd: string; reason: string };

interface DevWatchContext {
  workspaceFolder?: string;
  userHome: string;
  env: Readonly<Record<string, string | undefined>>;
}

export function devWatchFolder(cwd: string | undefined, context: DevWatchContext): DevWatchFolder {
  if (cwd === undefined || cwd.trim() === '') return { kind: 'workspaceFolder' };
  let unresolved: string | undefined;
  let resolved = cwd.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
    if (name === 'workspaceFolder' || name === 'workspaceFolderBasename') {
      const folder = context.workspaceFolder;
      if (folder === undefined) {
        unresolved ??= `\${${name}} needs an open workspace folder`;
        return whole;
      }
      return name === 'workspaceFolder' ? folder : (folder.split(/[\\/]/).filter(Boolean).pop() ?? folder);
    }
    if (name === 'userHome') return context.userHome;
    if (name.startsWith('env:')) return context.env[name.slice(4)] ?? '';
    unresolved ??= name.startsWith('input:')
      ? `\${${name}} is asked for only when the server starts`
      : `\${${name}} is not a known variable`;
    return whole;
  });
  if (unresolved !== undefined) return { kind: 'unresolved', cwd, reason: unresolved };
  if (resolved === '~') resolved = context.userHome;
  else if (/^~[\\/]/.test(resolved)) resolved = `${context.userHome}/${resolved.slice(2)}`;
  // A root: `/…`, `C:\…` or `C:/…`, `\\server\share`.
  const absolute = /^([\\/]|[A-Za-z]:[\\/])/.test(resolved);
  return { kind: 'cwd', path: resolved, relative: !absolute };
}
