/**
 * Errors are split in two families so a local failure is never mistaken for something the server said:
 * - McpError: the server answered with a JSON-RPC error object (its code and data are the server's).
 * - LocalError subclasses: raised by this client (timeouts, cancellation, transport, protocol violations).
 */

export class McpError extends Error {
  override readonly name = 'McpError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    readonly serverName?: string,
  ) {
    super(serverName ? `${serverName}: ${message} (code ${code})` : `${message} (code ${code})`);
    this.rawMessage = message;
  }

  /** The server's message as sent, without the server name and code added for display. */
  readonly rawMessage: string;
}

export type LocalErrorKind =
  | 'timeout'
  | 'cancelled'
  | 'transport'
  | 'protocol-violation'
  | 'connection-closed'
  | 'unsupported-version'
  | 'capability-missing'
  | 'message-too-large'
  | 'invalid-argument'
  | 'session-expired'
  /** A modern-era result the client cannot read (unknown resultType, malformed input requests). */
  | 'invalid-result'
  /** The response can no longer arrive (a 2026-07-28 HTTP response stream broke); the request may be issued again. */
  | 'response-lost';

export class LocalError extends Error {
  override readonly name: string = 'LocalError';
  constructor(
    readonly kind: LocalErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isLocalError(error: unknown, kind?: LocalErrorKind): error is LocalError {
  return error instanceof LocalError && (kind === undefined || error.kind === kind);
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The spec's JSON-RPC and MCP error codes that this client sends or interprets. */
export const ErrorCodes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ResourceNotFound: -32002,
  UrlElicitationRequired: -32042,
  UserRejected: -1,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;
