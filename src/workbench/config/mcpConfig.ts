import { findNodeAtLocation, parse as parseJsonc, parseTree, type ParseError } from 'jsonc-parser';
import { formatJsonSyntaxProblem, jsonSyntaxProblem, positionAt, type JsonSyntaxProblem } from './jsonSyntax';
import { ERA_NAMES, eraPreferenceFromName, type EraPreference } from '../../protocol/eras/names';
import { parseDev, type DevOptions } from './devMode';
import { isObject } from '../../protocol/guards';

/**
 * Reads VS Code's `mcp.json` format (`servers`, `inputs`; JSONC). Each bad entry becomes a problem that names
 * the server and the reason, and the remaining servers are still returned.
 */

export type ServerDefinition =
  | {
      kind: 'stdio';
      name: string;
      command: string;
      args: string[];
      env: Record<string, string | null>;
      envFile?: string;
      cwd?: string;
      /** The protocol era to speak (`"era"` in the entry); absent means 'auto'. */
      era?: EraPreference;
      /** Dev mode (`"dev"`): restart on watched changes, attach a debugger (devMode.ts). */
      dev?: DevOptions;
    }
  | {
      kind: 'http';
      name: string;
      url: string;
      headers: Record<string, string>;
      /** 'http' tries Streamable HTTP and falls back to the 2024-11-05 SSE transport; 'sse' forces the latter. */
      transport: 'auto' | 'sse';
      /** A static OAuth client (VS Code's `oauth.clientId`; `clientSecret` for a confidential one) and scopes. */
      oauth?: OAuthClientConfig;
      /** The protocol era to speak (`"era"` in the entry); absent means 'auto'. */
      era?: EraPreference;
      /** Dev mode (`"dev"`): restart on watched changes, attach a debugger (devMode.ts). */
      dev?: DevOptions;
    };

export interface OAuthClientConfig {
  clientId?: string;
  clientSecret?: string;
  scopes?: string[];
  /** An https URL of a Client ID Metadata Document (CIMD), used as the client id where the authorization server supports them. */
  clientMetadataUrl?: string;
}

export interface InputDefinition {
  type: 'promptString' | 'pickString';
  id: string;
  description?: string;
  password?: boolean;
  default?: string;
  options?: string[];
}

export interface ConfigProblem {
  /** The server the problem belongs to, or undefined for the file as a whole. */
  server?: string;
  message: string;
  /** Set when the file does not parse: where, so a view can reveal the spot. */
  syntax?: JsonSyntaxProblem;
  /** A server's problem: where its entry's name is in the text, so a view can open the file at it. */
  at?: TextSpot;
}

/** A place in a config file's text: 1-based line and column (as editors count), 0-based offset and length. */
export interface TextSpot {
  line: number;
  column: number;
  offset: number;
  length: number;
}

interface ParsedConfig {
  servers: ServerDefinition[];
  inputs: InputDefinition[];
  problems: ConfigProblem[];
}

export function parseMcpConfig(text: string): ParsedConfig {
  const errors: ParseError[] = [];
  const root: unknown = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  const problems: ConfigProblem[] = errors.map((error) => {
    const syntax = jsonSyntaxProblem(text, error);
    return { message: formatJsonSyntaxProblem(syntax), syntax };
  });
  if (errors.length > 0 && !isObject(root)) return { servers: [], inputs: [], problems };
  if (!isObject(root))
    return { servers: [], inputs: [], problems: [...problems, { message: 'the file must contain a JSON object' }] };
  const serversKey = root.servers !== undefined && root.servers !== null ? 'servers' : 'mcpServers';
  const serversNode = root[serversKey];
  const servers: ServerDefinition[] = [];
  if (serversNode !== undefined && !isObject(serversNode)) {
    problems.push({ message: '"servers" must be an object that maps names to server definitions' });
  } else if (serversNode) {
    let spotOf: ((name: string) => TextSpot | undefined) | undefined;
    for (const [name, entry] of Object.entries(serversNode)) {
      const parsed = parseServer(name, entry);
      if (typeof parsed !== 'string') {
        servers.push(parsed);
        continue;
      }
      // The text is read as a tree only when an entry is bad (most loads have none).
      spotOf ??= entrySpots(text, serversKey);
      const at = spotOf(name);
      problems.push({ server: name, message: parsed, ...(at ? { at } : {}) });
    }
  }
  const inputs: InputDefinition[] = [];
  if (root.inputs !== undefined) {
    if (!Array.isArray(root.inputs)) problems.push({ message: '"inputs" must be an array' });
    else {
      for (const [index, input] of root.inputs.entries()) {
        const parsed = parseInput(input);
        if (typeof parsed === 'string') problems.push({ message: `inputs[${index}]: ${parsed}` });
        else inputs.push(parsed);
      }
    }
  }
  return { servers, inputs, problems };
}

/** Where each entry's name under `servers` is in the text (the last one, for a name given twice, as JSON.parse keeps). */
function entrySpots(text: string, serversKey: string): (name: string) => TextSpot | undefined {
  const tree = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  return (name) => {
    const value = tree ? findNodeAtLocation(tree, [serversKey, name]) : undefined;
    const key = value?.parent?.type === 'property' ? value.parent.children?.[0] : undefined;
    if (!key) return undefined;
    return { ...positionAt(text, key.offset), offset: key.offset, length: key.length };
  };
}

function parseOAuth(value: unknown): OAuthClientConfig | undefined | string {
  if (value === undefined) return undefined;
  if (!isObject(value)) return '"oauth" must be an object';
  for (const key of ['clientId', 'clientSecret'] as const) {
    if (value[key] !== undefined && (typeof value[key] !== 'string' || value[key] === ''))
      return `"oauth.${key}" must be a non-empty string`;
  }
  if (value.scopes !== undefined && (!Array.isArray(value.scopes) || !value.scopes.every((s) => typeof s === 'string')))
    return '"oauth.scopes" must be an array of strings';
  if (value.clientSecret !== undefined && value.clientId === undefined)
    return '"oauth.clientSecret" needs "oauth.clientId"';
  if (
    value.clientMetadataUrl !== undefined &&
    (typeof value.clientMetadataUrl !== 'string' || !/^https:\/\/[^/]+\/./.test(value.clientMetadataUrl))
  ) {
    return '"oauth.clientMetadataUrl" must be an https URL with a path (a Client ID Metadata Document)';
  }
  return {
    ...(value.clientMetadataUrl !== undefined ? { clientMetadataUrl: value.clientMetadataUrl as string } : {}),
    ...(value.clientId !== undefined ? { clientId: value.clientId as string } : {}),
    ...(value.clientSecret !== undefined ? { clientSecret: value.clientSecret as string } : {}),
    ...(value.scopes !== undefined ? { scopes: value.scopes as string[] } : {}),
  };
}

/** The era a definition asks for: 'auto' (2026-07-28 via server/discover, else the initialize handshake) unless it says otherwise. */
export function eraPreferenceOf(definition: ServerDefinition): EraPreference {
  return definition.era ?? 'auto';
}

function parseEra(value: unknown): EraPreference | undefined | { problem: string } {
  if (value === undefined) return undefined;
  const era = eraPreferenceFromName(value);
  if (era !== undefined) return era;
  return {
    problem: `"era" must be ${ERA_NAMES.map((name) => JSON.stringify(name)).join(', ')}, got ${JSON.stringify(value)}`,
  };
}

/** One entry in VS Code's form, as `servers.<name>` is read: the definition, or why it does not load. */
export function parseServerEntry(name: string, entry: unknown): ServerDefinition | string {
  return parseServer(name, entry);
}

function parseServer(name: string, entry: unknown): ServerDefinition | string {
  if (!isObject(entry)) return 'the definition must be an object';
  const era = parseEra(entry.era);
  if (typeof era === 'object') return era.problem;
  const parsedDev = parseDev(entry.dev);
  if (parsedDev && 'problem' in parsedDev) return parsedDev.problem;
  const dev = parsedDev ? { dev: parsedDev } : {};
  const type = entry.type ?? (entry.command !== undefined ? 'stdio' : entry.url !== undefined ? 'http' : undefined);
  switch (type) {
    case 'stdio':
    case 'local': {
      if (typeof entry.command !== 'string' || entry.command.trim() === '')
        return 'a stdio server needs a "command" string';
      const args = entry.args ?? [];
      if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string' || typeof arg === 'number'))
        return '"args" must be an array of strings';
      const env = parseEnv(entry.env);
      if (typeof env === 'string') return env;
      if (entry.cwd !== undefined && typeof entry.cwd !== 'string') return '"cwd" must be a string';
      if (entry.envFile !== undefined && typeof entry.envFile !== 'string') return '"envFile" must be a string';
      return {
        kind: 'stdio',
        name,
        command: entry.command,
        args: args.map(String),
        env,
        cwd: entry.cwd,
        envFile: entry.envFile,
        ...(era ? { era } : {}),
        ...dev,
      };
    }
    case 'http':
    case 'sse':
    case 'streamable-http':
    case 'streamableHttp': {
      if (typeof entry.url !== 'string' || entry.url.trim() === '') return `an ${type} server needs a "url" string`;
      const headers = entry.headers ?? {};
      if (!isObject(headers) || !Object.values(headers).every((v) => typeof v === 'string'))
        return '"headers" must map names to strings';
      const oauth = parseOAuth(entry.oauth);
      if (typeof oauth === 'string') return oauth;
      return {
        kind: 'http',
        name,
        url: entry.url,
        headers: headers as Record<string, string>,
        transport: type === 'sse' ? 'sse' : 'auto',
        ...(oauth ? { oauth } : {}),
        ...(era ? { era } : {}),
        ...dev,
      };
    }
    case undefined:
      return 'the definition needs "command" (stdio) or "url" (http)';
    default:
      return `unknown server type ${JSON.stringify(type)} (expected "stdio", "http" or "sse")`;
  }
}

function parseEnv(env: unknown): Record<string, string | null> | string {
  if (env === undefined) return {};
  if (!isObject(env)) return '"env" must be an object';
  const result: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === null) result[key] = null;
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      result[key] = String(value);
    else return `"env.${key}" must be a string, a number or null`;
  }
  return result;
}

function parseInput(input: unknown): InputDefinition | string {
  if (!isObject(input)) return 'must be an object';
  if (typeof input.id !== 'string' || !input.id) return 'needs an "id"';
  if (input.type !== 'promptString' && input.type !== 'pickString')
    return `input ${input.id}: type must be "promptString" or "pickString"`;
  if (input.type === 'pickString' && (!Array.isArray(input.options) || input.options.length === 0))
    return `input ${input.id}: pickString needs "options"`;
  return {
    type: input.type,
    id: input.id,
    description: typeof input.description === 'string' ? input.description : undefined,
    password: input.password === true,
    default: typeof input.default === 'string' ? input.default : undefined,
    options: Array.isArray(input.options) ? input.options.map(String) : undefined,
  };
}

/** Whether the text failed to parse (a half-typed edit), as opposed to parsing into a bad definition. */
export function hasSyntaxErrors(parsed: ParsedConfig): boolean {
  return parsed.problems.some((problem) => problem.syntax !== undefined);
}
