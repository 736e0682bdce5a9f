import { LocalError } from '../errors';
import type { JsonParams } from '../methods';
import type { OutgoingHttpRequest } from '../transports/transport';
import type { JsonObject, LoggingLevel } from '../types';
import type { AttemptContext, AttemptOutcome, AttemptVerdict, ClientIdentity, EraKind, EraWire, ProtocolEra, ServerSession } from './era';
import { HandshakeEra, type HandshakeEraOptions } from './handshake';
import { legacyFallbackReason } from './modern/legacyDetection';
import { ModernEra, type ModernEraOptions } from './modern/modernEra';

export { legacyFallbackReason } from './modern/legacyDetection';

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

/**
 * Long enough for a stdio server that is still starting (npx installing, a runtime compiling: its silence says
 * nothing about its revision), short enough that a legacy server which ignores the unknown pre-initialize
 * request does not look hung. Legacy servers usually answer the probe at once with an error.
 */
export const DEFAULT_PROBE_TIMEOUT_MS = 15_000;

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
      switch (session.kind) {
        case 'modern':
          return 'era auto: the server answered server/discover';
        case 'handshake':
          return 'era auto: the server does not speak 2026-07-28 (see the reason above), so the initialize handshake was used';
      }
  }
}
