/**
 * Errors are split in two families so a local failure is never mistaken for something the server said:
 * - McpError: the server answered with a JSON-RPC error object (its code and data are the server's).
 * - LocalError subclasses: raised by this client (timeouts, cancellation, transport, protocol violations).
 */

import type { ServerCapabilities } from './types';

export class McpError extends Error {
  override readonly name = 'McpError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    readonly serverName?: string,
    /** The method of our request the server answered with this error (set with `serverName` for a server's answer). */
    readonly method?: string,
  ) {
    super(serverName ? `${serverName}: ${message} (code ${code})` : `${message} (code ${code})`);
    this.rawMessage = message;
    this.detail =
      serverName !== undefined && method !== undefined
        ? { kind: 'server-error', server: serverName, method, code, message }
        : undefined;
  }

  /** The server's message as sent, without the server name and code added for display. */
  readonly rawMessage: string;
  /**
   * A server's answer carries its detail (`server-error`): a host words the frame around the server's message and
   * keeps the message itself as the server sent it. An McpError of ours (one we send to a server) has none.
   */
  readonly detail: ErrorDetail | undefined;
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

/** The plain words for an unreachable endpoint (an HTTP request that never got an answer). */
export type UnreachableWords =
  | 'connection refused'
  | 'host not found'
  | 'connection timed out'
  | 'connection reset'
  | 'host unreachable'
  | 'network unreachable'
  | 'the port is not allowed'
  | 'TLS certificate problem';

/** Why the era probe ended, inside a start timeout (autoEra.ts, eraProbe.ts). */
export type ProbeReason =
  | { kind: 'no-sign-of-life' }
  | { kind: 'slow' }
  | { kind: 'grace-ran-out'; server: string; upMs: number; graceMs: number }
  /** Any other reason (a server's error reply, its words): shown as it is. */
  | { kind: 'verbatim'; text: string };

/**
 * What an error is about, with its parameters, set where it is thrown: the English `message` is for logs and the
 * CLI, and a host words the error for a person from this (the extension translates it, src/extension/platform/ui/coreErrorKinds.ts)
 * instead of parsing the message. What varies (a command, a folder, a method, a server's own words) is a parameter.
 * A new kind fails to compile in the extension until it is worded there, in English and in zh-CN.
 */
export type ErrorDetail =
  /** A stdio server's command is not on PATH; `searched` lists the folders (or says PATH is empty). */
  | { kind: 'command-not-found'; command: string; searched: string }
  | { kind: 'command-empty' }
  /** A command given as a path that is not there (relative to `cwd` when it was resolved against it). */
  | { kind: 'path-not-found'; command: string; cwd?: string; lookedFor: string }
  | { kind: 'not-executable'; path: string }
  | { kind: 'input-without-value'; input: string }
  | { kind: 'timed-out'; method: string; ms: number }
  /** The era probe's grace ran out: the server talked but left server/discover unanswered. */
  | { kind: 'probe-grace-ran-out'; server: string; upMs: number; graceMs: number }
  /** One deadline for the whole start, spent by the era probe and then (when `initializeMs` is set) by initialize. */
  | { kind: 'start-timed-out'; totalMs: number; probeMs: number; reason: ProbeReason; initializeMs?: number }
  /** `silentLauncher`: a package launcher (npx, uvx…) that failed with nothing on stderr. */
  | { kind: 'process-exited'; code: number | null; silentLauncher?: string }
  | { kind: 'process-killed'; signal: string }
  | { kind: 'process-gone'; how: 'not running' | 'closed its input' }
  | { kind: 'permission-denied'; command: string }
  | { kind: 'cwd-unusable'; command: string; cwd: string; problem: 'is not a directory' | 'does not exist' }
  | { kind: 'unreachable'; words: UnreachableWords; url?: string }
  /**
   * A non-2xx HTTP answer: its status, the URL as shown safely (displayUrl: no user:password, secret-looking query
   * values masked), and the server's own words when present, verbatim: its reason phrase and the start of its body.
   */
  | { kind: 'http-status'; status: number; url: string; statusText?: string; body?: string }
  /**
   * The server answered our request `method` with a JSON-RPC error: its code and message are the server's, shown as
   * sent (never translated); only the frame around them is the host's words.
   */
  | { kind: 'server-error'; server: string; method: string; code: number; message: string }
  | { kind: 'sign-in-unfinished'; seconds: number };

export type ErrorDetailKind = ErrorDetail['kind'];

export class LocalError extends Error {
  override readonly name: string = 'LocalError';
  /** What the error is about, for a host to word it (see ErrorDetail); undefined where only the message says it. */
  readonly detail: ErrorDetail | undefined;
  constructor(
    readonly kind: LocalErrorKind,
    message: string,
    options?: { cause?: unknown; detail?: ErrorDetail },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.detail = options?.detail;
  }
}

/**
 * The error's own detail (any error class may carry one in a `detail` field: LocalError, UnresolvedVariableError,
 * OAuthFlowError). Not looked for in causes: a wrapper that says something else must not be worded as its cause; a
 * wrapper that only adds the server's name passes its cause's detail on.
 */
export function errorDetail(error: unknown): ErrorDetail | undefined {
  if (!(error instanceof Error) || !('detail' in error)) return undefined;
  const detail = error.detail;
  return typeof detail === 'object' && detail !== null && typeof (detail as { kind?: unknown }).kind === 'string'
    ? (detail as ErrorDetail)
    : undefined;
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

/** Throws the `capability-missing` error when the server's capabilities do not offer `capability`. */
export function requireCapability(
  serverName: string,
  capabilities: ServerCapabilities,
  capability: keyof ServerCapabilities,
  what: string,
): void {
  if (!capabilities[capability])
    throw new LocalError(
      'capability-missing',
      `${serverName} does not offer ${String(capability)}, so this client cannot ${what}`,
    );
}
