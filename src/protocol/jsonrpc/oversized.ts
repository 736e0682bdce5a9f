/** The message size limit and the words for a discarded oversized message, shared by every transport. */

export const DEFAULT_MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

/** How many bytes of the start and end of a discarded line are kept, so the reader can still tell what it was. */
export const OVERSIZED_EDGE_BYTES = 256;

const OVERSIZED_PREFIX = 'message too large: ';

/** The reason transports give for a discarded oversized message; recognised by isOversizedReason. */
export function oversizedReason(bytes: number, limit: number, setting = 'maxMessageBytes'): string {
  return `${OVERSIZED_PREFIX}${bytes} bytes exceed the limit of ${limit} bytes (setting ${setting}); the message was discarded`;
}

export function isOversizedReason(reason: string): boolean {
  return reason.startsWith(OVERSIZED_PREFIX);
}
