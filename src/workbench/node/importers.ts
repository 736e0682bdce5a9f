import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { formatJsonSyntaxProblem, jsonSyntaxProblem } from '../config/jsonSyntax';
import { IMPORT_SOURCE_LABELS, type ImportSourceKind } from './importSources';
import { convertEntry, serverMap, type EntryRules, type ImportedServerEntry } from '../config/dialects/convert';
import { parseMcpConfig, type ServerDefinition } from '../config/mcpConfig';
import { isObject } from '../../protocol/guards';

/**
 * Imports servers from other MCP clients' config files into VS Code's `mcp.json` form. Every entry either becomes a
 * candidate, with notes for anything that could not be carried over, or a skip with a precise reason: users copy
 * configs between clients constantly and a silently dropped server or field is the most common complaint.
 */

export { importKindForFile, knownImportSources, IMPORT_SOURCE_LABELS, type ImportSourceKind } from './importSources';

export type { ImportedServerEntry } from '../config/dialects/convert';

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

const RULES: Record<ImportSourceKind, Omit<EntryRules, 'label'>> = {
  'claude-desktop': { dialect: 'literal', ignoresRemote: true },
  cursor: { dialect: 'vscode' },
  windsurf: { dialect: 'vscode' },
  cline: { dialect: 'vscode', untypedUrl: 'Cline treats a url without "type" as SSE' },
  'workspace-mcp-json': { dialect: 'shell-braced' },
  'copilot-cli': { dialect: 'shell' },
};

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
    const converted = convertEntry({ ...RULES[sourceKind], label: IMPORT_SOURCE_LABELS[sourceKind] }, raw, separator);
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
