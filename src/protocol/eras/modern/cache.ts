import type { JsonObject } from '../../types';

/**
 * Result caching of the 2026-07-28 era (server/utilities/caching.mdx): list and read results carry `ttlMs`
 * (how long the result stays fresh) and `cacheScope` (`public` or `private`: whether it may be shared across
 * authorization contexts). This cache belongs to one connection, i.e. one authorization context, so both
 * scopes may be reused here; `public` is only a licence for shared caches, which this client does not have.
 */

const CACHEABLE_METHODS: ReadonlySet<string> = new Set([
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'prompts/list',
  'resources/read',
  'server/discover',
]);

type CacheLookup = { kind: 'fresh'; result: JsonObject } | { kind: 'miss' };

const MISS: CacheLookup = Object.freeze({ kind: 'miss' });

interface Entry {
  result: JsonObject;
  expiresAt: number;
}

/** The cache key: method plus params without `_meta` (which is the same on every request of a connection). */
function cacheKey(method: string, params: JsonObject | undefined): string {
  const rest: JsonObject = { ...(params ?? {}) };
  delete rest._meta;
  return `${method} ${stableStringify(rest)}`;
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as JsonObject;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableStringify(record[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** How long a result may be served from the cache: a positive, finite `ttlMs`, else not at all. */
function freshnessMs(result: JsonObject): number {
  const ttl = result.ttlMs;
  return typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0 ? ttl : 0;
}

/** What the cache keeps at most unless told otherwise: a few large reads, never the host's heap. */
const DEFAULT_CACHE_MAX_BYTES = 64 * 1024 * 1024;

interface ResultCacheOptions {
  /** The total size (estimated bytes of the results' JSON) the cache keeps; the oldest entries are evicted first. */
  maxBytes?: number;
  now?: () => number;
}

interface SizedEntry extends Entry {
  bytes: number;
}

/**
 * One connection's fresh results. Bounded by bytes: a server's ttlMs says how long a result may be reused, not how
 * much memory it may hold, so five distinct 50 MB reads must not all stay on the heap. A Map iterates in insertion
 * order and an entry is re-inserted when stored again, so the first key is always the oldest.
 */
export class ResultCache {
  private readonly entries = new Map<string, SizedEntry>();
  private readonly maxBytes: number;
  private readonly now: () => number;
  private totalBytes = 0;

  constructor(options: ResultCacheOptions = {}) {
    this.maxBytes = options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES;
    this.now = options.now ?? Date.now;
  }

  /** Estimated bytes of everything kept (for tests and diagnostics). */
  get bytes(): number {
    return this.totalBytes;
  }

  get size(): number {
    return this.entries.size;
  }

  lookup(method: string, params: JsonObject | undefined): CacheLookup {
    // Most requests (every tools/call) are never cached: no key to serialize for them, and no answer of their own.
    if (!CACHEABLE_METHODS.has(method)) return MISS;
    const key = cacheKey(method, params);
    const entry = this.entries.get(key);
    if (!entry) return MISS;
    if (this.now() >= entry.expiresAt) {
      this.remove(key);
      return MISS;
    }
    return { kind: 'fresh', result: entry.result };
  }

  store(method: string, params: JsonObject | undefined, result: JsonObject): void {
    if (!CACHEABLE_METHODS.has(method)) return;
    const ttl = freshnessMs(result);
    const key = cacheKey(method, params);
    this.remove(key);
    if (ttl === 0) return;
    const bytes = estimatedBytes(result, this.maxBytes);
    // A result larger than the whole budget is never kept (and never pushes out everything else).
    if (bytes > this.maxBytes) return;
    while (this.totalBytes + bytes > this.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.remove(oldest.value);
    }
    this.entries.set(key, { result, expiresAt: this.now() + ttl, bytes });
    this.totalBytes += bytes;
  }

  /** Forget results of one method (after a list_changed notification) or, without a method, everything. */
  invalidate(method?: string, matches?: (params: JsonObject) => boolean): void {
    if (method === undefined) {
      this.entries.clear();
      this.totalBytes = 0;
      return;
    }
    for (const key of [...this.entries.keys()]) {
      if (!key.startsWith(`${method} `)) continue;
      if (matches && !matches(JSON.parse(key.slice(method.length + 1)) as JsonObject)) continue;
      this.remove(key);
    }
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.totalBytes -= entry.bytes;
  }
}

/** A change notification makes the cached list (or read) it names stale. */
export function invalidateOnNotification(cache: ResultCache, method: string, params: JsonObject): void {
  switch (method) {
    case 'notifications/tools/list_changed':
      cache.invalidate('tools/list');
      return;
    case 'notifications/prompts/list_changed':
      cache.invalidate('prompts/list');
      return;
    case 'notifications/resources/list_changed':
      cache.invalidate('resources/list');
      cache.invalidate('resources/templates/list');
      return;
    case 'notifications/resources/updated': {
      const uri = params.uri;
      if (typeof uri === 'string') cache.invalidate('resources/read', (read) => read.uri === uri);
      return;
    }
  }
}

/**
 * The size of a result's JSON, estimated without serializing it (a 50 MB read is not copied to be measured): string
 * lengths plus a little per value. Stops counting once past `limit`, so a huge result costs no more than the budget.
 */
function estimatedBytes(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && total <= limit) {
    const item = stack.pop();
    if (typeof item === 'string') total += item.length + 2;
    else if (Array.isArray(item)) {
      total += 2;
      for (const element of item) stack.push(element);
    } else if (typeof item === 'object' && item !== null) {
      total += 2;
      for (const [key, field] of Object.entries(item)) {
        total += key.length + 4;
        stack.push(field);
      }
    } else total += 8;
  }
  return total;
}
