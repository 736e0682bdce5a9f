/**
 * Every message between an agent and the gateway, for the Protocol view (issue 37: "every agent message appears …
 * labelled with the agent"): read at the gateway's edge, as the agent sent it and as it was answered, whichever part
 * of the gateway (the SDK's transports, its stateless handler, the direct path) served it. The handshake the gateway
 * answers itself, subscriptions, `logging/setLevel`, the agent's notifications and its answers to the server's
 * requests never reach the upstream, so they could not be seen from there.
 */
import { CLIENT_INFO_META_KEY, type Server } from '@modelcontextprotocol/server';
import type { TraceDirection } from '../../protocol/jsonrpc/mcpStreams';
import { SseParser } from '../../protocol/transports/sseParser';
import { agentIdentity, type AgentIdentity } from './agents';
import type { DirectResponse } from './directPath';

/** One message of an agent's: `receive` from the agent, `send` to it (the Protocol view's ⇐ and ⇒). */
export type AgentMessageSink = (agent: AgentIdentity, direction: TraceDirection, message: unknown) => void;

/** Where agents' messages are shown (the extension's Protocol view). */
export interface AgentMessageTap {
  /**
   * Asked once per exchange with an agent: where its messages go while someone looks, or undefined while no one
   * does. Then nothing of the exchange is read, parsed or wrapped: the hot path pays one call.
   */
  listening(): AgentMessageSink | undefined;
}

/**
 * The agent of an exchange that is not a 2025 session's: an `initialize` names itself in its params, a 2026-07-28
 * request in its envelope. Its key is the exchange's own: a stateless agent's ids repeat from one request to the next,
 * and an `initialize`'s session does not exist yet. Only its answer, on the same exchange, pairs with it.
 */
export function exchangeAgent(body: unknown, exchange: number): AgentIdentity {
  const first = (Array.isArray(body) ? body[0] : body) as { method?: unknown; params?: unknown } | undefined;
  const params = isRecord(first?.params) ? first.params : undefined;
  const meta = isRecord(params?._meta) ? params._meta : undefined;
  const info = first?.method === 'initialize' ? params?.clientInfo : meta?.[CLIENT_INFO_META_KEY];
  return agentIdentity(`exchange:${exchange}`, isRecord(info) ? info : undefined);
}

/** A 2025 session's agent, as its `initialize` named it; the key is the one its requests are limited by (agentOf). */
export function sessionAgent(id: string, server: Server): AgentIdentity {
  return agentIdentity(`session:${id}`, server.getClientVersion());
}

/** A 2026-07-28 `subscriptions/listen`: its stream lasts, and the server's notifications reach the agent on it. */
export function isListen(body: unknown): boolean {
  return (body as { method?: unknown } | undefined)?.method === 'subscriptions/listen';
}

/** Each message of an agent's body (a batch is its messages), from the agent. */
export function heardFrom(sink: AgentMessageSink, agent: AgentIdentity, body: unknown): void {
  if (body === undefined) return;
  for (const message of Array.isArray(body) ? body : [body]) report(sink, agent, 'receive', message);
}

/**
 * The response with each JSON-RPC message of its body reported as it passes to the agent (one JSON body, or the
 * events of a `text/event-stream`), the bytes untouched. `sink` is asked per message: a long-lived stream (a 2025
 * session's GET, a `subscriptions/listen`) opened before anyone looked reports once someone does.
 */
export function toldTo(response: Response, agent: AgentIdentity, sink: () => AgentMessageSink | undefined): Response {
  if (!response.body) return response;
  const type = response.headers.get('content-type') ?? '';
  const tell = (text: string) => {
    const now = sink();
    if (!now) return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return; // Not JSON (a keep-alive's data, an empty body): nothing the agent could read as a message.
    }
    for (const each of Array.isArray(message) ? message : [message]) report(now, agent, 'send', each);
  };
  let transform: Transformer<Uint8Array, Uint8Array>;
  if (type.includes('text/event-stream')) {
    const parser = new SseParser({ event: (event) => tell(event.data) });
    transform = {
      transform: (chunk, controller) => {
        controller.enqueue(chunk);
        guarded(() => parser.push(chunk));
      },
      flush: () => guarded(() => parser.end()),
    };
  } else if (type.includes('application/json')) {
    const decoder = new TextDecoder();
    let text = '';
    transform = {
      transform: (chunk, controller) => {
        controller.enqueue(chunk);
        text += decoder.decode(chunk, { stream: true });
      },
      flush: () => guarded(() => tell(text + decoder.decode())),
    };
  } else return response;
  return new Response(response.body.pipeThrough(new TransformStream(transform)), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** A direct call's answer with each message it writes (its progress, relayed requests, the answer) reported. */
export function toldDirect(response: DirectResponse, agent: AgentIdentity, sink: AgentMessageSink): DirectResponse {
  return {
    event: (message) => {
      report(sink, agent, 'send', message);
      response.event(message);
    },
    end: (message) => {
      report(sink, agent, 'send', message);
      response.end(message);
    },
  };
}

/** The observer's failure is its own: what the agent gets never depends on it. */
function report(sink: AgentMessageSink, agent: AgentIdentity, direction: TraceDirection, message: unknown): void {
  guarded(() => sink(agent, direction, message));
}

function guarded(step: () => void): void {
  try {
    step();
  } catch {
    // See report.
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
