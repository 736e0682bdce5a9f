import type { ServerDefinition } from '../mcpConfig';

/**
 * The same server kept in two files (a person copies entries between clients) is one row naming both sources. Same
 * means the same launch: command line, cwd and environment for a local server; URL and headers for a remote one.
 * Names may differ between the files; the first source (in the caller's order) names the row.
 */

export interface SourcedServer<S> {
  definition: ServerDefinition;
  source: S;
}

export interface MergedServer<S> {
  definition: ServerDefinition;
  /** The first is the one the row uses (its scope, its trust); the others are shown as "also in". */
  sources: S[];
}

export function launchKey(definition: ServerDefinition): string {
  switch (definition.kind) {
    case 'stdio': {
      const env = Object.entries(definition.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return JSON.stringify([
        'stdio',
        definition.command,
        definition.args,
        definition.cwd ?? null,
        definition.envFile ?? null,
        env,
      ]);
    }
    case 'http': {
      const headers = Object.entries(definition.headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return JSON.stringify(['http', definition.url, definition.transport, headers]);
    }
    default: {
      const exhaustive: never = definition;
      return exhaustive;
    }
  }
}

/**
 * Merges in order; `mayMerge` decides whether two sources may share a row at all (the caller keeps a workspace's
 * server apart from the person's own, so sharing a row never changes which trust and consent apply).
 */
export function dedupeServers<S>(
  servers: readonly SourcedServer<S>[],
  mayMerge: (first: S, other: S) => boolean = () => true,
): MergedServer<S>[] {
  const merged: MergedServer<S>[] = [];
  const byKey = new Map<string, MergedServer<S>[]>();
  for (const { definition, source } of servers) {
    const key = launchKey(definition);
    const candidates = byKey.get(key) ?? [];
    const into = candidates.find((row) => mayMerge(row.sources[0], source));
    if (into) {
      into.sources.push(source);
      continue;
    }
    const row = { definition, sources: [source] };
    candidates.push(row);
    byKey.set(key, candidates);
    merged.push(row);
  }
  return merged;
}
