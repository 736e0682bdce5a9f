import { DEFAULT_INPUT_LIMITS, readJsonCapped, type InputLimits } from '../../protocol/limits/inputLimits';
import { checkExternalUrl } from '../urlPolicy';
import { DEFAULT_REGISTRY_URL, type RegistryEntry, type RegistryPage } from './types';
import { RegistryEntryError, entryNameOf, validateEntry } from './validate';

/**
 * A client of the generic MCP Registry API (`/v0.1/servers`). Every answer is read with a byte cap and checked
 * (validate.ts) before anything is built from it; each failure says which URL and which server.
 */

type RegistryErrorKind = 'unreachable' | 'not-found' | 'http-status' | 'invalid-response' | 'invalid-entry';

export class RegistryError extends Error {
  override readonly name = 'RegistryError';
  constructor(
    readonly kind: RegistryErrorKind,
    message: string,
  ) {
    super(message);
  }
}

interface RegistryClientOptions {
  /** The registry's base URL, e.g. https://registry.modelcontextprotocol.io (a trailing /v0.1 is accepted). */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Bounds each request (default 30 s). */
  timeoutMs?: number;
  limits?: Pick<InputLimits, 'maxDocumentBytes'>;
  /** Entries asked for per page (default 100); the registry may send fewer. */
  pageSize?: number;
}

/** Pages followed by searchAll before it stops and says so: a registry that never ends its cursor cannot loop us. */
const MAX_PAGES = 200;
const PAGE_SIZE = 100;
/** A page of 100 entries is a few hundred KB; a list is allowed more than one metadata document. */
const PAGE_BYTES_FACTOR = 8;

export class RegistryClient {
  readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly pageSize: number;

  constructor(options: RegistryClientOptions = {}) {
    this.baseUrl = normalizeBaseUrl(options.baseUrl ?? DEFAULT_REGISTRY_URL);
    this.fetchImpl = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.pageSize = options.pageSize ?? PAGE_SIZE;
    this.maxBytes = (options.limits?.maxDocumentBytes ?? DEFAULT_INPUT_LIMITS.maxDocumentBytes) * PAGE_BYTES_FACTOR;
  }

  /** One page of the latest versions, matching `search` (the registry searches names; descriptions too where it can). */
  async searchPage(search: string | undefined, cursor?: string, limit = this.pageSize): Promise<RegistryPage> {
    const query = new URLSearchParams({ version: 'latest', limit: String(limit) });
    if (search) query.set('search', search);
    if (cursor) query.set('cursor', cursor);
    return this.page(`${this.baseUrl}/v0.1/servers?${query.toString()}`, 'the server list');
  }

  /** Every page of a search, following nextCursor (at most MAX_PAGES). */
  async searchAll(search: string | undefined): Promise<RegistryPage> {
    const result: RegistryPage = { entries: [], rejected: [] };
    let cursor: string | undefined;
    const seen = new Set<string>();
    for (let page = 0; page < MAX_PAGES; page++) {
      const next = await this.searchPage(search, cursor);
      result.entries.push(...next.entries);
      result.rejected.push(...next.rejected);
      if (!next.nextCursor) return result;
      if (seen.has(next.nextCursor))
        throw new RegistryError(
          'invalid-response',
          `${this.baseUrl}: the server list repeats the cursor ${JSON.stringify(next.nextCursor)}; stopped`,
        );
      seen.add(next.nextCursor);
      cursor = next.nextCursor;
    }
    throw new RegistryError(
      'invalid-response',
      `${this.baseUrl}: the server list has more than ${MAX_PAGES} pages; stopped`,
    );
  }

  /** Every published version of one server. */
  async versions(name: string): Promise<RegistryPage> {
    return this.page(`${this.serverUrl(name)}/versions`, `the versions of ${name}`, name);
  }

  /** One version of a server (`latest` unless one is given). */
  async get(name: string, version = 'latest'): Promise<RegistryEntry> {
    const url = `${this.serverUrl(name)}/versions/${encodeURIComponent(version)}`;
    const body = await this.getJson(url, `${name} ${version}`, name);
    const entry = checked(() => validateEntry(body), url);
    if (entry.server.name !== name)
      throw new RegistryError(
        'invalid-response',
        `${url}: asked for ${name}, the registry answered with ${JSON.stringify(entry.server.name)}`,
      );
    return entry;
  }

  private serverUrl(name: string): string {
    return `${this.baseUrl}/v0.1/servers/${encodeURIComponent(name)}`;
  }

  private async page(url: string, what: string, server?: string): Promise<RegistryPage> {
    const body = await this.getJson(url, what, server);
    if (typeof body !== 'object' || body === null || !Array.isArray((body as { servers?: unknown }).servers)) {
      throw new RegistryError('invalid-response', `${url}: ${what} is not a server list (no "servers" array)`);
    }
    const { servers, metadata } = body as { servers: unknown[]; metadata?: { nextCursor?: unknown } };
    const page: RegistryPage = { entries: [], rejected: [] };
    for (const item of servers) {
      try {
        page.entries.push(validateEntry(item));
      } catch (error) {
        page.rejected.push({ name: entryNameOf(item), reason: error instanceof Error ? error.message : String(error) });
      }
    }
    const nextCursor = metadata?.nextCursor;
    if (typeof nextCursor === 'string' && nextCursor !== '') page.nextCursor = nextCursor;
    return page;
  }

  private async getJson(url: string, what: string, server?: string): Promise<unknown> {
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        headers: { accept: 'application/json' },
        redirect: 'follow',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const cause =
        error instanceof Error && error.cause instanceof Error
          ? `: ${error.cause.message}`
          : error instanceof Error
            ? `: ${error.message}`
            : '';
      throw new RegistryError(
        'unreachable',
        `the MCP registry at ${this.baseUrl} could not be reached while fetching ${what} (${url})${cause}`,
      );
    }
    if (response.status === 404) {
      await response.body?.cancel().catch(() => undefined);
      throw new RegistryError(
        'not-found',
        server
          ? `${server} is not in the MCP registry at ${this.baseUrl} (404 for ${url})`
          : `${url} answered 404: is ${this.baseUrl} an MCP registry?`,
      );
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new RegistryError('http-status', `${url} answered HTTP ${response.status} while fetching ${what}`);
    }
    try {
      return await readJsonCapped(response, this.maxBytes, `${what} from ${url}`, 'maxDocumentBytes');
    } catch (error) {
      throw new RegistryError('invalid-response', error instanceof Error ? error.message : String(error));
    }
  }
}

function checked<T>(read: () => T, url: string): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof RegistryEntryError) throw new RegistryError('invalid-entry', `${error.message} (from ${url})`);
    throw error;
  }
}

/** The base URL without a trailing slash or API version; only http(s), with no user name in it. */
function normalizeBaseUrl(raw: string): string {
  const verdict = checkExternalUrl(raw.trim());
  if (verdict.kind === 'refused')
    throw new RegistryError('unreachable', `the registry URL ${JSON.stringify(raw)} is not usable: ${verdict.detail}`);
  return verdict.url
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '')
    .replace(/\/v0(\.1)?$/, '');
}
