/**
 * Resolves `${...}` variables in server definitions: `${workspaceFolder}`, `${workspaceFolderBasename}`,
 * `${userHome}`, `${env:NAME}`, `${input:id}`. Input values are asked for through the resolver because only
 * the host knows how to prompt and where secrets live.
 */

import type { ErrorDetail } from '../../protocol/errors';

export interface VariableContext {
  workspaceFolder?: string;
  userHome: string;
  env: Record<string, string | undefined>;
  /** Returns the value of an input, prompting if needed; undefined means the user gave none. */
  input(id: string): Promise<string | undefined>;
  /**
   * Sees every value substituted from `${env:...}` and `${input:...}`: they are the person's data (tokens more
   * often than not, whatever the variable is called), so callers collect them to mask logs by value.
   */
  revealed?(value: string): void;
}

class UnresolvedVariableError extends Error {
  override readonly name = 'UnresolvedVariableError';
  constructor(
    message: string,
    /** For a host to word it (see ErrorDetail); undefined where only the message says it. */
    readonly detail?: ErrorDetail,
  ) {
    super(message);
  }
}

const VARIABLE = /\$\{([^}]+)\}/g;

export async function resolveVariables(text: string, context: VariableContext): Promise<string> {
  const matches = [...text.matchAll(VARIABLE)];
  if (matches.length === 0) return text;
  let result = '';
  let last = 0;
  for (const match of matches) {
    result += text.slice(last, match.index) + (await resolveOne(match[1], context));
    last = (match.index ?? 0) + match[0].length;
  }
  return result + text.slice(last);
}

async function resolveOne(name: string, context: VariableContext): Promise<string> {
  if (name === 'workspaceFolder') return required(context.workspaceFolder, name, 'no workspace folder is open');
  if (name === 'workspaceFolderBasename') {
    const folder = required(context.workspaceFolder, name, 'no workspace folder is open');
    return folder.split(/[\\/]/).filter(Boolean).pop() ?? folder;
  }
  if (name === 'userHome') return context.userHome;
  if (name.startsWith('env:')) {
    // `${env:NAME:-default}`: Claude Code's `${NAME:-default}` as its files are read live (dialects/): the default
    // stands in when NAME is unset or empty, as in a shell.
    const [variable, fallback] = splitDefault(name.slice(4));
    const set = context.env[variable];
    const value = set === undefined || set === '' ? (fallback ?? set ?? '') : set;
    context.revealed?.(value);
    return value;
  }
  if (name.startsWith('input:')) {
    const id = name.slice(6);
    const value = required(await context.input(id), name, 'no value was given', {
      kind: 'input-without-value',
      input: id,
    });
    context.revealed?.(value);
    return value;
  }
  throw new UnresolvedVariableError(`unknown variable \${${name}}`);
}

function splitDefault(name: string): [string, string | undefined] {
  const at = name.indexOf(':-');
  return at === -1 ? [name, undefined] : [name.slice(0, at), name.slice(at + 2)];
}

function required(value: string | undefined, name: string, why: string, detail?: ErrorDetail): string {
  if (value === undefined) throw new UnresolvedVariableError(`cannot resolve \${${name}}: ${why}`, detail);
  return value;
}

/** Parses a dotenv file: KEY=VALUE lines, optional quotes, # comments. */
export function parseEnvFile(text: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (!line || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    let value = match[2];
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.endsWith(quote) && value.length >= 2) {
      value = value.slice(1, -1);
      if (quote === '"') value = value.replace(/\\n/g, '\n');
    } else {
      const hash = value.indexOf(' #');
      if (hash !== -1) value = value.slice(0, hash).trimEnd();
    }
    result[match[1]] = value;
  }
  return result;
}
