import { SchemaValidator } from '../../protocol/validation/schemaValidation';
import { checkExternalUrl, escapeForDisplay } from '../urlPolicy';
import { DiscoveryError, getDiscoveryDocument, type DiscoveryFetchOptions } from './discoveryFetch';
import { hostScope } from './hostScope';
import { CARD_MEDIA_TYPE, CARD_SCHEMA_URI, CATALOG_SCHEMA, SERVER_CARD_SCHEMA } from './schema';

/**
 * Server Cards (SEP-2127): what an HTTP server says about itself before any connection, read when the person asks
 * (never on start, never on a timer). A card is read from `<server URL>/server-card`, from a URL a catalog gives,
 * or inline in a catalog; a catalog from a domain's `/.well-known/mcp/catalog.json` (the and the SEP's
 * MCP Catalog), else `/.well-known/ai-catalog.json` (the working group's discovery.md since 1491bd2). Every document
 * is checked against its schema before anything is built from it; its text is the server's, escaped where shown.
 * A card is advisory (discovery.md, "Consistency with Runtime Behavior"): nothing here decides trust from it.
 */

export interface CardInput {
  name?: string;
  description?: string;
  isRequired?: boolean;
  isSecret?: boolean;
  value?: string;
  default?: string;
  variables?: Record<string, CardInput>;
}

export interface CardRemote {
  type: 'sse' | 'streamable-http';
  url: string;
  headers?: (CardInput & { name: string })[];
  variables?: Record<string, CardInput>;
  supportedProtocolVersions?: string[];
}

export interface ServerCard {
  $schema: string;
  name: string;
  version: string;
  description: string;
  title?: string;
  websiteUrl?: string;
  repository?: { source: string; url: string; id?: string; subfolder?: string };
  remotes?: CardRemote[];
  icons?: { src: string }[];
  _meta?: Record<string, unknown>;
}

/** What the person may want to know about how a card was read (the client's own findings, not the card's claims). */
export type CardNote =
  | { kind: 'plain-http' } // served over http from a host that is not this machine
  | { kind: 'redirected'; to: string }; // read at another path of the same origin

export interface CardReading {
  /** The URL asked for. */
  requested: string;
  /** Where the card was read (differs after a same-origin redirect; the catalog's URL for an inline card). */
  source: string;
  card: ServerCard;
  notes: CardNote[];
}

export interface CatalogEntry {
  identifier: string;
  displayName?: string;
  /** The card's URL, checked (cardUrlFromDocument); absent for an inline card or a refused URL. */
  cardUrl?: string;
  /** An inline card (`data`), valid against the card's schema. */
  card?: ServerCard;
}

export interface CatalogReading {
  source: string;
  specVersion: string;
  entries: CatalogEntry[];
  /** Entries left out, and why (English, for the CLI and the log; the identifier as sent). */
  skipped: { identifier: string; reason: string }[];
  notes: CardNote[];
}

/** Entries read from one catalog; a longer list is cut and the cut reported. */
export const MAX_CATALOG_ENTRIES = 500;

const CARD_ACCEPT = `${CARD_MEDIA_TYPE}, application/json;q=0.9`;
const CATALOG_ACCEPT = 'application/json, application/ai-catalog+json;q=0.9';

const validator = new SchemaValidator();

/**
 * `<server URL>/server-card`: appended to the URL's path (a trailing slash collapsed), query and fragment left off,
 * as the working group's note on the reserved suffix proposes (docs/proposals/server-card-json-suffix.md).
 */
export function serverCardUrl(serverUrl: string): string {
  const verdict = checkExternalUrl(serverUrl.trim());
  if (verdict.kind === 'refused')
    throw new DiscoveryError('refused-url', serverUrl, `${escapeForDisplay(serverUrl)}: ${verdict.detail}`, {
      reason: verdict.detail,
    });
  const url = new URL(verdict.url);
  url.search = '';
  url.hash = '';
  url.pathname = `${url.pathname.replace(/\/$/, '')}/server-card`;
  return url.href;
}

/**
 * The catalog URLs of a domain, in the order to try: `example.com`, `https://example.com/anything` and
 * `localhost:3000` all name a domain (a bare name means https, except on this machine).
 */
export function catalogUrls(domain: string): string[] {
  const text = domain.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text)
    ? text
    : `${hostScope(bareHost(text)) === 'loopback' ? 'http' : 'https'}://${text}`;
  const verdict = checkExternalUrl(withScheme);
  if (verdict.kind === 'refused')
    throw new DiscoveryError('refused-url', domain, `${escapeForDisplay(domain)}: ${verdict.detail}`, {
      reason: verdict.detail,
    });
  const origin = new URL(verdict.url).origin;
  return [`${origin}/.well-known/mcp/catalog.json`, `${origin}/.well-known/ai-catalog.json`];
}

/** The host of `example.com:8080/x` or `[::1]:8080`, as it would appear in a URL. */
function bareHost(text: string): string {
  return text.startsWith('[') ? text.slice(0, text.indexOf(']') + 1) : text.split(/[/:?#]/)[0];
}

/**
 * A URL a document (a catalog) gives, checked against where the document came from: a document read from a public
 * host may not send the client to this machine or its network, nor over plain HTTP. The person's own URL is not
 * held to this (it is where they asked to go).
 */
export function cardUrlFromDocument(raw: string, documentUrl: string): { url: string } | { refused: string } {
  const verdict = checkExternalUrl(raw);
  if (verdict.kind === 'refused') return { refused: verdict.detail };
  const target = new URL(verdict.url);
  const fromScope = hostScope(new URL(documentUrl).hostname);
  const toScope = hostScope(target.hostname);
  if (fromScope === 'public' && toScope !== 'public')
    return {
      refused: `a catalog on a public host points to ${toScope === 'loopback' ? 'this machine' : 'the local network'} (${target.host})`,
    };
  if (target.protocol === 'http:' && toScope === 'public')
    return { refused: 'a card on a public host must be served over https' };
  return { url: verdict.url };
}

/** The card is valid against the v1 schema (a card of another `$schema` family is named as such). */
export function checkCard(value: unknown): { kind: 'valid'; card: ServerCard } | { kind: 'invalid'; errors: string[] } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { kind: 'invalid', errors: ['(root) a Server Card is a JSON object'] };
  const declared = (value as { $schema?: unknown }).$schema;
  if (typeof declared === 'string' && declared !== CARD_SCHEMA_URI)
    return {
      kind: 'invalid',
      errors: [`$schema is ${JSON.stringify(declared.slice(0, 200))}; this client reads cards of ${CARD_SCHEMA_URI}`],
    };
  const verdict = validator.validate(SERVER_CARD_SCHEMA, value);
  switch (verdict.kind) {
    case 'valid':
      return { kind: 'valid', card: value as ServerCard };
    case 'invalid':
      return { kind: 'invalid', errors: verdict.errors };
    case 'unchecked':
      return { kind: 'invalid', errors: [`not checked: ${verdict.reason}`] };
  }
}

/** The card at `<server URL>/server-card`. */
export function readServerCard(serverUrl: string, options: DiscoveryFetchOptions = {}): Promise<CardReading> {
  return readCardAt(serverCardUrl(serverUrl), options);
}

/** The card at exactly `cardUrl` (the person's URL, or one cardUrlFromDocument allowed). */
export async function readCardAt(cardUrl: string, options: DiscoveryFetchOptions = {}): Promise<CardReading> {
  const document = await getDiscoveryDocument(cardUrl, CARD_ACCEPT, 'a Server Card', options);
  const checked = checkCard(document.body);
  if (checked.kind === 'invalid')
    throw new DiscoveryError(
      'invalid',
      cardUrl,
      `the Server Card at ${escapeForDisplay(cardUrl)} does not match the card's schema: ${checked.errors.join('; ')}`,
      { errors: checked.errors },
    );
  return { requested: cardUrl, source: document.url, card: checked.card, notes: notesFor(cardUrl, document.url) };
}

/** A domain's catalog: the MCP Catalog, else (on 404) the AI Catalog. */
export async function readCatalog(domain: string, options: DiscoveryFetchOptions = {}): Promise<CatalogReading> {
  const [mcpCatalog, aiCatalog] = catalogUrls(domain);
  let document;
  let requested = mcpCatalog;
  try {
    document = await getDiscoveryDocument(mcpCatalog, CATALOG_ACCEPT, 'an MCP Catalog', options);
  } catch (error) {
    if (!(error instanceof DiscoveryError) || error.kind !== 'not-found') throw error;
    requested = aiCatalog;
    try {
      document = await getDiscoveryDocument(aiCatalog, CATALOG_ACCEPT, 'an AI Catalog', options);
    } catch (second) {
      if (second instanceof DiscoveryError && second.kind === 'not-found')
        throw new DiscoveryError(
          'not-found',
          mcpCatalog,
          `there is no catalog at ${escapeForDisplay(mcpCatalog)} nor at ${escapeForDisplay(aiCatalog)}`,
          { status: 404, alsoTried: aiCatalog },
        );
      throw second;
    }
  }
  const verdict = validator.validate(CATALOG_SCHEMA, document.body);
  if (verdict.kind !== 'valid') {
    const errors = verdict.kind === 'invalid' ? verdict.errors : [`not checked: ${verdict.reason}`];
    throw new DiscoveryError(
      'invalid',
      document.url,
      `the catalog at ${escapeForDisplay(document.url)} does not match the catalog's schema: ${errors.join('; ')}`,
      { errors },
    );
  }
  const body = document.body as { specVersion: string; entries: Record<string, unknown>[] };
  const reading: CatalogReading = {
    source: document.url,
    specVersion: body.specVersion,
    entries: [],
    skipped: [],
    notes: notesFor(requested, document.url),
  };
  for (const entry of body.entries.slice(0, MAX_CATALOG_ENTRIES)) readEntry(entry, document.url, reading);
  if (body.entries.length > MAX_CATALOG_ENTRIES)
    reading.skipped.push({
      identifier: `(${body.entries.length - MAX_CATALOG_ENTRIES} more)`,
      reason: `only the first ${MAX_CATALOG_ENTRIES} entries are read`,
    });
  return reading;
}

function readEntry(entry: Record<string, unknown>, catalogUrl: string, reading: CatalogReading): void {
  const identifier = entry.identifier as string;
  const skip = (reason: string): void => void reading.skipped.push({ identifier, reason });
  if (entry.type !== CARD_MEDIA_TYPE) return skip(`its type is ${JSON.stringify(entry.type)}, not ${CARD_MEDIA_TYPE}`);
  const hasUrl = typeof entry.url === 'string';
  const hasData = entry.data !== undefined;
  if (hasUrl === hasData) return skip('an entry has exactly one of "url" and "data"');
  const displayName = typeof entry.displayName === 'string' ? { displayName: entry.displayName } : {};
  if (hasData) {
    const checked = checkCard(entry.data);
    if (checked.kind === 'invalid') return skip(`its inline card is invalid: ${checked.errors.join('; ')}`);
    reading.entries.push({ identifier, ...displayName, card: checked.card });
    return;
  }
  const allowed = cardUrlFromDocument(entry.url as string, catalogUrl);
  if ('refused' in allowed) return skip(`its url is refused: ${allowed.refused}`);
  reading.entries.push({ identifier, ...displayName, cardUrl: allowed.url });
}

function notesFor(requested: string, source: string): CardNote[] {
  const notes: CardNote[] = [];
  const url = new URL(source);
  if (url.protocol === 'http:' && hostScope(url.hostname) !== 'loopback') notes.push({ kind: 'plain-http' });
  if (source !== requested) notes.push({ kind: 'redirected', to: source });
  return notes;
}

/** What the person is shown of a card: plain values, the server's text still to be escaped by whoever shows it. */
export interface CardSummary {
  name: string;
  title?: string;
  description: string;
  version: string;
  websiteUrl?: string;
  repositoryUrl?: string;
  remotes: {
    type: 'sse' | 'streamable-http';
    url: string;
    /** The URL has `{variables}` to fill before it can be used. */
    templated: boolean;
    protocolVersions: string[];
    /** Headers the card says a connection needs or accepts (names only; values are never taken from a card). */
    headers: { name: string; required: boolean; secret: boolean }[];
  }[];
  /** Some remote asks for a required or secret header: a credential (OAuth is learned only when connecting). */
  needsCredentials: boolean;
}

export function summarizeCard(card: ServerCard): CardSummary {
  const remotes = (card.remotes ?? []).map((remote) => ({
    type: remote.type,
    url: remote.url,
    templated: /\{[^}]*\}/.test(remote.url),
    protocolVersions: remote.supportedProtocolVersions ?? [],
    headers: (remote.headers ?? []).map((header) => ({
      name: header.name,
      required: header.isRequired === true,
      secret: header.isSecret === true,
    })),
  }));
  return {
    name: card.name,
    ...(card.title !== undefined ? { title: card.title } : {}),
    description: card.description,
    version: card.version,
    ...(card.websiteUrl !== undefined ? { websiteUrl: card.websiteUrl } : {}),
    ...(card.repository !== undefined ? { repositoryUrl: card.repository.url } : {}),
    remotes,
    needsCredentials: remotes.some((remote) => remote.headers.some((header) => header.required || header.secret)),
  };
}
