import type { Disposable } from '../../protocol/disposable';
import type { ClientHost, ElicitationMode, RequestContext } from '../../protocol/host';
import type { CreateMessageResult, ElicitResult, JsonObject, Root } from '../../protocol/types';

/** A server→client request the gateway may hand to an agent. */
export type RelayedCapability = 'sampling' | 'elicitation' | 'roots';

/** One agent request in flight upstream: the agent that may be asked what the server asks during it. */
export interface AgentCall {
  /** The agent (its session); two calls of one agent share it. */
  readonly agent: string;
  /** Whether the agent declared the capability (its `initialize`, or a 2026-07-28 request's envelope). */
  declares(capability: RelayedCapability): boolean;
  /**
   * Sends the server's request to the agent: related to the agent's own request (a 2025 session's stream), or as
   * the next input-required round of a 2026-07-28 agent's call.
   */
  send(method: string, params: JsonObject, signal: AbortSignal): Promise<JsonObject>;
}

/**
 * The host services of the upstream client when a gateway serves it: a server's sampling, elicitation and roots
 * requests go to the agent whose call they belong to when that agent declared the capability, and otherwise to the
 * host's own services (`fallback`: the extension's review panel and forms; the CLI's refusals).
 *
 * Which call a request belongs to: a 2026-07-28 server's input requests come back with the call that raised them,
 * so the client hands this host the very signal the gateway passed with the call. A handshake server's request
 * names no call (stdio carries no link), so it is the agent's only when one agent alone has calls in flight; with
 * calls of several agents in flight it goes to the host, never to an agent it may not belong to.
 */
export class GatewayHostRelay {
  private readonly calls = new Map<AbortSignal, AgentCall>();

  constructor(private readonly fallback: ClientHost) {}

  /** Records an agent's call in flight under the signal it goes upstream with, until the returned disposable. */
  track(signal: AbortSignal, call: AgentCall): Disposable {
    this.calls.set(signal, call);
    return { dispose: () => void this.calls.delete(signal) };
  }

  /** The agent call a server request belongs to, or undefined when it cannot be told. */
  private callFor(signal: AbortSignal | undefined): AgentCall | undefined {
    const own = signal && this.calls.get(signal);
    if (own) return own;
    let latest: AgentCall | undefined;
    for (const call of this.calls.values()) {
      if (latest && latest.agent !== call.agent) return undefined;
      latest = call;
    }
    return latest;
  }

  /** The ClientHost to build the upstream client with: it declares what the fallback offers. */
  get host(): ClientHost {
    const { fallback } = this;
    const host: ClientHost = {};
    const sampling = fallback.sampling;
    if (sampling)
      host.sampling = {
        supportsTools: sampling.supportsTools,
        createMessage: async (request, context: RequestContext) => {
          const call = this.callFor(context.signal);
          if (call?.declares('sampling'))
            return (await call.send(
              'sampling/createMessage',
              request as unknown as JsonObject,
              context.signal,
            )) as unknown as CreateMessageResult;
          return sampling.createMessage(request, context);
        },
      };
    const elicitation = fallback.elicitation;
    if (elicitation)
      host.elicitation = {
        modes: elicitation.modes as readonly ElicitationMode[],
        elicit: async (request, context) => {
          const call = this.callFor(context.signal);
          if (call?.declares('elicitation'))
            return (await call.send(
              'elicitation/create',
              request as unknown as JsonObject,
              context.signal,
            )) as unknown as ElicitResult;
          return elicitation.elicit(request, context);
        },
        completed: elicitation.completed?.bind(elicitation),
      };
    const roots = fallback.roots;
    if (roots)
      host.roots = {
        listRoots: async () => {
          const call = this.callFor(undefined);
          if (call?.declares('roots')) {
            const result = await call.send('roots/list', {}, new AbortController().signal);
            return Array.isArray(result.roots) ? (result.roots as Root[]) : [];
          }
          return roots.listRoots();
        },
      };
    return host;
  }
}
