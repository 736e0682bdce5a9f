/**
 * `"dev"` on a server in mcp.json, VS Code's own shape so one file serves both clients:
 *
 *     "dev": { "watch": "src/**\/*.ts" | ["src/**", "!src/generated/**"], "debug": { "type": "node" } | { "type": "debugpy" } }
 *
 * `watch` globs are relative to the folder of the config (the workspace folder); a glob starting with `!` excludes.
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
