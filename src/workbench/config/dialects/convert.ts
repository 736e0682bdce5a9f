import { isObject } from '../../../protocol/guards';
import { translateVariables, type VariableDialect } from './dialectVariables';

/**
 * Turns one server entry of another client's file into VS Code's `mcp.json` form, with a note for everything that
 * cannot be carried over exactly. Shared by the one-time Import (node/importers.ts) and the live dialects, so a file
 * reads the same either way: a silently dropped server or field is the most common complaint about copying configs.
 */

type Json = Record<string, unknown>;

/** How a client reads its entries. */
export interface EntryRules {
  /** The client's name, for notes ("disabled in Cursor"). */
  label: string;
  dialect: VariableDialect;
  /** What the source does with `url` and no `type`, for a note when that differs from VS Code. */
  untypedUrl?: string;
  /** The client ignores remote entries (Claude Desktop: they are Connectors there). */
  ignoresRemote?: boolean;
  /** Keep `${VAR:-default}` defaults (live reading: our resolver honours them) instead of dropping them with a note. */
  keepDefaults?: boolean;
  /** Read live (the Servers view) rather than imported once: notes say what happens here, not in an import. */
  live?: boolean;
}

export interface StdioImportEntry {
  type: 'stdio';
  command: string;
  args?: string[];
  env?: Record<string, string | null>;
  cwd?: string;
  envFile?: string;
}

export interface RemoteImportEntry {
  type: 'http' | 'sse';
  url: string;
  headers?: Record<string, string>;
  oauth?: { clientId: string };
}

/** Ready to be written under `servers.<name>` in `mcp.json`. */
export type ImportedServerEntry = StdioImportEntry | RemoteImportEntry;

export interface Converted {
  entry: ImportedServerEntry;
  disabled: boolean;
  notes: string[];
}

/** Fields consumed while building the entry; anything else gets a note from `noteExtraField`. */
const TRANSPORT_FIELDS = new Set([
  'type',
  'transportType',
  'transport',
  'command',
  'args',
  'env',
  'cwd',
  'envFile',
  'url',
  'serverUrl',
  'headers',
]);

export function convertEntry(rules: EntryRules, raw: unknown, separator: string): Converted | string {
  if (!isObject(raw)) return 'the definition must be an object';
  // Cline's CLI format nests the transport: { transport: { type, command, ... }, disabled, autoApprove }.
  const entry: Json = isObject(raw.transport) ? { ...raw, ...raw.transport } : raw;
  const label = rules.label;
  const notes: string[] = [];
  const translate = (value: string, where: string) => {
    const translated = translateVariables(value, rules.dialect, where, separator, rules.keepDefaults);
    notes.push(...translated.notes);
    return translated.value;
  };

  const declared = entry.type ?? entry.transportType ?? (typeof raw.transport === 'string' ? raw.transport : undefined);
  const url = entry.url ?? entry.serverUrl;
  const kind = transportOf(declared, entry.command, url);
  if (kind === undefined) {
    if (declared !== undefined)
      return `unknown transport ${JSON.stringify(declared)} (expected stdio, local, http, streamable-http, streamableHttp or sse)`;
    // "args" or "env" without "command" is a local server whose command was forgotten, not an unknown shape.
    if ('args' in entry || 'env' in entry || 'cwd' in entry)
      return 'missing command: the entry has local-server fields but no "command"';
    return 'missing "command" (for a local server) or "url" (for a remote one)';
  }

  let built: ImportedServerEntry;
  if (kind === 'stdio') {
    if (typeof entry.command !== 'string' || entry.command.trim() === '')
      return 'missing command: a local (stdio) server needs a non-empty "command" string';
    const args = stringList(entry.args);
    if (typeof args === 'string') return args;
    const env = envMap(entry.env);
    if (typeof env === 'string') return env;
    for (const [field, value] of [
      ['cwd', entry.cwd],
      ['envFile', entry.envFile],
    ] as const) {
      if (value !== undefined && typeof value !== 'string') return `"${field}" must be a string`;
    }
    const stdio: StdioImportEntry = { type: 'stdio', command: translate(entry.command, 'command') };
    if (args.length) stdio.args = args.map((arg, index) => translate(arg, `args[${index}]`));
    if (Object.keys(env).length)
      stdio.env = Object.fromEntries(
        Object.entries(env).map(([key, value]) => [key, value === null ? null : translate(value, `env.${key}`)]),
      );
    if (typeof entry.cwd === 'string') stdio.cwd = translate(entry.cwd, 'cwd');
    if (typeof entry.envFile === 'string') stdio.envFile = translate(entry.envFile, 'envFile');
    if (url !== undefined && declared === undefined)
      notes.push('"url" ignored: the entry also has "command", so it was imported as a local server');
    built = stdio;
  } else {
    if (typeof url !== 'string' || url.trim() === '')
      return `missing url: a remote (${kind}) server needs a non-empty "url" string`;
    if (!url.includes('${') && !isUrl(url))
      return `invalid url ${JSON.stringify(url)}: expected http(s)://, unix:// or pipe://`;
    const headers = envMap(entry.headers, 'headers');
    if (typeof headers === 'string') return headers;
    const remote: RemoteImportEntry = { type: kind, url: translate(url, 'url') };
    if (Object.keys(headers).length)
      remote.headers = Object.fromEntries(
        Object.entries(headers).map(([key, value]) => [key, translate(value ?? '', `headers.${key}`)]),
      );
    if (declared === undefined && rules.untypedUrl)
      notes.push(
        `no "type": ${rules.untypedUrl}; imported as "http", which tries Streamable HTTP first and falls back to SSE`,
      );
    if (rules.ignoresRemote)
      notes.push(
        'Claude Desktop itself ignores "url" entries (remote servers are Connectors there); imported as a remote server',
      );
    if (entry.serverUrl !== undefined && entry.url === undefined) notes.push('"serverUrl" imported as "url"');
    built = remote;
  }

  let disabled = false;
  for (const [field, value] of Object.entries(raw)) {
    if (TRANSPORT_FIELDS.has(field) && field !== 'transport') continue;
    if (field === 'transport' && (isObject(value) || typeof value === 'string')) continue;
    if (field === 'disabled') {
      disabled = value === true;
      if (disabled)
        notes.push(
          rules.live
            ? `turned off in ${label} ("disabled": true): shown here, started only when you start it`
            : `disabled in ${label}: imported anyway but marked disabled`,
        );
      continue;
    }
    const note = noteExtraField(field, value, built);
    if (note) notes.push(note);
  }
  return { entry: built, disabled, notes };
}

function transportOf(declared: unknown, command: unknown, url: unknown): 'stdio' | 'http' | 'sse' | undefined {
  switch (declared) {
    case 'stdio':
    case 'local':
      return 'stdio';
    case 'http':
    case 'streamable-http':
    case 'streamableHttp':
    case 'streamable_http':
      return 'http';
    case 'sse':
      return 'sse';
    case undefined:
      // VS Code's rule: a url without type is tried as Streamable HTTP, then SSE (not Cline's "always SSE").
      return command !== undefined ? 'stdio' : url !== undefined ? 'http' : undefined;
    default:
      return undefined;
  }
}

/** Explains what happens to a field that has no place in `mcp.json`; may also carry it over (OAuth client ids). */
function noteExtraField(field: string, value: unknown, entry: ImportedServerEntry): string | undefined {
  switch (field) {
    case 'autoApprove':
    case 'alwaysAllow':
      return Array.isArray(value) && value.length === 0
        ? undefined
        : `"${field}" (${listOf(value)}) dropped: mcp.json has no per-tool auto-approval; approve tools in MCP Workbench instead`;
    case 'timeout':
      return `"timeout" (${String(value)} s) dropped: mcp.json has no per-server timeout`;
    case 'tools':
      return Array.isArray(value) && value.length === 1 && value[0] === '*'
        ? undefined
        : `"tools" allowlist (${listOf(value)}) dropped: every tool of the server is available`;
    case 'disabledTools':
      return `"disabledTools" (${listOf(value)}) dropped: disable tools in MCP Workbench instead`;
    case 'oauthClientId':
    case 'auth':
    case 'oauth': {
      const clientId =
        field === 'oauthClientId' ? value : isObject(value) ? (value.CLIENT_ID ?? value.clientId) : undefined;
      if (entry.type === 'stdio' || typeof clientId !== 'string')
        return `"${field}" dropped: no equivalent in mcp.json`;
      entry.oauth = { clientId };
      const rest = isObject(value) ? Object.keys(value).filter((key) => key !== 'CLIENT_ID' && key !== 'clientId') : [];
      return `"${field}" imported as "oauth.clientId"${rest.length ? `; ${rest.join(', ')} dropped (VS Code asks for a client secret when needed)` : ''}`;
    }
    default:
      return `"${field}" dropped: not a field of VS Code's mcp.json`;
  }
}

function stringList(value: unknown): string[] | string {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return '"args" must be an array of strings, not one string: split it into items';
  if (
    !Array.isArray(value) ||
    !value.every((item) => typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean')
  ) {
    return '"args" must be an array of strings';
  }
  return value.map(String);
}

function envMap(value: unknown, field = 'env'): Record<string, string | null> | string {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) return `"${field}" must be an object`;
  const result: Record<string, string | null> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === null && field === 'env') result[key] = null;
    else if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean')
      result[key] = String(item);
    else return `"${field}.${key}" must be a string${field === 'env' ? ', a number or null' : ''}`;
  }
  return result;
}

function isUrl(value: string): boolean {
  try {
    return ['http:', 'https:', 'unix:', 'pipe:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function listOf(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(', ') || 'empty' : JSON.stringify(value);
}

/** `mcpServers` (most clients), `servers` (VS Code), or a bare map of servers (allowed in `.mcp.json`). */
export function serverMap(root: Json): Json | string {
  for (const key of ['mcpServers', 'servers']) {
    if (root[key] === undefined) continue;
    return isObject(root[key]) ? root[key] : `"${key}" must be an object that maps names to servers`;
  }
  const values = Object.values(root);
  const bare =
    values.length > 0 &&
    values.every((value) => isObject(value) && ('command' in value || 'url' in value || 'type' in value));
  return bare ? root : {};
}
