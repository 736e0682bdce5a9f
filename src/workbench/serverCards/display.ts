import { escapeForDisplay } from '../urlPolicy';
import { summarizeCard, type CardNote, type CardReading } from './cards';
import type { CardDifference } from './compare';

/**
 * A card as lines of facts for a host to word: every value is the server's text, escaped (control, bidirectional
 * and zero-width characters as \uXXXX, so no line of a dialog can be forged or reordered) and cut to a length a
 * dialog can show. Nothing is markup: hosts show these as plain text.
 */
export type CardFact =
  | { kind: 'name' | 'title' | 'description' | 'version' | 'website' | 'repository'; value: string }
  | { kind: 'remote'; transport: 'sse' | 'streamable-http'; url: string; templated: boolean; versions: string }
  /** Header names (escaped, joined with ", "); an empty string when there are none of that sort. */
  | { kind: 'headers'; url: string; required: string; optional: string; secret: string }
  | { kind: 'no-remotes' }
  | { kind: 'source'; value: string }
  | CardNote;

/** A value shown in a dialog: escaped, at most this many characters of it. */
export const MAX_SHOWN_CHARS = 300;
/** Remotes listed; the rest are counted. */
export const MAX_SHOWN_REMOTES = 8;

export function shown(text: string, max = MAX_SHOWN_CHARS): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return escapeForDisplay(cut);
}

export function cardFacts(reading: CardReading): CardFact[] {
  const summary = summarizeCard(reading.card);
  const facts: CardFact[] = [];
  if (summary.title !== undefined) facts.push({ kind: 'title', value: shown(summary.title) });
  facts.push({ kind: 'name', value: shown(summary.name) });
  facts.push({ kind: 'version', value: shown(summary.version) });
  facts.push({ kind: 'description', value: shown(summary.description) });
  if (summary.websiteUrl !== undefined) facts.push({ kind: 'website', value: shown(summary.websiteUrl) });
  if (summary.repositoryUrl !== undefined) facts.push({ kind: 'repository', value: shown(summary.repositoryUrl) });
  if (summary.remotes.length === 0) facts.push({ kind: 'no-remotes' });
  for (const remote of summary.remotes.slice(0, MAX_SHOWN_REMOTES)) {
    const url = shown(remote.url);
    facts.push({
      kind: 'remote',
      transport: remote.type,
      url,
      templated: remote.templated,
      versions: shown(remote.protocolVersions.join(', ')),
    });
    const names = (filter: (header: (typeof remote.headers)[number]) => boolean) =>
      shown(
        remote.headers
          .filter(filter)
          .map((header) => header.name)
          .join(', '),
      );
    if (remote.headers.length > 0)
      facts.push({
        kind: 'headers',
        url,
        required: names((header) => header.required),
        optional: names((header) => !header.required),
        secret: names((header) => header.secret),
      });
  }
  facts.push({ kind: 'source', value: shown(reading.source, 1000) });
  for (const note of reading.notes)
    facts.push(note.kind === 'redirected' ? { kind: 'redirected', to: shown(note.to, 1000) } : note);
  return facts;
}

/** A difference with its values escaped and cut for a dialog. */
export function shownDifference(difference: CardDifference): CardDifference {
  switch (difference.kind) {
    case 'name':
    case 'version':
    case 'title':
    case 'description':
    case 'website':
    case 'transport':
      return { ...difference, card: shown(difference.card), server: shown(difference.server) };
    case 'url-not-listed':
      return { ...difference, url: shown(difference.url, 1000) };
    case 'protocol-version':
      return {
        ...difference,
        card: difference.card.map((version) => shown(version)),
        server: shown(difference.server),
      };
  }
}
