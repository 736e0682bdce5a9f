import type { JsonObject } from '../../types';

/**
 * Result caching of the 2026-07-28 era (server/utilities/caching.mdx): list and read results carry `ttlMs`
 * (how long the result stays fresh) and `cacheScope` (`public` or `private`: whether it may be shared across
 * authorization contexts). This cache belongs to one connection, i.e. one authorization context, so both
 * scopes may be reused here; `public` is only a licence for shared caches, which this client does not have.
 */

export const CACHEABLE_METHODS: ReadonlySet<string> = new Set(['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list', 'resources/read', 'server/discover']);

export type CacheLookup = { kind: 'fresh'; result: JsonObject } | { kind: 'miss' };

interface Entry {
  result: JsonObject;
  expiresAt: number;
}

/** The cache key: method plus params without `_meta` (which is the same on every request of a connection). */
export function cacheKey(method: string, params: JsonObject | undefined): string {
  const rest: JsonObject = { ...(params ?? {}) };
  delete rest._meta;
  return `${method} ${stableStringify(rest)}`;
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as JsonObject;
    return `{${Object.keys(record).sort().map((key) => `${JSON.stringify(key)}:${stableStringify(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** How long a result may be served from the cache: a positive, finite `ttlMs`, else not at all. */
export function freshnessMs(result: JsonObject): number {
  const ttl = result.ttlMs;
  return typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0 ? ttl : 0;
}

export class ResultCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  lookup(method: string, params: JsonObject | undefined): CacheLookup {
    // Most requests (every tools/call) are never cached: no key to serialize for them.
    if (!CACHEABLE_METHODS.has(method)) return { kind: 'miss' };
    const key = cacheKey(method, params);
    const entry = this.entries.get(key);
    if (!entry) return { kind: 'miss' };
    if (this.now() >= entry.expiresAt) {
      this.entries.delete(key);
      return { kind: 'miss' };
    }
    return { kind: 'fresh', result: entry.result };
  }

  store(method: string, params: JsonObject | undefined, result: JsonObject): void {
    if (!CACHEABLE_METHODS.has(method)) return;
    const ttl = freshnessMs(result);
    const key = cacheKey(method, params);
    if (ttl === 0) {
      this.entries.delete(key);
      return;
    }
    this.entries.set(key, { result, expiresAt: this.now() + ttl });
  }

  /** Forget results of one method (after a list_changed notification) or, without a method, everything. */
  invalidate(method?: string, matches?: (params: JsonObject) => boolean): void {
    if (method === undefined) {
      this.entries.clear();
      return;
    }
    for (const key of [...this.entries.keys()]) {
      if (!key.startsWith(`${method} `)) continue;
      if (matches && !matches(JSON.parse(key.slice(method.length + 1)) as JsonObject)) continue;
      this.entries.delete(key);
    }
  }
}
