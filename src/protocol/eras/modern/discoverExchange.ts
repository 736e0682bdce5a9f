import { LocalError, McpError } from '../../errors';
import { isObject } from '../../guards';
import type { ClientCapabilities, Implementation } from '../../types';

/** What server/discover sends and reads: the client's 2026-07-28 capabilities, the server's info, a failed negotiation. */

export function validServerInfo(value: unknown): Implementation | undefined {
  return isObject(value) && typeof value.name === 'string' && typeof value.version === 'string'
    ? (value as Implementation)
    : undefined;
}

/**
 * The fields of the 2026-07-28 ClientCapabilities (schema.json). Core capabilities an extension adds for older
 * revisions (2025-11-25 `capabilities.tasks`, now the `io.modelcontextprotocol/tasks` extension) have no place here.
 */
const MODERN_CLIENT_CAPABILITIES: ReadonlySet<string> = new Set([
  'roots',
  'sampling',
  'elicitation',
  'experimental',
  'extensions',
]);

/** Capabilities as 2026-07-28 declares them: only its own fields, and roots without listChanged (the notification no longer exists). */
export function modernCapabilities(capabilities: ClientCapabilities): ClientCapabilities {
  // Every 2026-07-28 request declares them: one object, not the arrays of entries/filter/fromEntries; the own
  // enumerable keys in their order, as Object.entries gives them.
  const declared: ClientCapabilities = {};
  for (const key in capabilities)
    if (MODERN_CLIENT_CAPABILITIES.has(key) && Object.hasOwn(capabilities, key)) declared[key] = capabilities[key];
  if (declared.roots) declared.roots = {};
  return declared;
}

export function negotiationFailed(
  serverName: string,
  cause: unknown,
  requested: string,
  offered: readonly string[],
): LocalError {
  const data = cause instanceof McpError ? (cause.data as { supported?: unknown } | undefined) : undefined;
  const supported = Array.isArray(data?.supported) ? data.supported.join(', ') : '(none listed)';
  return new LocalError(
    'unsupported-version',
    `${serverName} refused protocol ${requested} again after a retry (it lists ${supported}; this client speaks ${offered.join(', ')})`,
    { cause },
  );
}
