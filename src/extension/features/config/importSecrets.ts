import type { InputEntry } from '../../../workbench/config/jsoncEdit';
import type { ImportedServerEntry } from '../../../workbench/node/importers';

/**
 * Literal secrets in imported servers: another client's config may hold `"Authorization": "Bearer sk-…"` or
 * `"API_KEY": "…"` in clear, which is fine in a file of one user's home but not in a folder's `.vscode/mcp.json`,
 * shared with everyone who gets the folder. Each such value can become a password input (`${input:…}`, asked at the
 * first start and kept in VS Code's secret storage); an auth scheme in front of the token stays ("Bearer ${input:…}").
 * No vscode import: it runs in unit tests.
 */
interface LiteralSecret {
  where: 'headers' | 'env';
  key: string;
}

/** Names whose values are secrets by convention; a value with a `${…}` placeholder is already not literal. */
const SECRET_NAME = /token|secret|passw(or)?d|api[-_]?key|auth|credential|private[-_]?key|access[-_]?key|cookie/i;
const SCHEME = /^(Bearer|Basic|Token|Bot)\s+/i;

export function literalSecrets(entry: ImportedServerEntry): LiteralSecret[] {
  const values =
    entry.type === 'stdio'
      ? { where: 'env' as const, map: entry.env ?? {} }
      : { where: 'headers' as const, map: entry.headers ?? {} };
  return Object.entries(values.map).flatMap(([key, value]) => {
    if (typeof value !== 'string' || !SECRET_NAME.test(key)) return [];
    const secret = value.replace(SCHEME, '');
    return secret.trim() === '' || secret.includes('${') ? [] : [{ where: values.where, key }];
  });
}

/** The input id of a secret: the server's and the key's names, in the characters an input id may use. */
function secretInputId(serverName: string, key: string): string {
  return (
    `${serverName}-${key}`
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'secret'
  );
}

/** The entry with each literal secret replaced by a password input, and the inputs to add to the file. */
export function withPasswordInputs(
  serverName: string,
  entry: ImportedServerEntry,
  takenIds: readonly string[] = [],
): { entry: ImportedServerEntry; inputs: InputEntry[] } {
  const secrets = literalSecrets(entry);
  if (secrets.length === 0) return { entry, inputs: [] };
  const taken = new Set(takenIds);
  const inputs: InputEntry[] = [];
  const replaced: Record<string, string | null> = {
    ...(entry.type === 'stdio' ? (entry.env ?? {}) : (entry.headers ?? {})),
  };
  for (const { key } of secrets) {
    let id = secretInputId(serverName, key);
    for (let n = 2; taken.has(id); n++) id = `${secretInputId(serverName, key)}-${n}`;
    taken.add(id);
    const value = String(replaced[key]);
    const scheme = SCHEME.exec(value)?.[0] ?? '';
    replaced[key] = `${scheme}\${input:${id}}`;
    inputs.push({ type: 'promptString', id, description: `${key} of ${serverName}`, password: true });
  }
  if (entry.type === 'stdio') return { entry: { ...entry, env: replaced }, inputs };
  return { entry: { ...entry, headers: replaced as Record<string, string> }, inputs };
}
