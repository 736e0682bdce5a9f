/** Handshake-era revisions this client speaks, newest first: the first is offered in `initialize`. */
export const HANDSHAKE_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
type HandshakeVersion = (typeof HANDSHAKE_VERSIONS)[number];

export function isSupportedHandshakeVersion(version: unknown): version is HandshakeVersion {
  return typeof version === 'string' && (HANDSHAKE_VERSIONS as readonly string[]).includes(version);
}

/** Whether a feature introduced at `since` exists in the negotiated `version` (revisions are ISO dates). */
export function versionAtLeast(version: string, since: string): boolean {
  return version >= since;
}
