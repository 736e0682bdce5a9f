import { ErrorCodes, LocalError, McpError, isLocalError } from '../errors';
import type { JsonParams } from '../methods';
import { HttpStatusError } from '../transports/httpShared';
import type { OutgoingHttpRequest, TransportKind } from '../transports/transport';
import type { JsonObject, LoggingLevel } from '../types';
import { isSupportedHandshakeVersion } from '../versions';
import type { AttemptContext, AttemptOutcome, AttemptVerdict, ClientIdentity, EraKind, EraWire, ProtocolEra, ServerSession } from './era';
import { HandshakeEra, type HandshakeEraOptions } from './handshake';
import { DiscoverFailure, ModernEra, type ModernEraOptions } from './modern/modernEra';

/**
 * Era selection: which protocol era a connection speaks. `legacy` is the initialize handshake (up to
 * 2025-11-25), `2026-07-28` the modern era, and `auto` tries the modern era first and falls back to the
 * handshake for a server that does not speak it (transports/stdio.mdx and streamable-http.mdx, "Backward
 * Compatibility"). The choice is made once, when the connection opens, and kept for its life.
 */
export type EraPreference = 'auto' | '2026-07-28' | 'legacy';

export const ERA_PREFERENCES: readonly EraPreference[] = ['auto', '2026-07-28', 'legacy'];

export interface EraSelectionOptions {
  handshake?: HandshakeEraOptions;
  modern?: ModernEraOptions;
  /** auto over stdio: how long server/discover may stay unanswered before the server counts as legacy. */
  probeTimeoutMs?: number;
}

export const DEFAULT_PROBE_TIMEOUT_MS = 5_000;

export function createEra(preference: EraPreference, options: EraSelectionOptions = {}): ProtocolEra {
  switch (preference) {
    case 'legacy':
      return new HandshakeEra(options.handshake);
    case '2026-07-28':
      return new ModernEra(options.modern);
    case 'auto':
      return new AutoEra(options);
  }
}

/**
 * Why a failed modern probe means "this server speaks an earlier revision", or undefined when it does not:
 * then the failure stands (a modern server's error, an authorization or TLS failure, a dead process).
 * The decision never hangs on one error code: any JSON-RPC error that is not one of the modern era's own,
 * a timeout on stdio, or an HTTP 400/404/405 whose body is not a modern error all mean legacy.
 */
export function legacyFallbackReason(error: unknown, transport: TransportKind): string | undefined {
  if (error instanceof McpError) {
    const modernCodes: readonly number[] = [ErrorCodes.HeaderMismatch, ErrorCodes.MissingRequiredClientCapability, ErrorCodes.UnsupportedProtocolVersion];
    if (modernCodes.includes(error.code)) return undefined;
    return `server/discover was answered with error ${error.code} (${error.rawMessage})`;
  }
  if (error instanceof HttpStatusError) {
    // Authorization is never a reason to change eras: the person must see the 401/403 for what it is.
    if (error.status === 400 || error.status === 404 || error.status === 405) return `server/discover got HTTP ${error.status} without a 2026-07-28 error in the body`;
    return undefined;
  }
  if (error instanceof DiscoverFailure) {
    if (error.kind === 'unsupported-version') return undefined;
    return error.message;
  }
  if (isLocalError(error, 'unsupported-version')) {
    // -32022 listing only handshake-era revisions: the server speaks modern errors but wants initialize.
    const cause = error.cause;
    const supported = cause instanceof McpError ? (cause.data as { supported?: unknown } | undefined)?.supported : undefined;
    if (Array.isArray(supported) && supported.some((version) => isSupportedHandshakeVersion(version))) {
      return `the server supports only ${supported.join(', ')}`;
    }
    return undefined;
  }
  if (isLocalError(error, 'timeout') && transport === 'stdio') return 'server/discover was not answered in time';
  return undefined;
}

class AutoEra implements ProtocolEra {
  private readonly modern: ModernEra;
  private readonly handshake: HandshakeEra;
  private chosen: ProtocolEra | undefined;

  constructor(private readonly options: EraSelectionOptions) {
    this.modern = new ModernEra({ ...options.modern, probe: true });
    this.handshake = new HandshakeEra(options.handshake);
  }

  private get current(): ProtocolEra {
    return this.chosen ?? this.modern;
  }

  get kind(): EraKind {
    return this.current.kind;
  }

  async open(wire: EraWire, identity: ClientIdentity): Promise<ServerSession> {
    if (this.chosen) return this.chosen.open(wire, identity);
    const probing = wire.transport.kind === 'stdio' ? new ModernEraProbe(this.options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS) : undefined;
    try {
      const session = await this.modern.open(probing ? probing.wire(wire) : wire, identity);
      this.chosen = this.modern;
      return session;
    } catch (error) {
      const reason = legacyFallbackReason(error, wire.transport.kind);
      if (reason === undefined) throw error;
      wire.logger.info(`${wire.serverName}: not a 2026-07-28 server (${reason}); using the initialize handshake`);
      this.modern.close();
      wire.transport.setSessionMode?.('sessions');
      this.chosen = this.handshake;
      return this.handshake.open(wire, identity);
    }
  }

  renew(wire: EraWire, identity: ClientIdentity, reason: string): Promise<ServerSession> {
    return this.current.renew(wire, identity, reason);
  }

  shapeParams(params: JsonParams | undefined, context: AttemptContext): JsonParams | undefined {
    return this.current.shapeParams(params, context);
  }

  headersFor(request: OutgoingHttpRequest): Record<string, string> {
    return this.current.headersFor(request);
  }

  interpret(outcome: AttemptOutcome, context: AttemptContext): AttemptVerdict {
    return this.current.interpret(outcome, context);
  }

  acceptsNotification(method: string, params: JsonObject): boolean {
    return this.current.acceptsNotification?.(method, params) ?? true;
  }

  close(): void {
    this.current.close?.();
  }

  setLogLevel(level: LoggingLevel | undefined): void {
    this.current.setLogLevel?.(level);
  }

  setSubscribedResources(uris: readonly string[]): void {
    this.current.setSubscribedResources?.(uris);
  }
}

/** Shortens the probe's server/discover timeout on stdio, where a legacy server may simply never answer. */
class ModernEraProbe {
  constructor(private readonly timeoutMs: number) {}

  wire(inner: EraWire): EraWire {
    return {
      serverName: inner.serverName,
      logger: inner.logger,
      transport: inner.transport,
      notify: (method, params) => inner.notify(method, params),
      request: (method, params, options) =>
        inner.request(method, params, method === 'server/discover' ? { ...options, timeoutMs: Math.min(options?.timeoutMs ?? this.timeoutMs, this.timeoutMs) } : options),
    };
  }
}

export function describeEra(session: ServerSession): string {
  switch (session.kind) {
    case 'handshake':
      return `handshake era (initialize), revision ${session.protocolVersion}`;
    case 'modern':
      return `2026-07-28 era (stateless, server/discover), revision ${session.protocolVersion}`;
  }
}

/** For messages: the reason an era preference string is not one we know. */
export function parseEraPreference(value: string): EraPreference {
  if ((ERA_PREFERENCES as readonly string[]).includes(value)) return value as EraPreference;
  throw new LocalError('invalid-argument', `unknown protocol era ${JSON.stringify(value)}: use ${ERA_PREFERENCES.join(', ')}`);
}
