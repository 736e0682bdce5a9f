import { findNodeAtLocation, getNodeValue, parseTree, type Node, type ParseError } from 'jsonc-parser';
import { isObject } from '../../../protocol/guards';
import { addServerAtPath } from '../jsoncEdit';
import { formatJsonSyntaxProblem, jsonSyntaxProblem, positionAt } from '../jsonSyntax';
import { parseMcpConfig, parseServerEntry, type ConfigProblem, type TextSpot } from '../mcpConfig';
import { convertEntry, serverMap, type EntryRules } from './convert';
import { MAX_CONFIG_BYTES, tooLargeProblem, type DialectRead, type DialectServer, type ReadOrigin } from './types';

/**
 * The two families the JSON dialects fall into: VS Code's own (`servers` + `inputs`, read by parseMcpConfig, found at
 * some path in the file) and everyone else's `mcpServers` (each entry converted by convert.ts, as Import does).
 */

type Json = Record<string, unknown>;
const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true } as const;

interface Parsed {
  tree: Node | undefined;
  root: unknown;
  problems: ConfigProblem[];
}

/** Parses JSONC; a syntax error (a half-written file) is a problem with `syntax`, so the host keeps the last good servers. */
function parseText(text: string, maxBytes = MAX_CONFIG_BYTES): Parsed | DialectRead {
  if (text.length > maxBytes) return { servers: [], inputs: [], problems: [tooLargeProblem(text.length)] };
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, PARSE_OPTIONS);
  if (errors.length > 0) {
    const problems = errors.map((error) => {
      const syntax = jsonSyntaxProblem(text, error);
      return { message: formatJsonSyntaxProblem(syntax), syntax };
    });
    return { servers: [], inputs: [], problems };
  }
  const root: unknown = tree ? getNodeValue(tree) : {};
  if (!isObject(root))
    return { servers: [], inputs: [], problems: [{ message: 'the file must contain a JSON object' }] };
  return { tree, root, problems: [] };
}

function spotOf(text: string, tree: Node | undefined, path: readonly (string | number)[]): TextSpot | undefined {
  const value = tree ? findNodeAtLocation(tree, [...path]) : undefined;
  const key = value?.parent?.type === 'property' ? value.parent.children?.[0] : undefined;
  if (!key) return undefined;
  return { ...positionAt(text, key.offset), offset: key.offset, length: key.length };
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) node = isObject(node) ? node[key] : undefined;
  return node;
}

/** VS Code's format found at one of `paths` (the first present): `.code-workspace`'s `mcp`, a devcontainer's customization. */
export function readVscodeFamily(text: string, paths: readonly (readonly string[])[]): DialectRead {
  const parsed = parseText(text);
  if (!('tree' in parsed)) return parsed;
  const path = paths.find((candidate) => valueAt(parsed.root, candidate) !== undefined);
  if (path === undefined) return { servers: [], inputs: [], problems: [] };
  const section = valueAt(parsed.root, path);
  if (!isObject(section))
    return { servers: [], inputs: [], problems: [{ message: `"${path.join('.')}" must be an object` }] };
  const config = path.length === 0 ? parseMcpConfig(text) : parseMcpConfig(JSON.stringify(section));
  const key = section.servers !== undefined && section.servers !== null ? 'servers' : 'mcpServers';
  const at = (name: string) => spotOf(text, parsed.tree, [...path, key, name]);
  return {
    servers: config.servers.map((definition) => ({ definition, notes: [], at: at(definition.name) })),
    inputs: config.inputs,
    problems: config.problems.map((problem) =>
      problem.server !== undefined && path.length > 0 ? { ...problem, at: at(problem.server) } : problem,
    ),
  };
}

export interface McpServersSpec {
  client: string;
  rules: Omit<EntryRules, 'label' | 'live' | 'keepDefaults'>;
  /** Where the maps of servers are: `[["mcpServers"]]`, or Claude Code's user map and this folder's project map. */
  maps(root: Json, origin: ReadOrigin): { path: string[]; shadows?: boolean }[];
  /** A size cap above MAX_CONFIG_BYTES, for a file that holds more than servers (Claude Code's). */
  maxBytes?: number;
  /** `.mcp.json`: a file that is itself the map of servers. */
  bareMap?: boolean;
  /** Accepted `type` values (others are a problem on the entry); `required` when an entry must say its type. */
  types: readonly string[];
  typeRequired?: boolean;
  /** Fields the client reads, per kind of entry: any other field is a note (not read, as the client does not). */
  fields?: { local: readonly string[]; remote: readonly string[]; why: string };
  /** A note for an entry, after conversion (e.g. `${…}` VS Code would refuse in this file). */
  extraNotes?(raw: Json): string[];
  /** The client reads `tools` as an allow-list of the server's tools (Copilot): kept on the server, not dropped. */
  toolsAllowList?: boolean;
}

/** Reads an `mcpServers` file as `spec`'s client does. */
export function readMcpServers(spec: McpServersSpec, text: string, origin: ReadOrigin): DialectRead {
  const parsed = parseText(text, spec.maxBytes);
  if (!('tree' in parsed)) return parsed;
  const root = parsed.root as Json;
  const result: DialectRead = { servers: [], inputs: [], problems: [] };
  if (root.inputs !== undefined)
    result.problems.push({
      message: `"inputs" is not supported in ${spec.client}'s file: not read (use .vscode/mcp.json for prompted values)`,
    });
  const maps = spec.maps(root, origin);
  const seen = new Map<string, DialectServer>();
  for (const { path, shadows } of maps) {
    let map: unknown = valueAt(root, path);
    let mapPath = path;
    if (map === undefined && spec.bareMap && path.length === 1) {
      const bare = serverMap(root);
      map = typeof bare === 'string' ? undefined : bare;
      mapPath = map === root ? [] : path;
    }
    if (map === undefined) continue;
    if (!isObject(map)) {
      result.problems.push({ message: `"${path.join('.')}" must be an object that maps names to servers` });
      continue;
    }
    for (const [name, raw] of Object.entries(map)) {
      const at = spotOf(text, parsed.tree, [...mapPath, name]);
      const read = readEntry(spec, name, raw, origin);
      if (typeof read === 'string') {
        result.problems.push({ server: name, message: read, ...(at ? { at } : {}) });
        continue;
      }
      const server: DialectServer = { ...read, ...(at ? { at } : {}) };
      const earlier = seen.get(name);
      if (earlier) {
        // Claude Code: this folder's project entry wins over a user entry of the same name; say so on the loser.
        const [kept, lost] = shadows ? [server, earlier] : [earlier, server];
        result.servers = result.servers.filter((other) => other !== earlier);
        result.servers.push(kept);
        seen.set(name, kept);
        result.problems.push({
          server: name,
          message: `another entry named "${name}" in the same file takes precedence (${spec.client} uses this folder's project entry)`,
          ...(lost.at ? { at: lost.at } : {}),
        });
        continue;
      }
      seen.set(name, server);
      result.servers.push(server);
    }
  }
  return result;
}

function readEntry(spec: McpServersSpec, name: string, raw: unknown, origin: ReadOrigin): DialectServer | string {
  if (!isObject(raw)) return 'the definition must be an object';
  if (raw.type === undefined && spec.typeRequired)
    return `"type" is required in ${spec.client}'s format (${spec.types.join(', ')})`;
  if (raw.type !== undefined && !spec.types.includes(String(raw.type)))
    return `unknown server type ${JSON.stringify(raw.type)} (${spec.client} accepts ${spec.types.join(', ')})`;
  const notes: string[] = [];
  let entry: Json = raw;
  if (spec.fields) {
    const local = raw.command !== undefined || raw.type === 'stdio' || raw.type === 'local';
    const allowed = local ? spec.fields.local : spec.fields.remote;
    entry = {};
    for (const [field, value] of Object.entries(raw)) {
      if (allowed.includes(field)) entry[field] = value;
      else notes.push(`"${field}" not read: ${spec.fields.why}`);
    }
  }
  const allowedTools = spec.toolsAllowList ? toolsAllowList(entry.tools) : undefined;
  if (allowedTools !== undefined) {
    const { tools: _honoured, ...rest } = entry;
    entry = rest;
  }
  const converted = convertEntry(
    { ...spec.rules, label: spec.client, keepDefaults: true, live: true },
    entry,
    origin.pathSeparator ?? '/',
  );
  if (typeof converted === 'string') return converted;
  const definition = parseServerEntry(name, converted.entry);
  if (typeof definition === 'string') return definition;
  return {
    definition,
    notes: [...notes, ...converted.notes, ...(spec.extraNotes?.(raw) ?? [])],
    ...(allowedTools !== undefined && allowedTools !== 'all' ? { allowedTools } : {}),
  };
}

/** `tools` as Copilot reads it: a list of names, `"*"` among them meaning every tool; anything else is not a list. */
function toolsAllowList(value: unknown): string[] | 'all' | undefined {
  if (value === undefined) return 'all';
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return undefined;
  return value.includes('*') ? 'all' : [...new Set(value as string[])];
}

/** Adds an entry under the file's map (`mcpServers` unless the file is a bare map), creating it when missing. */
export function addToMap(text: string, mapPath: readonly string[], name: string, entry: Json, bareMap = false): string {
  if (bareMap && text.trim() !== '') {
    const parsed = parseText(text, Infinity);
    if ('tree' in parsed && valueAt(parsed.root, mapPath) === undefined) {
      const bare = serverMap(parsed.root as Json);
      if (typeof bare !== 'string' && bare === parsed.root && Object.keys(bare).length > 0)
        return addServerAtPath(text, [], name, entry);
    }
  }
  return addServerAtPath(text, mapPath, name, entry);
}
