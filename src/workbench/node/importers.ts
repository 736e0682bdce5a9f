import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { formatJsonSyntaxProblem, jsonSyntaxProblem } from '../config/jsonSyntax';
import { IMPORT_SOURCE_LABELS, type ImportSourceKind } from './importSources';
import { translateVariables, type VariableDialect } from './importVariables';
import { parseMcpConfig, type ServerDefinition } from '../config/mcpConfig';
import { isObject } from '../../protocol/guards';

/**
 * Imports servers from other MCP clients' config files into VS Code's `mcp.json` form. Every entry either becomes a
 * candidate, with notes for anything that could not be carried over, or a skip with a precise reason: users copy
 * configs between clients constantly and a silently dropped server or field is the most common complaint.
 */

export { importKindForFile, knownImportSources, IMPORT_SOURCE_LABELS, type ImportSourceKind } from './importSources';

interface StdioImportEntry {
  type: 'stdio';
  command: string;
  args?: string[];
  env?: Record<string, string | null>;
  cwd?: string;
  envFile?: string;
}

interface RemoteImportEntry {
  type: 'http' | 'sse';
  url: string;
  headers?: Record<string, string>;
  oauth?: { clientId: string };
}

/** Ready to be written under `servers.<name>` in `mcp.json`. */
export type ImportedServerEntry = StdioImportEntry | RemoteImportEntry;

export interface ImportCandidate {
  /** Unique against `takenNames` and the other candidates; may differ from `originalName`. */
  name: string;
  originalName: string;
  source: ImportSourceKind;
  filePath: string;
  entry: ImportedServerEntry;
  /** What `parseMcpConfig` makes of `entry`: proof that the written entry will load. */
  definition: ServerDefinition;
  /** The source client had the server turned off. */
  disabled: boolean;
  notes: string[];
}

export interface ImportSkip {
  /** The server name, or the file path when the whole file was skipped. */
  name: string;
  reason: string;
}

export interface ImportResult {
  found: ImportCandidate[];
  skipped: ImportSkip[];
}

interface ImportOptions {
  /** Names already in the target `mcp.json`; candidates get a suffix instead of overwriting them. */
  takenNames?: Iterable<string>;
  /** Used for `${pathSeparator}`; defaults to the running platform. */
  platform?: NodeJS.Platform;
}

interface SourceRules {
  dialect: VariableDialect;
  /** What the source does with `url` and no `type`, for a note when that differs from VS Code. */
  untypedUrl?: string;
}

const RULES: Record<ImportSourceKind, SourceRules> = {
  'claude-desktop': { dialect: 'literal' },
  cursor: { dialect: 'vscode' },
  windsurf: { dialect: 'vscode' },
  cline: { dialect: 'vscode', untypedUrl: 'Cline treats a url without "type" as SSE' },
  'workspace-mcp-json': { dialect: 'shell-braced' },
  'copilot-cli': { dialect: 'shell' },
};

type Json = Record<string, unknown>;

export function importServers(
  sourceKind: ImportSourceKind,
  text: string,
  filePath: string,
  options: ImportOptions = {},
): ImportResult {
  const result: ImportResult = { found: [], skipped: [] };
  if (text.trim() === '') return result;
  const errors: ParseError[] = [];
  const root: unknown = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    result.skipped.push({
      name: filePath,
      reason: `invalid JSON: ${formatJsonSyntaxProblem(jsonSyntaxProblem(text, errors[0]))}`,
    });
    return result;
  }
  if (!isObject(root)) {
    result.skipped.push({ name: filePath, reason: 'the file must contain a JSON object' });
    return result;
  }
  const map = serverMap(root);
  if (typeof map === 'string') {
    result.skipped.push({ name: filePath, reason: map });
    return result;
  }
  const taken = [...(options.takenNames ?? [])];
  const separator = (options.platform ?? process.platform) === 'win32' ? '\\' : '/';
  for (const [originalName, raw] of Object.entries(map)) {
    const converted = convertEntry(sourceKind, originalName, raw, separator);
    if (typeof converted === 'string') {
      result.skipped.push({ name: originalName, reason: converted });
      continue;
    }
    // Round-trip through the real parser, so a candidate is exactly what the extension will load.
    const parsed = parseMcpConfig(JSON.stringify({ servers: { [originalName]: converted.entry } }));
    const definition = parsed.servers[0];
    if (!definition) {
      result.skipped.push({
        name: originalName,
        reason: parsed.problems[0]?.message ?? 'not a valid server definition',
      });
      continue;
    }
    const name = uniqueName(originalName, taken);
    taken.push(name);
    if (name !== originalName)
      converted.notes.unshift(`renamed to "${name}": a server named "${originalName}" already exists`);
    result.found.push({
      name,
      originalName,
      source: sourceKind,
      filePath,
      entry: converted.entry,
      definition: { ...definition, name },
      disabled: converted.disabled,
      notes: converted.notes,
    });
  }
  return result;
}

/**
 * `name` if it is free, else `name-2`, `name-3`, ... Comparison ignores case: "GitHub" next to "github" in one list
 * is confusing even though JSON keys would allow it.
 */
export function uniqueName(name: string, taken: Iterable<string>): string {
  const base = name.trim() === '' ? 'server' : name;
  const used = new Set([...taken].map((item) => item.toLowerCase()));
  if (!used.has(base.toLowerCase())) return base;
  for (let suffix = 2; ; suffix++) {
    const candidate = `${base}-${suffix}`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}

/** `mcpServers` (most clients), `servers` (VS Code), or a bare map of servers (allowed in `.mcp.json`). */
function serverMap(root: Json): Json | string {
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

interface Converted {
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

function convertEntry(source: ImportSourceKind, name: string, raw: unknown, separator: string): Converted | string {
  if (!isObject(raw)) return 'the definition must be an object';
  // Cline's CLI format nests the transport: { transport: { type, command, ... }, disabled, autoApprove }.
  const entry: Json = isObject(raw.transport) ? { ...raw, ...raw.transport } : raw;
  const label = IMPORT_SOURCE_LABELS[source];
  const rules = RULES[source];
  const notes: string[] = [];
  const translate = (value: string, where: string) => {
    const translated = translateVariables(value, rules.dialect, where, separator);
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
    if (source === 'claude-desktop')
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
      if (disabled) notes.push(`disabled in ${label}: imported anyway but marked disabled`);
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
