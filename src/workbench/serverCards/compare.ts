import type { CardRemote, ServerCard } from './cards';

/**
 * A card against the live connection (discovery.md, "Consistency with Runtime Behavior": the server's `serverInfo`,
 * its revision and the transport served at each remote SHOULD NOT contradict its card, and clients SHOULD check and
 * prefer the runtime values). Each difference names both values; the host words them.
 */

export interface ObservedServer {
  /** The server's `serverInfo` (Implementation): name, version, and title, description, websiteUrl when it sends them. */
  serverInfo: { name: string; version: string; [key: string]: unknown };
  protocolVersion: string;
  transport: 'streamable-http' | 'sse' | 'stdio';
  /** The URL connected to. */
  url: string;
}

export type CardDifference =
  | { kind: 'name' | 'version' | 'title' | 'description' | 'website'; card: string; server: string }
  /** The card lists remotes, and none is the URL connected to. */
  | { kind: 'url-not-listed'; url: string }
  /** The remote for this URL says one transport; the connection found another. */
  | { kind: 'transport'; card: string; server: string }
  /** The remote for this URL lists revisions, and the one spoken is not among them. */
  | { kind: 'protocol-version'; card: string[]; server: string };

export function compareCard(card: ServerCard, observed: ObservedServer): CardDifference[] {
  const differences: CardDifference[] = [];
  const info = observed.serverInfo;
  const field = (kind: 'name' | 'version' | 'title' | 'description' | 'website', ours: unknown, theirs: unknown) => {
    if (typeof ours === 'string' && typeof theirs === 'string' && ours !== theirs)
      differences.push({ kind, card: ours, server: theirs });
  };
  field('name', card.name, info.name);
  field('version', card.version, info.version);
  field('title', card.title, info.title);
  field('description', card.description, info.description);
  field('website', card.websiteUrl, info.websiteUrl);
  const remotes = card.remotes ?? [];
  if (remotes.length === 0) return differences;
  const remote = remotes.find((candidate) => remoteMatches(candidate, observed.url));
  if (!remote) {
    differences.push({ kind: 'url-not-listed', url: observed.url });
    return differences;
  }
  if (observed.transport !== 'stdio' && remote.type !== observed.transport)
    differences.push({ kind: 'transport', card: remote.type, server: observed.transport });
  const versions = remote.supportedProtocolVersions ?? [];
  if (versions.length > 0 && !versions.includes(observed.protocolVersion))
    differences.push({ kind: 'protocol-version', card: versions, server: observed.protocolVersion });
  return differences;
}

/**
 * Whether a remote's URL, `{variables}` and all, can be the URL connected to; without a regular expression (the
 * template is the server's text): its literal parts, in order, each variable standing for at least one character.
 */
export function remoteMatches(remote: Pick<CardRemote, 'url'>, url: string): boolean {
  const trim = (text: string) => text.replace(/\/+$/, '');
  const target = trim(url);
  const parts = trim(remote.url).split(/\{[^{}]*\}/);
  if (parts.length === 1) return parts[0] === target;
  const first = parts[0];
  const last = parts[parts.length - 1];
  if (!target.startsWith(first) || !target.endsWith(last) || target.length < first.length + last.length) return false;
  let position = first.length;
  const end = target.length - last.length;
  for (const middle of parts.slice(1, -1)) {
    const found = target.indexOf(middle, position + 1);
    if (found === -1 || found + middle.length > end) return false;
    position = found + middle.length;
  }
  return end > position;
}

/** Header names a suggestion may carry: plain HTTP token names, short; anything else in a card is left out. */
const HEADER_NAME = /^[A-Za-z][A-Za-z0-9-]{0,63}$/;
const MAX_SUGGESTED_HEADERS = 8;

export interface SuggestedHeader {
  name: string;
  /** `header-<host of the URL the person typed>-<name>`: see suggestedHeaders. */
  inputId: string;
  secret: boolean;
}

/**
 * Add Server's header suggestion from a card: each header the remote at `url` says it requires, to be written as
 * `Name: ${input:<inputId>}`. Only the names come from the card (and only plain ones); a value is always an input
 * the person fills in, never the card's text (a card's `value` of `${env:HOME}` written into mcp.json would send the
 * person's variable to the server). The input's id carries the host the person typed, not anything of the card's, so
 * a card cannot name an input another server's secret is already stored under.
 */
export function suggestedHeaders(card: ServerCard, url: string): SuggestedHeader[] {
  const remote = (card.remotes ?? []).find((candidate) => remoteMatches(candidate, url));
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/[^a-z0-9.-]+/g, '-');
  } catch {
    return [];
  }
  return (remote?.headers ?? [])
    .filter((header) => header.isRequired === true && HEADER_NAME.test(header.name))
    .slice(0, MAX_SUGGESTED_HEADERS)
    .map((header) => ({
      name: header.name,
      inputId: `header-${host}-${header.name.toLowerCase()}`,
      secret: header.isSecret === true,
    }));
}
