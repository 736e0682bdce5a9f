import { ErrorCodes, LocalError, McpError, isLocalError } from '../../errors';
import { HttpStatusError } from '../../transports/httpShared';
import type { TransportKind } from '../../transports/transport';
import { isSupportedHandshakeVersion } from '../../versions';

/**
 * Telling a server of an earlier revision from a 2026-07-28 server by how it fails server/discover
 * (transports/stdio.mdx and streamable-http.mdx, "Backward Compatibility").
 */

/** The error behind a failed discover, for the era selection to classify. */
export class DiscoverFailure extends LocalError {
  override readonly name = 'DiscoverFailure';
}

/**
 * Why a failed modern probe means "this server speaks an earlier revision", or undefined when it does not:
 * then the failure stands (a modern server's error, an authorization or TLS failure, a dead process).
 * The decision never hangs on one error code: any JSON-RPC error that is not one of the modern era's own,
 * a timeout on stdio, or an HTTP 400/404/405 whose body is not a modern error all mean the handshake.
 */
export function handshakeFallbackReason(error: unknown, transport: TransportKind): string | undefined {
  if (error instanceof McpError) {
    const modernCodes: readonly number[] = [
      ErrorCodes.HeaderMismatch,
      ErrorCodes.MissingRequiredClientCapability,
      ErrorCodes.UnsupportedProtocolVersion,
    ];
    if (modernCodes.includes(error.code)) return undefined;
    return `server/discover was answered with error ${error.code} (${error.rawMessage})`;
  }
  if (error instanceof HttpStatusError) {
    // Authorization is never a reason to change eras: the person must see the 401/403 for what it is.
    if (error.status === 400 || error.status === 404 || error.status === 405)
      return `server/discover got HTTP ${error.status} without a 2026-07-28 error in the body`;
    return undefined;
  }
  if (error instanceof DiscoverFailure) {
    if (error.kind === 'unsupported-version') return undefined;
    return error.message;
  }
  if (isLocalError(error, 'unsupported-version')) {
    // -32022 listing only handshake-era revisions: the server speaks modern errors but wants initialize.
    const cause = error.cause;
    const supported =
      cause instanceof McpError ? (cause.data as { supported?: unknown } | undefined)?.supported : undefined;
    if (Array.isArray(supported) && supported.some((version) => isSupportedHandshakeVersion(version))) {
      return `the server supports only ${supported.join(', ')}`;
    }
    return undefined;
  }
  if (isLocalError(error, 'timeout') && transport === 'stdio') return 'server/discover was not answered in time';
  return undefined;
}
