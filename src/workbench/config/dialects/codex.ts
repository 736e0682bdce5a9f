import { parseServerEntry, type ConfigProblem } from '../mcpConfig';
import { formatJsonSyntaxProblem } from '../jsonSyntax';
import { parseToml, type TomlTable, type TomlValue } from './toml';
import { MAX_CONFIG_BYTES, tooLargeProblem, type Dialect, type DialectRead, type DialectServer } from './types';

/**
 * Codex's `~/.codex/config.toml`: `[mcp_servers.<name>]` with `command`, `args`, `env`, `cwd` (local) or `url`,
 * `bearer_token_env_var`, `http_headers`, `env_http_headers` (remote). Read only: Codex rewrites the file itself, and a
 * TOML writer that keeps comments is more than one Copy Server to… is worth.
 */

const CLIENT = 'Codex';
const HANDLED = new Set([
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'bearer_token_env_var',
  'http_headers',
  'env_http_headers',
  'enabled',
]);

const isTable = (value: TomlValue | undefined): value is TomlTable =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const strings = (value: TomlValue | undefined): value is TomlTable =>
  isTable(value) && Object.values(value).every((item) => typeof item === 'string');

export function readCodex(text: string): DialectRead {
  if (text.length > MAX_CONFIG_BYTES) return { servers: [], inputs: [], problems: [tooLargeProblem(text.length)] };
  const parsed = parseToml(text);
  if ('problem' in parsed)
    return {
      servers: [],
      inputs: [],
      problems: [{ message: formatJsonSyntaxProblem(parsed.problem), syntax: parsed.problem }],
    };
  const result: DialectRead = { servers: [], inputs: [], problems: [] };
  const map = parsed.value.mcp_servers;
  if (map === undefined) return result;
  if (!isTable(map)) return { ...result, problems: [{ message: '"mcp_servers" must be a table' }] };
  for (const [name, raw] of Object.entries(map)) {
    const read = readServer(name, raw);
    if (typeof read === 'string') result.problems.push(problemAt(text, name, read));
    else result.servers.push({ ...read, ...spot(text, name) });
  }
  return result;
}

function readServer(name: string, raw: TomlValue): Omit<DialectServer, 'at'> | string {
  if (!isTable(raw)) return 'the definition must be a table';
  const notes: string[] = [];
  let entry: Record<string, unknown>;
  if (raw.command !== undefined) {
    if (raw.env !== undefined && !strings(raw.env)) return '"env" must map names to strings';
    entry = { type: 'stdio', command: raw.command, args: raw.args, env: raw.env, cwd: raw.cwd };
  } else if (raw.url !== undefined) {
    const headers: Record<string, string> = {};
    if (raw.http_headers !== undefined) {
      if (!strings(raw.http_headers)) return '"http_headers" must map names to strings';
      Object.assign(headers, raw.http_headers);
    }
    if (raw.env_http_headers !== undefined) {
      if (!strings(raw.env_http_headers)) return '"env_http_headers" must map names to variable names';
      for (const [header, variable] of Object.entries(raw.env_http_headers)) headers[header] = `\${env:${variable}}`;
    }
    if (raw.bearer_token_env_var !== undefined) {
      if (typeof raw.bearer_token_env_var !== 'string') return '"bearer_token_env_var" must be a string';
      headers.Authorization = `Bearer \${env:${raw.bearer_token_env_var}}`;
    }
    entry = { type: 'http', url: raw.url, headers };
  } else return 'the definition needs "command" (local) or "url" (remote)';
  if (raw.enabled === false)
    notes.push(`turned off in ${CLIENT} ("enabled = false"): shown here, started only when you start it`);
  for (const field of Object.keys(raw))
    if (!HANDLED.has(field)) notes.push(`"${field}" not honoured: MCP Workbench has no such setting`);
  const definition = parseServerEntry(name, JSON.parse(JSON.stringify(entry)) as unknown);
  return typeof definition === 'string' ? definition : { definition, notes };
}

/** The `[mcp_servers.<name>]` header (or the first line naming the server), so the row opens the file there. */
function spot(text: string, name: string): Pick<DialectServer, 'at'> {
  const quoted = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`^\\[\\s*mcp_servers\\.(?:"${quoted}"|'${quoted}'|${quoted})\\s*[\\].]`, 'm').exec(text);
  if (!match) return {};
  const before = text.slice(0, match.index);
  const line = before.split('\n').length;
  return { at: { line, column: 1, offset: match.index, length: match[0].length } };
}

function problemAt(text: string, name: string, message: string): ConfigProblem {
  return { server: name, message, ...spot(text, name) };
}

export const codex: Dialect = {
  id: 'codex',
  label: 'Codex (~/.codex/config.toml)',
  client: CLIENT,
  read: readCodex,
  write: () => ({ refused: ["Codex's config.toml is read here, not written: add the server with `codex mcp add`"] }),
};
