import type { ProtocolEra } from './eras/era';
import type { EraMemorySlot } from './eras/eraMemory';
import type { EraPreference } from './eras/select';
import type { EnabledExtension } from './extensions/protocolExtension';
import type { ClientHost } from './host';
import type { PersonWaits } from './jsonrpc/personWaits';
import type { Logger, ProgressUpdate } from './jsonrpc/rpcConnection';
import type { TraceDirection } from './jsonrpc/mcpStreams';
import type { Transport } from './transports/transport';
import type { CallToolResult, Implementation } from './types';
import type { ValidationVerdict } from './validation/schemaValidation';

/** What an McpClient is made with (src/protocol/client.ts). */
export interface McpClientOptions {
  /** The name users know the server by; it prefixes every error and log line. */
  serverName: string;
  transport: Transport;
  host?: ClientHost;
  clientInfo?: Implementation;
  logger?: Logger;
  trace?: (direction: TraceDirection, message: unknown) => void;
  requestTimeoutMs?: number;
  maxTotalTimeoutMs?: number;
  initializeTimeoutMs?: number;
  /** How long a -32042 retry waits for notifications/elicitation/complete after the person opened the URL. */
  urlElicitationTimeoutMs?: number;
  /** Offered versions, newest first (defaults to every handshake-era revision this client speaks). */
  protocolVersions?: readonly string[];
  /**
   * How sessions are opened and requests shaped and read: an era preference ('auto' probes for the
   * 2026-07-28 era and falls back to the handshake, '2026-07-28', 'legacy'), or an era object. Defaults to
   * 'legacy', the handshake era built from `protocolVersions` and `initializeTimeoutMs`.
   */
  era?: ProtocolEra | EraPreference;
  /** auto over stdio: how long server/discover may go unanswered by a server that shows no sign of life. */
  eraProbeTimeoutMs?: number;
  /** auto over stdio: how long server/discover may go unanswered once the server showed it reads (it said anything). */
  eraProbeGraceMs?: number;
  /** auto: the era this server definition spoke at its last start, so the next start opens directly. */
  eraMemory?: EraMemorySlot;
  /** 2026-07-28: the most bytes the ttlMs result cache keeps (oldest evicted first). */
  resultCacheMaxBytes?: number;
  /**
   * Marks the time a person acts for this connection (sampling review, elicitation form, interactive sign-in):
   * request deadlines wait meanwhile. Share one with the OAuth authorizer; the client creates one when not given.
   */
  personWaits?: PersonWaits;
  /** Protocol extensions the host enabled: only these are declared in `capabilities.extensions`. */
  extensions?: readonly EnabledExtension[];
}

/** The options of a call given none: one object for all of them (nothing below a call writes to its options). */
export const NO_OPTIONS: CallOptions = Object.freeze({});

/** What a caller may add to one request. */
export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
  timeoutMs?: number;
  /** Fetch again even when a 2026-07-28 cached result is still fresh (a manual refresh). */
  refresh?: boolean;
}

export interface CallToolOutcome {
  result: CallToolResult;
  /** Verdict of structuredContent against the tool's outputSchema; absent when the tool declares none. */
  outputValidation?: ValidationVerdict;
}
