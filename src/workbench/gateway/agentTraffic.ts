import { McpError, errorMessage, isLocalError } from '../../protocol/errors';
import type { JsonObject } from '../../protocol/types';
import type { HistoryOperation, HistoryOutcome, HistoryRecord, HistoryServer } from '../history/historyLog';
import { escapeForDisplay } from '../urlPolicy';
import type { AgentIdentity } from './agents';
import { ToolPolicyRefusal, type RefusalReason } from './toolPolicy';
import type { GatewayUpstream } from './upstream';

/** How an agent's request through the gateway ended, as the agent was answered. */
export type AgentRequestEnd = { kind: 'answered'; result: JsonObject } | { kind: 'threw'; error: unknown };

/**
 * Hears every request an agent sends through the gateway to the server (what reaches `GatewayUpstream.request`, and
 * pings) and how it ended:
 * the extension's Protocol view and History label it with the agent. `request` is called when the request arrives and
 * returns what is called once with its end. An observer's failure never changes what the agent gets.
 */
export interface AgentTrafficObserver {
  request(
    agent: AgentIdentity | undefined,
    method: string,
    params: JsonObject | undefined,
  ): (end: AgentRequestEnd) => void;
}

/** The upstream with every agent request reported to `observer` (outside the tool policy: it sees what agents get). */
export function observedUpstream(upstream: GatewayUpstream, observer: AgentTrafficObserver): GatewayUpstream {
  const heard = (agent: AgentIdentity | undefined, method: string, params: JsonObject | undefined) => {
    try {
      const end = observer.request(agent, method, params);
      return (outcome: AgentRequestEnd) => {
        try {
          end(outcome);
        } catch {
          // The observer's failure is its own.
        }
      };
    } catch {
      return () => undefined;
    }
  };
  const observed: GatewayUpstream = Object.create(upstream) as GatewayUpstream;
  return Object.assign(observed, {
    name: upstream.name,
    session: () => upstream.session(),
    ping: async (options: Parameters<GatewayUpstream['ping']>[0]) => {
      const end = heard(options.agent, 'ping', undefined);
      try {
        await upstream.ping(options);
        end({ kind: 'answered', result: {} });
      } catch (error) {
        end({ kind: 'threw', error });
        throw error;
      }
    },
    subscribe: upstream.subscribe.bind(upstream),
    unsubscribe: upstream.unsubscribe.bind(upstream),
    setLogLevel: upstream.setLogLevel.bind(upstream),
    onToolsChanged: upstream.onToolsChanged.bind(upstream),
    onResourcesChanged: upstream.onResourcesChanged.bind(upstream),
    onPromptsChanged: upstream.onPromptsChanged.bind(upstream),
    onResourceUpdated: upstream.onResourceUpdated.bind(upstream),
    onLogMessage: upstream.onLogMessage.bind(upstream),
    request: async (
      method: string,
      params: JsonObject | undefined,
      options: Parameters<GatewayUpstream['request']>[2],
    ) => {
      const end = heard(options.agent, method, params);
      try {
        const result = await upstream.request(method, params, options);
        end({ kind: 'answered', result });
        return result;
      } catch (error) {
        end({ kind: 'threw', error });
        throw error;
      }
    },
    ...(upstream.callToolUnwaited
      ? {
          callToolUnwaited: async (
            name: string,
            args: Record<string, unknown>,
            options: Parameters<GatewayUpstream['request']>[2],
          ) => {
            const end = heard(options.agent, 'tools/call', { name, arguments: args as JsonObject });
            try {
              const result = await upstream.callToolUnwaited?.(name, args, options);
              // Undefined: the call goes on through `request`, which reports it.
              if (result !== undefined) end({ kind: 'answered', result });
              return result;
            } catch (error) {
              end({ kind: 'threw', error });
              throw error;
            }
          },
        }
      : {}),
  });
}

/** `name version` of an agent, escaped for display; `?` for one that named itself nothing. */
export function agentLabel(agent: AgentIdentity | undefined): string {
  if (!agent) return '?';
  return escapeForDisplay(agent.version ? `${agent.name} ${agent.version}` : agent.name || '?');
}

/**
 * The History record of an agent's request, when it is one History keeps (a tool call, a resource read, a prompt get),
 * with its `source` naming the agent; undefined for the rest (lists, pings, tasks/get …: the Protocol view has them).
 */
export function agentCallRecord(options: {
  server: HistoryServer;
  agent: AgentIdentity | undefined;
  method: string;
  params: JsonObject | undefined;
  startedAt: number;
  endedAt: number;
  end: AgentRequestEnd;
  /** The host's words for a refusal of the tool policy (the extension's, translated); else the agent's message. */
  describeRefusal?: (reason: RefusalReason) => string;
}): HistoryRecord | undefined {
  const { params, end } = options;
  const operation = operationOf(options.method, params);
  if (!operation) return undefined;
  let outcome: HistoryOutcome;
  let result: unknown;
  switch (end.kind) {
    case 'answered':
      // A 2025 task's first answer is the task, not the result: History keeps what the agent was answered.
      outcome = end.result.isError === true ? { kind: 'tool-error' } : { kind: 'succeeded' };
      result = end.result;
      break;
    case 'threw':
      outcome =
        end.error instanceof ToolPolicyRefusal
          ? { kind: 'declined', note: options.describeRefusal?.(end.error.reason) ?? end.error.rawMessage }
          : isLocalError(end.error, 'cancelled')
            ? { kind: 'cancelled' }
            : {
                kind: 'failed',
                message: end.error instanceof McpError ? end.error.rawMessage : errorMessage(end.error),
              };
      break;
    default: {
      const exhaustive: never = end;
      return exhaustive;
    }
  }
  return {
    server: options.server,
    startedAt: options.startedAt,
    durationMs: options.endedAt - options.startedAt,
    operation,
    outcome,
    ...(result === undefined ? {} : { result }),
    source: { kind: 'agent', name: options.agent?.name ?? '', version: options.agent?.version ?? '' },
  };
}

function operationOf(method: string, params: JsonObject | undefined): HistoryOperation | undefined {
  switch (method) {
    case 'tools/call':
      return typeof params?.name === 'string'
        ? { kind: 'tool', toolName: params.name, arguments: objectOf(params.arguments) }
        : undefined;
    case 'resources/read':
      return typeof params?.uri === 'string' ? { kind: 'resource', uri: params.uri } : undefined;
    case 'prompts/get': {
      if (typeof params?.name !== 'string') return undefined;
      const args: Record<string, string> = {};
      for (const [key, value] of Object.entries(objectOf(params.arguments)))
        if (typeof value === 'string') args[key] = value;
      return { kind: 'prompt', promptName: params.name, arguments: args };
    }
    default:
      return undefined;
  }
}

function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
