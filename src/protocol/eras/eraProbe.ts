import type { Disposable } from '../disposable';
import { wireWithRequests, type EraWire, type WireRequestOptions } from './era';
import { DiscoverFailure } from './modern/handshakeFallback';

/**
 * The era probe over stdio. Some servers of earlier revisions never answer a request they do not know, so a silent
 * server/discover would cost every start the whole probe timeout. The probe decides from what the server says first:
 * anything it sends (a response, an error, a request, a notification) or writes to stderr before answering shows it
 * is up and reading; if the discover answer still has not come a short grace later, the server counts as one that
 * ignores the probe. A server that says nothing at all (npx still installing, a runtime compiling) keeps the full
 * timeout, because its silence says nothing about its revision.
 */
export interface ProbeTiming {
  /** The most the probe waits for a server that shows no sign of life. */
  timeoutMs: number;
  /** How long after the first sign of life the discover answer may still take. */
  graceMs: number;
}

export class EraProbe {
  private evidenceAt: number | undefined;
  private readonly startedAt = Date.now();

  constructor(private readonly timing: ProbeTiming) {}

  /** Whether the server gave a sign of life before the probe ended (for the era choice's reason). */
  get sawEvidence(): boolean {
    return this.evidenceAt !== undefined;
  }

  /** The wire the modern era probes through: server/discover is bounded as described above. */
  wire(inner: EraWire): EraWire {
    return wireWithRequests(inner, (method, params, options) =>
      method === 'server/discover'
        ? this.discover(inner, (signal) => inner.request(method, params, this.bounded(options, signal)))
        : inner.request(method, params, options),
    );
  }

  private bounded(options: WireRequestOptions | undefined, signal: AbortSignal): WireRequestOptions {
    // The probe is never cancellable (a handshake-era server must see nothing before initialize): aborting only abandons it.
    return {
      ...options,
      signal,
      timeoutMs: Math.min(options?.timeoutMs ?? this.timing.timeoutMs, this.timing.timeoutMs),
    };
  }

  private discover<T>(inner: EraWire, send: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let grace: ReturnType<typeof setTimeout> | undefined;
      const abandon = new AbortController();
      const watchers: Disposable[] = [];
      const finish = () => {
        if (grace) clearTimeout(grace);
        for (const watcher of watchers) watcher.dispose();
      };
      const onEvidence = () => {
        if (this.evidenceAt !== undefined) return;
        this.evidenceAt = Date.now();
        grace = setTimeout(() => {
          finish();
          abandon.abort();
          const upMs = this.evidenceAt! - this.startedAt;
          reject(
            new DiscoverFailure(
              'timeout',
              `${inner.serverName} was slow to answer the probe: it was up ${upMs} ms after start but left server/discover unanswered for ${this.timing.graceMs} ms more`,
              { detail: { kind: 'probe-grace-ran-out', server: inner.serverName, upMs, graceMs: this.timing.graceMs } },
            ),
          );
        }, this.timing.graceMs);
      };
      watchers.push(inner.onServerMessage(onEvidence));
      watchers.push(inner.transport.onDiagnostic((line) => line.startsWith('stderr: ') && onEvidence()));
      send(abandon.signal).then(
        (result) => {
          finish();
          resolve(result);
        },
        (error: unknown) => {
          finish();
          reject(error);
        },
      );
    });
  }
}
