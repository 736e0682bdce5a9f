import { LocalError, errorDetail, isLocalError, type ProbeReason } from '../errors';
import type { ClientRequestMethod, JsonParams } from '../methods';
import type { OutgoingHttpRequest } from '../transports/transport';
import type { JsonObject, LoggingLevel } from '../types';
import type {
  AttemptContext,
  AttemptOutcome,
  AttemptVerdict,
  ClientIdentity,
  EraKind,
  EraRequests,
  EraWire,
  HandshakeSession,
  Preflight,
  ProtocolEra,
  ServerSession,
  WantedNotifications,
} from './era';
import { wireWithRequests } from './era';
import { recall, remember, type EraMemorySlot } from './eraMemory';
import { EraProbe, type ProbeTiming } from './eraProbe';
import { HandshakeEra, type HandshakeEraOptions } from './handshake';
import { handshakeFallbackReason } from './modern/handshakeFallback';
import { ModernEra, type ModernEraOptions } from './modern/modernEra';

interface AutoEraOptions {
  handshake?: HandshakeEraOptions;
  modern?: ModernEraOptions;
  probe: ProbeTiming;
  /**
   * The one deadline of a start (the request timeout): the probe and the handshake after it share it, so a server
   * that answers nothing fails within it, not after the probe's wait plus initialize's whole timeout.
   */
  startTimeoutMs: number;
  memory?: EraMemorySlot;
}

/**
 * Era "auto": the 2026-07-28 era first, the handshake for a server that does not speak it (transports/stdio.mdx and
 * streamable-http.mdx, "Backward Compatibility"). The choice is made once per connection and remembered per server
 * definition (EraMemory), so a server known to speak the handshake is not probed again.
 */
export class AutoEra implements ProtocolEra {
  private readonly modern: ModernEra;
  private readonly handshake: HandshakeEra;
  private chosen: ProtocolEra | undefined;

  constructor(private readonly options: AutoEraOptions) {
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
    if ((await recall(this.options.memory)) === 'handshake') {
      this.chosen = this.handshake;
      const session = await this.handshake.open(wire, identity);
      return {
        ...session,
        eraChoice: 'era auto: this server spoke the initialize handshake at its last start, so it was not probed',
      };
    }
    const startedAt = Date.now();
    const probe = wire.transport.kind === 'stdio' ? new EraProbe(this.options.probe) : undefined;
    try {
      const session = await this.modern.open(probe ? probe.wire(wire) : wire, identity);
      this.chosen = this.modern;
      await remember(this.options.memory, 'modern');
      return { ...session, eraChoice: 'era auto: the server answered server/discover' };
    } catch (error) {
      const reason = handshakeFallbackReason(error, wire.transport.kind);
      if (reason === undefined) throw error;
      // The probe ended by its grace (the server talked but left server/discover unanswered) or its full timeout.
      const slowProbe =
        probe !== undefined && (reason.includes('slow to answer the probe') || reason.includes('not answered in time'));
      const ranOut = slowProbe && !reason.includes('slow to answer the probe');
      // A server that said nothing at all is not "slow to answer": its silence says nothing about its revision.
      const slow = !ranOut
        ? reason
        : probe.sawEvidence
          ? `the server was slow to answer the probe (${reason})`
          : `the server showed no sign of life and ${reason}`;
      const graceRanOut = errorDetail(error);
      const said: ProbeReason = ranOut
        ? { kind: probe.sawEvidence ? 'slow' : 'no-sign-of-life' }
        : graceRanOut?.kind === 'probe-grace-ran-out'
          ? { kind: 'grace-ran-out', server: graceRanOut.server, upMs: graceRanOut.upMs, graceMs: graceRanOut.graceMs }
          : { kind: 'verbatim', text: reason };
      wire.logger.info(`${wire.serverName}: not a 2026-07-28 server (${slow}); using the initialize handshake`);
      this.modern.close();
      wire.transport.setSessionMode?.('sessions');
      this.chosen = this.handshake;
      // Only a probe that ended by waiting shares the start's deadline with initialize: a server that answered it
      // (even with an error) is responsive, and the time before its answer may be a person signing in (HTTP), which
      // the request deadline waits for.
      const session = slowProbe
        ? await this.handshakeWithinStart(wire, identity, { spentMs: Date.now() - startedAt, reason: slow, said })
        : await this.handshake.open(wire, identity);
      // Only a probe that cost a wait is worth skipping next time; a server that refuses server/discover at once is
      // probed again (one round trip), so it is found the day it starts speaking 2026-07-28.
      if (slowProbe) await remember(this.options.memory, 'handshake');
      return {
        ...session,
        eraChoice: `era auto: not a 2026-07-28 server (${slow}), so the initialize handshake was used`,
      };
    }
  }

  /** The handshake after a failed probe, given what is left of the start's deadline. */
  private async handshakeWithinStart(
    wire: EraWire,
    identity: ClientIdentity,
    probe: { spentMs: number; reason: string; said: ProbeReason },
  ): Promise<HandshakeSession> {
    const totalMs = this.options.startTimeoutMs;
    const leftMs = totalMs - probe.spentMs;
    const startTimedOut = (initializeMs: number, cause?: unknown) =>
      new LocalError(
        'timeout',
        `${wire.serverName}: the start timed out after ${totalMs} ms: the era probe took ${probe.spentMs} ms (${probe.reason}), ` +
          (initializeMs > 0
            ? `then initialize was not answered for ${initializeMs} ms`
            : 'which left no time for initialize'),
        {
          cause,
          detail: {
            kind: 'start-timed-out',
            totalMs,
            probeMs: probe.spentMs,
            reason: probe.said,
            ...(initializeMs > 0 ? { initializeMs } : {}),
          },
        },
      );
    if (leftMs <= 0) throw startTimedOut(0);
    const initializeStartedAt = Date.now();
    try {
      return await this.handshake.open(capRequestTimeouts(wire, leftMs), identity);
    } catch (error) {
      if (isLocalError(error, 'timeout')) throw startTimedOut(Date.now() - initializeStartedAt, error);
      throw error;
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

  livenessMethod(): 'ping' | 'server/discover' {
    return this.current.livenessMethod();
  }

  preflight(method: ClientRequestMethod, params: JsonParams | undefined, refresh: boolean): Preflight {
    return this.current.preflight(method, params, refresh);
  }

  completed(method: ClientRequestMethod, params: JsonParams | undefined, result: JsonObject): void {
    this.current.completed?.(method, params, result);
  }

  urlElicitationNeedsId(): boolean {
    return this.current.urlElicitationNeedsId();
  }

  changeResourceSubscription(
    uri: string,
    subscribed: boolean,
    all: readonly string[],
    send: EraRequests,
  ): Promise<void> {
    return this.current.changeResourceSubscription(uri, subscribed, all, send);
  }

  setLogLevel(level: LoggingLevel, send: EraRequests): Promise<void> {
    return this.current.setLogLevel(level, send);
  }

  rootsChanged(send: EraRequests): Promise<void> {
    return this.current.rootsChanged(send);
  }

  setWantedNotifications(wanted: WantedNotifications): void {
    // Only the modern candidate acts on it (the handshake era's notifications need no stream).
    this.modern.setWantedNotifications(wanted);
  }
}

/** The wire with every request's timeout cut to at most `capMs` (what is left of a start's deadline). */
function capRequestTimeouts(inner: EraWire, capMs: number): EraWire {
  return wireWithRequests(inner, (method, params, options) =>
    inner.request(method, params, { ...options, timeoutMs: Math.min(options?.timeoutMs ?? capMs, capMs) }),
  );
}
