import { checkCard, type ServerCard } from './cards';
import { compareCard, type CardDifference, type ObservedServer } from './compare';

/**
 * The card a server was added from (Add Server after "Read Its Server Card First", or from a domain's catalog), kept
 * until that server's first connection, then compared with what the server says (discovery.md, "Consistency with
 * Runtime Behavior") exactly once. The host keeps the record (`PendingCards`) in its workspace state, keyed by the
 * server's identity (serverIdentityKey), so another server later given the same name in another file inherits nothing.
 */

export interface PendingCard {
  card: ServerCard;
  /** When it was remembered (ms since the epoch). */
  at: number;
}

export type PendingCards = Record<string, PendingCard>;

/** At most this many cards wait for a first connection; the oldest are dropped (a server added and never started). */
export const MAX_PENDING_CARDS = 32;

/** A card older than this is not compared any more: a server unused for a month may have changed on purpose. */
export const PENDING_CARD_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** The stored record, each entry checked again (workspace state is only JSON): anything malformed is left out. */
export function pendingCardsOf(stored: unknown): PendingCards {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return {};
  const pending: PendingCards = {};
  for (const [identity, value] of Object.entries(stored as Record<string, unknown>)) {
    if (typeof value !== 'object' || value === null) continue;
    const { card, at } = value as { card?: unknown; at?: unknown };
    const checked = checkCard(card);
    if (checked.kind === 'valid' && typeof at === 'number' && Number.isFinite(at))
      pending[identity] = { card: checked.card, at };
  }
  return pending;
}

/** The record with `card` waiting for `identity`'s first connection (replacing an earlier one), bounded. */
export function rememberCard(stored: unknown, identity: string, card: ServerCard, now: number): PendingCards {
  const pending = pendingCardsOf(stored);
  delete pending[identity];
  const kept = Object.entries(pending)
    .filter(([, entry]) => now - entry.at <= PENDING_CARD_MAX_AGE_MS)
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, MAX_PENDING_CARDS - 1);
  return Object.fromEntries([...kept, [identity, { card, at: now }]]);
}

/** The record without `identity`'s card (an add that failed after the card was remembered). */
export function forgetCard(stored: unknown, identity: string): PendingCards {
  const pending = pendingCardsOf(stored);
  delete pending[identity];
  return pending;
}

export type ConnectDecision =
  /** No card waits for this server: nothing to do, nothing to store. */
  | { kind: 'none' }
  /** The card was compared (and is to be forgotten: `next`); `differences` is empty when the server answers as it says. */
  | { kind: 'compared'; differences: CardDifference[]; next: PendingCards }
  /** The card waited too long: forgotten without a comparison. */
  | { kind: 'expired'; next: PendingCards };

/** What to do when `identity` connects: compare its waiting card once, and forget it. */
export function decideOnConnect(
  stored: unknown,
  identity: string,
  observed: ObservedServer,
  now: number,
): ConnectDecision {
  const pending = pendingCardsOf(stored);
  const entry = pending[identity];
  if (!entry) return { kind: 'none' };
  delete pending[identity];
  if (now - entry.at > PENDING_CARD_MAX_AGE_MS) return { kind: 'expired', next: pending };
  return { kind: 'compared', differences: compareCard(entry.card, observed), next: pending };
}
