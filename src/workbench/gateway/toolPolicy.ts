import type { Disposable } from '../../protocol/disposable';
import { ErrorCodes, McpError } from '../../protocol/errors';
import type { JsonObject } from '../../protocol/types';
import type { AgentIdentity } from './agents';
import type { GatewayUpstream, UpstreamCallOptions } from './upstream';

/**
 * What happens when an agent calls a tool through the gateway: `run` as asked; `ask` the person first; `review` the
 * result with the person before it reaches the agent (a result can carry instructions aimed at the agent's model:
 * prompt injection).
 */
export type ToolRunPolicy = 'run' | 'ask' | 'review';

export const TOOL_RUN_POLICIES: readonly ToolRunPolicy[] = ['run', 'ask', 'review'];

/** One tool's rule for agents. Tools without a stored rule are enabled and run. */
export interface ToolRule {
  readonly enabled: boolean;
  readonly policy: ToolRunPolicy;
}

export const DEFAULT_TOOL_RULE: ToolRule = { enabled: true, policy: 'run' };

/** The stored form (a `--policy` file, the extension's workspace state): `{"tools": {"<name>": {"enabled": false}}}`. */
export interface StoredToolPolicy {
  tools: Record<string, { enabled?: boolean; policy?: ToolRunPolicy }>;
}

/** Rules kept per server: more than this many tools' rules in one file or state is refused, not silently cut. */
const MAX_RULES = 10_000;

/**
 * One server's per-tool rules for agents, host-neutral: the CLI reads them from a file, the extension from its
 * workspace state; a change fires `onDidChange`, which the gateway turns into `notifications/tools/list_changed`.
 */
export class ToolPolicy {
  private readonly rules = new Map<string, ToolRule>();
  private readonly listeners = new Set<() => void>();

  constructor(stored?: StoredToolPolicy) {
    if (stored) this.load(stored);
  }

  /** Reads a stored policy; throws a TypeError naming what is wrong (a person wrote the file). */
  static parse(value: unknown): ToolPolicy {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new TypeError('a tool policy is a JSON object with "tools"');
    const tools = (value as { tools?: unknown }).tools ?? {};
    if (typeof tools !== 'object' || tools === null || Array.isArray(tools))
      throw new TypeError('"tools" is an object: tool name → {"enabled": boolean, "policy": "run" | "ask" | "review"}');
    const entries = Object.entries(tools as Record<string, unknown>);
    if (entries.length > MAX_RULES) throw new TypeError(`a tool policy has at most ${MAX_RULES} tools`);
    const stored: StoredToolPolicy = { tools: {} };
    for (const [name, rule] of entries) {
      if (typeof rule !== 'object' || rule === null || Array.isArray(rule))
        throw new TypeError(`the rule of tool ${JSON.stringify(name)} is not an object`);
      const { enabled, policy } = rule as { enabled?: unknown; policy?: unknown };
      if (enabled !== undefined && typeof enabled !== 'boolean')
        throw new TypeError(`"enabled" of tool ${JSON.stringify(name)} is not true or false`);
      if (policy !== undefined && !TOOL_RUN_POLICIES.includes(policy as ToolRunPolicy))
        throw new TypeError(`"policy" of tool ${JSON.stringify(name)} is not "run", "ask" or "review"`);
      stored.tools[name] = {
        ...(enabled === undefined ? {} : { enabled }),
        ...(policy === undefined ? {} : { policy: policy as ToolRunPolicy }),
      };
    }
    return new ToolPolicy(stored);
  }

  rule(tool: string): ToolRule {
    return this.rules.get(tool) ?? DEFAULT_TOOL_RULE;
  }

  /** Changes one tool's rule; a rule back at the default is forgotten. Fires only on a real change. */
  set(tool: string, change: Partial<ToolRule>): void {
    const before = this.rule(tool);
    const after: ToolRule = { enabled: change.enabled ?? before.enabled, policy: change.policy ?? before.policy };
    if (after.enabled === before.enabled && after.policy === before.policy) return;
    if (after.enabled && after.policy === 'run') this.rules.delete(tool);
    else {
      if (!this.rules.has(tool) && this.rules.size >= MAX_RULES) throw new RangeError('too many tool rules');
      this.rules.set(tool, after);
    }
    this.fire();
  }

  /** Replaces every rule (the store changed under it); fires once. */
  replace(stored: StoredToolPolicy): void {
    this.rules.clear();
    this.load(stored);
    this.fire();
  }

  onDidChange(listener: () => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  toJSON(): StoredToolPolicy {
    const tools: StoredToolPolicy['tools'] = {};
    for (const [name, rule] of this.rules)
      tools[name] = {
        ...(rule.enabled ? {} : { enabled: false }),
        ...(rule.policy === 'run' ? {} : { policy: rule.policy }),
      };
    return { tools };
  }

  private load(stored: StoredToolPolicy): void {
    for (const [name, rule] of Object.entries(stored.tools).slice(0, MAX_RULES)) {
      const value: ToolRule = {
        enabled: rule.enabled !== false,
        policy: TOOL_RUN_POLICIES.includes(rule.policy as ToolRunPolicy) ? (rule.policy as ToolRunPolicy) : 'run',
      };
      if (!value.enabled || value.policy !== 'run') this.rules.set(name, value);
    }
  }

  private fire(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // A listener's failure is its own; the others still hear.
      }
    }
  }
}

/** One agent's tool call a person is asked about. Every string in it is the agent's or the server's: untrusted. */
export interface AgentToolCall {
  readonly server: string;
  readonly agent?: AgentIdentity;
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
}

/**
 * Who answers for the person. `ask` resolves true to let the call run; `review` true to send the result. An absent
 * method (the CLI: no one to ask), false or a failure refuses: the safe answer is no.
 */
export interface ToolPolicyHost {
  ask?(call: AgentToolCall, signal: AbortSignal): Promise<boolean>;
  review?(call: AgentToolCall & { result: JsonObject }, signal: AbortSignal): Promise<boolean>;
}

/**
 * Why: the tool is disabled for agents; the person said no; no one here can answer (the CLI); or too many questions
 * were already waiting for the person.
 */
export type RefusalReason = 'disabled' | 'declined' | 'unanswerable' | 'busy';

/** Why the policy refused a call: what the agent is told (a JSON-RPC error), and what History calls a person's no. */
export class ToolPolicyRefusal extends McpError {
  constructor(
    readonly tool: string,
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(reason === 'disabled' ? ErrorCodes.InvalidParams : ErrorCodes.UserRejected, message);
  }
}

/** The text of the refusal an agent gets (English: it is protocol text for the agent's model, not the person's UI). */
export function refusalMessage(tool: string, reason: RefusalReason): string {
  const name = JSON.stringify(tool);
  switch (reason) {
    case 'disabled':
      return `Tool ${name} is disabled for agents in MCP Workbench: the person turned it off, so it is not offered and does not run.`;
    case 'declined':
      return `Tool ${name} did not run: its policy in MCP Workbench asks the person first, and the person declined this call.`;
    case 'busy':
      return `Tool ${name} did not run: its policy in MCP Workbench asks the person first, and too many questions are already waiting (refused; try again later).`;
    case 'unanswerable':
      return `Tool ${name} did not run: its policy in MCP Workbench asks the person first, and no one here can answer (refused).`;
    default: {
      const exhaustive: never = reason;
      return exhaustive;
    }
  }
}

/** The error result an agent gets when the person withheld a result (or no one could review it now). */
export function withheldResult(tool: string, why: 'withheld' | 'unanswerable' | 'busy'): JsonObject {
  const name = JSON.stringify(tool);
  let text: string;
  switch (why) {
    case 'withheld':
      text = `The result of tool ${name} was withheld: MCP Workbench showed it to the person first, and the person did not send it.`;
      break;
    case 'unanswerable':
      text = `The result of tool ${name} was withheld: its policy in MCP Workbench shows results to the person first, and no one here can review it.`;
      break;
    case 'busy':
      text = `The result of tool ${name} was withheld: its policy in MCP Workbench shows results to the person first, and too many questions are already waiting.`;
      break;
    default: {
      const exhaustive: never = why;
      return exhaustive;
    }
  }
  return { content: [{ type: 'text', text }], isError: true };
}

/** Tasks whose result the person reviews at `tasks/result` (a 2025 task-augmented call), at most this many. */
const MAX_REVIEWED_TASKS = 256;

/**
 * Questions to the person (ask and review) waiting behind the one being asked, per gateway. They are asked one at a
 * time, so agents cannot stack modals over the person's window; past this many an ask is refused and a result
 * withheld at once, without a question.
 */
export const MAX_WAITING_QUESTIONS = 16;

/**
 * The gateway's upstream with the tool policy applied, for every agent alike: a disabled tool is left out of each
 * `tools/list` page and refused at `tools/call`; an `ask` tool runs only after the host's yes; a `review` tool's result
 * reaches the agent only after the host's yes. A change of the policy is a change of the tool list for agents.
 */
export function policedUpstream(upstream: GatewayUpstream, policy: ToolPolicy, host: ToolPolicyHost): GatewayUpstream {
  /** 2025 tasks of `review` tools: their result is reviewed when the agent fetches it. */
  const reviewedTasks = new Map<string, AgentToolCall>();
  /** The question being asked now; the next waits for it. */
  let questions: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  /** Asks one question after the other; undefined (no one asked) past MAX_WAITING_QUESTIONS or once the agent left. */
  const oneAtATime = async (question: () => Promise<boolean>, signal: AbortSignal): Promise<boolean | 'busy'> => {
    if (waiting >= MAX_WAITING_QUESTIONS) return 'busy';
    waiting++;
    const previous = questions;
    let done: () => void = () => undefined;
    questions = new Promise<void>((resolve) => (done = resolve));
    try {
      await previous;
      if (signal.aborted) return false;
      return (await question().catch(() => false)) === true;
    } finally {
      waiting--;
      done();
    }
  };

  const callOf = (tool: string, args: unknown, options: UpstreamCallOptions): AgentToolCall => ({
    server: upstream.name,
    ...(options.agent ? { agent: options.agent } : {}),
    tool,
    arguments:
      typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {},
  });

  /** Refuses a disabled tool, and an `ask` tool the person did not let run. */
  const admit = async (call: AgentToolCall, signal: AbortSignal): Promise<void> => {
    const rule = policy.rule(call.tool);
    if (!rule.enabled) throw new ToolPolicyRefusal(call.tool, 'disabled', refusalMessage(call.tool, 'disabled'));
    if (rule.policy !== 'ask') return;
    if (!host.ask) throw new ToolPolicyRefusal(call.tool, 'unanswerable', refusalMessage(call.tool, 'unanswerable'));
    const ask = host.ask.bind(host);
    const yes = await oneAtATime(() => ask(call, signal), signal);
    if (yes !== true) {
      const reason = yes === 'busy' ? 'busy' : 'declined';
      throw new ToolPolicyRefusal(call.tool, reason, refusalMessage(call.tool, reason));
    }
  };

  const review = async (call: AgentToolCall, result: JsonObject, signal: AbortSignal): Promise<JsonObject> => {
    if (!host.review) return withheldResult(call.tool, 'unanswerable');
    const show = host.review.bind(host);
    const yes = await oneAtATime(() => show({ ...call, result }, signal), signal);
    return yes === true ? result : withheldResult(call.tool, yes === 'busy' ? 'busy' : 'withheld');
  };

  return {
    name: upstream.name,
    session: () => upstream.session(),
    ping: (options) => upstream.ping(options),
    subscribe: (uri) => upstream.subscribe(uri),
    unsubscribe: (uri) => upstream.unsubscribe(uri),
    setLogLevel: (level) => upstream.setLogLevel(level),
    onResourcesChanged: (listener) => upstream.onResourcesChanged(listener),
    onPromptsChanged: (listener) => upstream.onPromptsChanged(listener),
    onResourceUpdated: (listener) => upstream.onResourceUpdated(listener),
    onLogMessage: (listener) => upstream.onLogMessage(listener),
    request: async (method, params, options) => {
      if (method === 'tools/list') {
        const result = await upstream.request(method, params, options);
        const tools = result.tools;
        if (!Array.isArray(tools)) return result;
        return {
          ...result,
          tools: tools.filter((tool) => policy.rule(String((tool as { name?: unknown }).name)).enabled),
        };
      }
      if (method === 'tools/call') {
        const call = callOf(String(params?.name), params?.arguments, options);
        await admit(call, options.signal);
        const result = await upstream.request(method, params, options);
        if (policy.rule(call.tool).policy !== 'review') return result;
        const task = result.task as { taskId?: unknown } | undefined;
        if (task !== undefined && typeof task.taskId === 'string') {
          // A 2025 task: the result comes with tasks/result, where it is reviewed.
          if (reviewedTasks.size >= MAX_REVIEWED_TASKS)
            reviewedTasks.delete(reviewedTasks.keys().next().value as string);
          reviewedTasks.set(task.taskId, call);
          return result;
        }
        return review(call, result, options.signal);
      }
      if (method === 'tasks/result' && typeof params?.taskId === 'string') {
        const call = reviewedTasks.get(params.taskId);
        const result = await upstream.request(method, params, options);
        if (!call) return result;
        reviewedTasks.delete(params.taskId);
        return review(call, result, options.signal);
      }
      return upstream.request(method, params, options);
    },
    ...(upstream.callToolUnwaited
      ? {
          callToolUnwaited: async (name: string, args: Record<string, unknown>, options: UpstreamCallOptions) => {
            // A tool with a rule takes the waited path (request above), where it is admitted and reviewed once: a
            // 2026-07-28 server decides per call whether it makes a task, so a final result is a valid answer.
            const rule = policy.rule(name);
            if (!rule.enabled || rule.policy !== 'run') return undefined;
            return upstream.callToolUnwaited?.(name, args, options);
          },
        }
      : {}),
    onToolsChanged: (listener) => {
      const server = upstream.onToolsChanged(listener);
      const rules = policy.onDidChange(listener);
      return {
        dispose: () => {
          server.dispose();
          rules.dispose();
        },
      };
    },
  };
}
