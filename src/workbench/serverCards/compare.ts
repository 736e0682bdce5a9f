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
