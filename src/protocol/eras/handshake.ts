import { ErrorCodes, LocalError, McpError, isLocalError } from '../errors';
import type { OutgoingHttpRequest } from '../transports/transport';
import { HANDSHAKE_VERSIONS, isSupportedHandshakeVersion, versionAtLeast } from '../versions';
import type {
  AttemptContext,
  AttemptOutcome,
  AttemptVerdict,
  ClientIdentity,
  EraRequests,
  EraWire,
  HandshakeSession,
  Preflight,
  ProtocolEra,
  RequiredUrlElicitation,
} from './era';
import type { ClientRequestMethod, JsonParams } from '../methods';
import type { ClientCapabilities, LoggingLevel } from '../types';
import { isObject } from '../guards';

export interface HandshakeEraOptions {
  /** Offered versions, newest first (defaults to every handshake-era revision this client speaks). */
  protocolVersions?: readonly string[];
  /** How long `initialize` may take. */
  initializeTimeoutMs?: number;
}

export const DEFAULT_INITIALIZE_TIMEOUT_MS = 30_000;
const SEND: Preflight = { kind: 'send' };

/**
 * The handshake era (revisions 2024-11-05 … 2025-11-25): `initialize` negotiates a version once, then
 * `notifications/initialized`; over HTTP every later request carries MCP-Protocol-Version. Requests are sent
 * as the caller shaped them. An HTTP 404 for our session id means the server forgot the session: it is
 * renewed by handshaking again on the same transport.
 */
export class HandshakeEra implements ProtocolEra {
  readonly kind = 'handshake' as const;
  /** The negotiated version; unset before the handshake and while a renewal handshakes again. */
  private negotiatedVersion: string | undefined;

  constructor(private readonly options: HandshakeEraOptions = {}) {}

  open(wire: EraWire, identity: ClientIdentity): Promise<HandshakeSession> {
    return this.handshake(wire, identity);
  }

  renew(wire: EraWire, identity: ClientIdentity, reason: string): Promise<HandshakeSession> {
    wire.logger.info(`${wire.serverName}: ${reason}; starting a new session`);
    // The new initialize must not claim the old session's version (the spec sends none before negotiation).
    this.negotiatedVersion = undefined;
    return this.handshake(wire, identity);
  }

  shapeParams(params: JsonParams | undefined, context: AttemptContext): JsonParams | undefined {
    // Everything the handshake era needs was said once, in initialize.
    void context;
    return params;
  }

  headersFor(request: OutgoingHttpRequest): Record<string, string> {
    // Every request after the handshake carries the version, messages and streams alike.
    void request;
    return this.negotiatedVersion === undefined ? {} : { 'MCP-Protocol-Version': this.negotiatedVersion };
  }

  interpret(outcome: AttemptOutcome, context: AttemptContext): AttemptVerdict {
    if (outcome.kind === 'result') {
      const resultType = outcome.result.resultType;
      // Core handshake results have no resultType; one an enabled protocol extension owns is handed to it.
      if (typeof resultType === 'string' && context.extensionResultTypes.has(resultType))
        return { kind: 'extension-result', resultType, result: outcome.result };
      return { kind: 'complete', result: outcome.result };
    }
    const error = outcome.error;
    if (isLocalError(error, 'session-expired')) return { kind: 'renew-session', reason: 'session expired' };
    if (error instanceof McpError && error.code === ErrorCodes.UrlElicitationRequired) {
      const elicitations = requiredUrlElicitations(error.data);
      if (elicitations) return { kind: 'url-elicitation-required', elicitations, error };
    }
    return { kind: 'fail', error };
  }

  livenessMethod(): 'ping' {
    return 'ping';
  }

  preflight(_method: ClientRequestMethod, _params: JsonParams | undefined, _refresh: boolean): Preflight {
    // The handshake era caches nothing and every method of the table exists in it.
    return SEND;
  }

  urlElicitationNeedsId(): boolean {
    return true;
  }

  async changeResourceSubscription(
    uri: string,
    subscribed: boolean,
    _all: readonly string[],
    send: EraRequests,
  ): Promise<void> {
    await send.request(subscribed ? 'resources/subscribe' : 'resources/unsubscribe', { uri });
  }

  async setLogLevel(level: LoggingLevel, send: EraRequests): Promise<void> {
    await send.request('logging/setLevel', { level });
  }

  async rootsChanged(send: EraRequests): Promise<void> {
    // Before the handshake completed there is no session to tell; the roots are asked for when needed.
    if (this.negotiatedVersion !== undefined) await send.notify('notifications/roots/list_changed', undefined);
  }

  private async handshake(wire: EraWire, identity: ClientIdentity): Promise<HandshakeSession> {
    const offered = this.options.protocolVersions ?? HANDSHAKE_VERSIONS;
    const result = await wire.request(
      'initialize',
      {
        protocolVersion: offered[0],
        capabilities: handshakeCapabilities(identity.capabilities, offered[0]),
        clientInfo: identity.clientInfo,
      },
      { cancellable: false, timeoutMs: this.options.initializeTimeoutMs ?? DEFAULT_INITIALIZE_TIMEOUT_MS },
    );
    const version: unknown = result.protocolVersion;
    if (!isSupportedHandshakeVersion(version) || !offered.includes(version)) {
      throw new LocalError(
        'unsupported-version',
        `${wire.serverName} answered with protocol version ${JSON.stringify(version)}, which this client does not support (it supports ${offered.join(', ')}); disconnecting`,
      );
    }
    if (
      typeof result.serverInfo !== 'object' ||
      result.serverInfo === null ||
      typeof result.capabilities !== 'object' ||
      result.capabilities === null
    ) {
      throw new LocalError(
        'protocol-violation',
        `${wire.serverName}: the initialize result lacks serverInfo or capabilities`,
      );
    }
    this.negotiatedVersion = version;
    wire.transport.openServerChannel?.();
    await wire.notify('notifications/initialized', undefined);
    return {
      kind: 'handshake',
      protocolVersion: version,
      capabilities: result.capabilities,
      serverInfo: result.serverInfo,
      instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
    };
  }
}

/** The URL elicitations listed in a -32042 error's data, or undefined when the list is absent or malformed. */
function requiredUrlElicitations(data: unknown): RequiredUrlElicitation[] | undefined {
  if (!isObject(data)) return undefined;
  const listed: unknown = data.elicitations;
  if (!Array.isArray(listed) || listed.length === 0) return undefined;
  const items: readonly unknown[] = listed;
  const elicitations: RequiredUrlElicitation[] = [];
  for (const item of items) {
    if (!isObject(item)) return undefined;
    const { url, elicitationId, message } = item;
    if (typeof url !== 'string' || typeof elicitationId !== 'string') return undefined;
    elicitations.push({ url, elicitationId, message: typeof message === 'string' ? message : undefined });
  }
  return elicitations;
}

/**
 * Core capabilities that came with a revision (2025-11-25 `tasks`, which the tasks extension declares) are not
 * offered in an `initialize` of an older one, whose ClientCapabilities has no such field.
 */
const CAPABILITY_SINCE: Readonly<Record<string, string>> = { tasks: '2025-11-25' };

function handshakeCapabilities(capabilities: ClientCapabilities, version: string): ClientCapabilities {
  const dropped = Object.keys(capabilities).filter(
    (key) => CAPABILITY_SINCE[key] !== undefined && !versionAtLeast(version, CAPABILITY_SINCE[key]),
  );
  if (dropped.length === 0) return capabilities;
  return Object.fromEntries(Object.entries(capabilities).filter(([key]) => !dropped.includes(key)));
}
