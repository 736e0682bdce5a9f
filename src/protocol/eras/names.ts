import type { ServerSession } from './era';

/**
 * Era selection: which protocol era a connection speaks. `legacy` is the initialize handshake (up to
 * 2025-11-25; the value keeps the era's earlier name because config files, settings and `*.mcptest.json` files hold
 * it: in code the era is "handshake", and "legacy" means nothing else), `2026-07-28` the modern era, and `auto` tries the modern era first and falls back to the
 * handshake for a server that does not speak it (transports/stdio.mdx and streamable-http.mdx, "Backward
 * Compatibility"). The choice is made once, when the connection opens, and kept for its life.
 */
export type EraPreference = 'auto' | '2026-07-28' | 'legacy';

export const ERA_PREFERENCES: readonly EraPreference[] = ['auto', '2026-07-28', 'legacy'];

export function describeEra(session: ServerSession): string {
  switch (session.kind) {
    case 'handshake':
      return `handshake era (initialize), revision ${session.protocolVersion}`;
    case 'modern':
      return `2026-07-28 era (stateless, server/discover), revision ${session.protocolVersion}`;
  }
}

/**
 * The era names a person reads and writes: the old era is "handshake" wherever it is shown (UI, log, help, docs).
 * "legacy", its earlier name, is still accepted in config files, settings and flags, and means the same.
 */
export const ERA_NAMES = ['auto', '2026-07-28', 'handshake'] as const;

/** An era as written by a person ("handshake" or its old name "legacy" for the initialize handshake); undefined if not one. */
export function eraPreferenceFromName(value: unknown): EraPreference | undefined {
  if (value === 'handshake') return 'legacy';
  return typeof value === 'string' && (ERA_PREFERENCES as readonly string[]).includes(value)
    ? (value as EraPreference)
    : undefined;
}

/** The era and revision in a few words, for tooltips: "2026-07-28 (stateless)", "2025-11-25 (handshake)". */
export function eraLabel(session: ServerSession): string {
  switch (session.kind) {
    case 'handshake':
      return `${session.protocolVersion} (handshake)`;
    case 'modern':
      return `${session.protocolVersion} (stateless)`;
  }
}

/** Why a session speaks the era it does, given the preference it was opened with: for the server's log. */
export function eraChoiceReason(preference: EraPreference, session: ServerSession): string {
  switch (preference) {
    case 'legacy':
    case '2026-07-28':
      return `the server's "era" is pinned to ${preference}`;
    case 'auto':
      if (session.eraChoice) return session.eraChoice;
      switch (session.kind) {
        case 'modern':
          return 'era auto: the server answered server/discover';
        case 'handshake':
          return 'era auto: the server does not speak 2026-07-28 (see the reason above), so the initialize handshake was used';
      }
  }
}
