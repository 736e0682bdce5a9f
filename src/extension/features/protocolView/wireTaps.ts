import type { Disposable } from '../../../protocol/disposable';
import type { TraceDirection } from '../../../protocol/jsonrpc/mcpStreams';
import type { HttpExchangeRecord, WireObserver } from '../../../protocol/transports/wireObserver';
import { ProtocolLog } from '../../../workbench/protocolLog/protocolLog';

/**
 * The wire of one server, across its restarts. It is attached to every connection of the server, and keeps a
 * ProtocolLog only while someone holds it (a Show Protocol panel, dev mode): otherwise each message costs one
 * property read, and nothing is masked, serialized or kept.
 */
export class WireTap implements WireObserver {
  private logValue: ProtocolLog | undefined;
  private holders = 0;

  constructor(private readonly knownSecrets: () => readonly string[]) {}

  get log(): ProtocolLog | undefined {
    return this.logValue;
  }

  /** Starts keeping the log (or shares the one kept); the log is dropped when the last holder lets go. */
  hold(): { log: ProtocolLog } & Disposable {
    this.holders++;
    this.logValue ??= new ProtocolLog(this.knownSecrets);
    const log = this.logValue;
    let released = false;
    return {
      log,
      dispose: () => {
        if (released) return;
        released = true;
        if (--this.holders === 0) {
          this.logValue?.dispose();
          this.logValue = undefined;
        }
      },
    };
  }

  message(direction: TraceDirection, message: unknown): void {
    this.logValue?.message(direction, message);
  }

  http(exchange: HttpExchangeRecord): void {
    this.logValue?.http(exchange);
  }

  /**
   * Where an agent's messages through the server's gateway go while the log is kept; undefined while it is not (the
   * gateway then reads nothing of them).
   */
  agentMessages():
    ((agent: { key: string; label: string }, direction: TraceDirection, message: unknown) => void) | undefined {
    const log = this.logValue;
    return log && ((agent, direction, message) => log.agentMessage(agent, direction, message));
  }

  console(line: string): void {
    this.logValue?.console(line);
  }
}

/** One WireTap per server id, for the launcher (attach) and the Protocol view (hold). */
export class WireTaps {
  private readonly taps = new Map<string, WireTap>();

  tapFor(serverId: string, knownSecrets: () => readonly string[]): WireTap {
    let tap = this.taps.get(serverId);
    if (!tap) {
      tap = new WireTap(knownSecrets);
      this.taps.set(serverId, tap);
    }
    return tap;
  }
}
