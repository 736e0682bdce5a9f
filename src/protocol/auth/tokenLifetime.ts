/**
 * When a held access token is refreshed before use. A fixed margin would make a token that lives shorter than
 * the margin look expired the moment it arrives (a 20 s token against a 30 s margin is refreshed on every
 * request, or never used): the margin is at most a fraction of the token's lifetime.
 */
import type { StoredTokens } from './types';

/** The most a token is refreshed ahead of its expiry. */
const MAX_REFRESH_MARGIN_MS = 30_000;
/** The largest part of a token's lifetime the margin may take. */
const REFRESH_MARGIN_FRACTION = 0.1;

export function refreshMarginMs(lifetimeMs: number | undefined): number {
  if (lifetimeMs === undefined || !Number.isFinite(lifetimeMs) || lifetimeMs <= 0) return MAX_REFRESH_MARGIN_MS;
  return Math.min(MAX_REFRESH_MARGIN_MS, Math.floor(lifetimeMs * REFRESH_MARGIN_FRACTION));
}

/** True when the tokens can be refreshed and their access token is within its margin of expiry. */
export function dueForRefresh(tokens: StoredTokens | undefined, now = Date.now()): boolean {
  if (tokens?.expiresAt === undefined || tokens.refreshToken === undefined) return false;
  const lifetime = tokens.obtainedAt === undefined ? undefined : tokens.expiresAt - tokens.obtainedAt;
  return tokens.expiresAt - refreshMarginMs(lifetime) <= now;
}
