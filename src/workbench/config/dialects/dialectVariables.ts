/**
 * Rewrites the variables of another client's config into the forms our resolver (`variables.ts`) understands:
 * `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`, `${env:NAME}`, `${input:id}`. Anything that
 * cannot be carried over exactly produces a note, so an import never changes meaning silently.
 */

export type VariableDialect =
  /** Claude Desktop: no expansion at all. */
  | 'literal'
  /** Cursor, Windsurf, Cline: VS Code-style `${env:NAME}`, `${workspaceFolder}`, ... */
  | 'vscode'
  /** Claude Code's `.mcp.json`: `${VAR}` and `${VAR:-default}`. */
  | 'shell-braced'
  /** Copilot CLI: also bare `$VAR`. */
  | 'shell'
  /** The draft standard `mcp.json`: `${env:X}`, `${input:x}`, `${value:x}`, with `|` fallbacks. */
  | 'standard';

interface TranslatedText {
  value: string;
  notes: string[];
}

const SUPPORTED = new Set(['workspaceFolder', 'workspaceFolderBasename', 'userHome']);
const SUPPORTED_PREFIXES = ['env:', 'input:'];
const BRACED = /\$\{([^}]*)\}/g;

export function translateVariables(
  value: string,
  dialect: VariableDialect,
  where: string,
  pathSeparator: string,
  /** Keep `${VAR:-default}`'s default as `${env:VAR:-default}` (the resolver honours it) rather than drop it. */
  keepDefaults = false,
): TranslatedText {
  const notes: string[] = [];
  if (dialect === 'literal') {
    if (BRACED.test(value))
      notes.push(
        `${where}: "${value}" is passed literally by the source client, but VS Code will substitute its \${...} variables`,
      );
    BRACED.lastIndex = 0;
    return { value, notes };
  }
  let result = value.replace(BRACED, (match, name: string) => {
    if (dialect === 'standard' && name.includes('|')) return standardFallbacks(match, name, where, notes);
    if (dialect === 'standard' && name.startsWith('value:')) return name.slice('value:'.length);
    if (SUPPORTED.has(name) || SUPPORTED_PREFIXES.some((prefix) => name.startsWith(prefix))) return match;
    if (name === 'pathSeparator' || name === '/') return pathSeparator;
    if (dialect !== 'vscode') {
      const shell = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/.exec(name);
      if (shell) {
        if (shell[2] !== undefined && keepDefaults) return `\${env:${shell[1]}:-${shell[2]}}`;
        if (shell[2] !== undefined)
          notes.push(
            `${where}: default "${shell[2]}" of \${${name}} dropped: VS Code has no defaults; an unset ${shell[1]} becomes empty`,
          );
        return `\${env:${shell[1]}}`;
      }
    }
    notes.push(`${where}: unknown variable ${match} kept as is; it will fail to resolve when the server starts`);
    return match;
  });
  if (dialect === 'shell') {
    // Bare $VAR, but not the `$` that starts an already translated `${...}`.
    result = result.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => `\${env:${name}}`);
  }
  return { value: result, notes };
}

/**
 * `${env:A|env:B|literal}`: the first set environment variable, else the last literal. Our resolver takes one
 * variable with a default, so one `env:` and a literal carry over (`${env:A:-literal}`); longer chains and secret
 * URIs (`op://…`) are kept as they are, with a note, and fail to resolve at start rather than start wrong.
 */
function standardFallbacks(match: string, name: string, where: string, notes: string[]): string {
  const parts = name.split('|');
  const [first, ...rest] = parts;
  const literal = rest.length === 1 && !/^[a-z][a-z0-9+.-]*:/i.test(rest[0]) ? rest[0] : undefined;
  if (/^env:[A-Za-z_][A-Za-z0-9_]*$/.test(first) && (rest.length === 0 || literal !== undefined))
    return literal === undefined ? `\${${first}}` : `\${${first}:-${literal}}`;
  if (first.startsWith('value:') && rest.length === 0) return first.slice('value:'.length);
  notes.push(
    `${where}: the fallback chain ${match} is not supported here; it will fail to resolve when the server starts`,
  );
  return match;
}
