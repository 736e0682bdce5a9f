import type { ServerDefinition } from './mcpConfig';

/**
 * Compares two sets of server definitions by name so that, after `mcp.json` changes, only servers whose definition
 * really changed are restarted. Comparison is deep and ignores key order and properties set to `undefined`
 * (a parser that writes `cwd: undefined` and one that omits `cwd` describe the same server).
 */

interface ChangedServer {
  name: string;
  before: ServerDefinition;
  after: ServerDefinition;
}

interface ServerDiff {
  added: ServerDefinition[];
  removed: ServerDefinition[];
  changed: ChangedServer[];
  unchanged: ServerDefinition[];
}

/** Names are unique within one config; if a list repeats a name, the last definition wins (as in a JSON object). */
export function diffServerDefinitions(
  before: readonly ServerDefinition[],
  after: readonly ServerDefinition[],
): ServerDiff {
  const previous = new Map(before.map((definition) => [definition.name, definition]));
  const next = new Map(after.map((definition) => [definition.name, definition]));
  const diff: ServerDiff = { added: [], removed: [], changed: [], unchanged: [] };
  for (const [name, definition] of next) {
    const old = previous.get(name);
    if (old === undefined) diff.added.push(definition);
    else if (deepEqual(old, definition)) diff.unchanged.push(definition);
    else diff.changed.push({ name, before: old, after: definition });
  }
  for (const [name, definition] of previous) if (!next.has(name)) diff.removed.push(definition);
  return diff;
}

/** Structural equality for JSON-like values; array order matters (args), object key order does not. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, index) => deepEqual(item, b[index]));
  const left = definedEntries(a);
  const right = definedEntries(b);
  if (left.size !== right.size) return false;
  for (const [key, value] of left) {
    if (!right.has(key) || !deepEqual(value, right.get(key))) return false;
  }
  return true;
}

function definedEntries(value: object): Map<string, unknown> {
  return new Map(Object.entries(value).filter(([, item]) => item !== undefined));
}
