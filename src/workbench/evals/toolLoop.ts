import type { CallOptions, CallToolOutcome } from '../../protocol/clientOptions';
import { errorMessage } from '../../protocol/errors';
import type { JsonObject, Tool } from '../../protocol/types';
import { truncateForDisplay } from '../display';
import type { ChatMessage, ChatModelProvider, ChatPart, ModelInfo } from '../sampling/chatModel';
import { toolResultText } from '../sampling/mapping';

/**
 * The model-and-tools loop both the evals (runner.ts, unattended) and the playground (a person approving each call)
 * run: the request goes to the model with the servers' tools, each tool call the model makes is decided (`decide`:
 * run it, or answer the model why not) and run through the MCP client, its result goes back to the model, until the
 * model answers without a tool call, the step cap is reached, or the signal aborts. Host-neutral: no vscode.
 */

/** What the loop needs of a server: the MCP client (McpClient) has exactly this. */
export interface EvalServer {
  readonly serverName: string;
  listTools(options?: CallOptions): Promise<Tool[]>;
  callTool(name: string, args?: Record<string, unknown>, options?: CallOptions): Promise<CallToolOutcome>;
}

export interface EvalModel {
  provider: ChatModelProvider;
  info: ModelInfo;
}

/** The tools as the model sees them, each name mapped back to its server and MCP tool. */
export interface ModelToolset {
  tools: { name: string; description?: string; inputSchema: Record<string, unknown> }[];
  byModelName: Map<string, { server: EvalServer; tool: Tool }>;
}

/** What OpenAI's and Anthropic's tool calling accept as a name. */
const MODEL_TOOL_NAME_MAX = 64;

/** A tool's result is cut to this many characters before the model reads it. */
export const MAX_TOOL_RESULT_CHARS = 32_000;
/** Tool calls run from one answer of the model; the rest are answered "not run" (one answer may list thousands). */
export const MAX_TOOL_CALLS_PER_STEP = 16;

/**
 * Names the model can take and that say which server a tool is from: one server's tools keep their names (only
 * characters providers refuse are replaced); with several servers each name is `<server>__<tool>`. A name already
 * taken (two names that sanitize alike) gets `_2`, `_3`: two tools never share a name the model calls. `offer`
 * leaves a tool out (the playground does not offer a tool disabled for agents).
 */
export async function modelToolset(
  servers: readonly EvalServer[],
  signal?: AbortSignal,
  offer: (server: EvalServer, tool: Tool) => boolean = () => true,
): Promise<ModelToolset> {
  const toolset: ModelToolset = { tools: [], byModelName: new Map() };
  const sanitize = (text: string) => text.replace(/[^a-zA-Z0-9_-]/g, '_');
  for (const server of servers) {
    for (const tool of await server.listTools({ signal })) {
      if (!offer(server, tool)) continue;
      const base = (
        servers.length > 1 ? `${sanitize(server.serverName)}__${sanitize(tool.name)}` : sanitize(tool.name)
      ).slice(0, MODEL_TOOL_NAME_MAX);
      let name = base || 'tool';
      for (let suffix = 2; toolset.byModelName.has(name); suffix++) {
        const tail = `_${suffix}`;
        name = `${base.slice(0, MODEL_TOOL_NAME_MAX - tail.length)}${tail}`;
      }
      toolset.byModelName.set(name, { server, tool });
      toolset.tools.push({
        name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        inputSchema: tool.inputSchema,
      });
    }
  }
  return toolset;
}

/** One tool call the model asked for, resolved to its server and tool. */
export interface LoopToolCall {
  /** The model's id of the call. */
  id: string;
  /** The name the model called (`<server>__<tool>` with several servers). */
  modelName: string;
  server: EvalServer;
  tool: Tool;
  arguments: Record<string, unknown>;
}

/** Whether a call runs; when not, `reason` is the tool result the model reads instead. */
export type CallDecision = { run: true } | { run: false; reason: string };

/** What the loop reports as it goes (the playground draws each one). */
export type LoopEvent =
  | {
      kind: 'model-step';
      step: number;
      text: string;
      toolCalls: number;
      inputTokens?: number;
      outputTokens?: number;
      durationMs: number;
    }
  | { kind: 'unknown-tool'; id: string; name: string }
  | { kind: 'call-decided'; call: LoopToolCall; decision: CallDecision }
  | { kind: 'call-started'; call: LoopToolCall }
  | { kind: 'call-ended'; call: LoopToolCall; text: string; isError: boolean; durationMs: number };

export interface ToolLoopOptions {
  model: EvalModel;
  toolset: ModelToolset;
  /**
   * The conversation so far, ending with the person's request. The loop appends each whole step (the model's answer
   * with its tool calls, then their results, then the final answer); an interrupted step is not appended, so the
   * conversation never holds a tool call without its result.
   */
  messages: ChatMessage[];
  systemPrompt?: string;
  maxTokens: number;
  maxSteps: number;
  signal: AbortSignal;
  /** Decides each call before it runs; without it every call runs. Abandoned (not awaited) when the signal aborts. */
  decide?: (call: LoopToolCall, signal: AbortSignal) => CallDecision | Promise<CallDecision>;
  /**
   * Shown a call's result before the model reads it (the tool's `review` rule, a guard against instructions planted in
   * results); false gives the model `WITHHELD` instead. Abandoned (not awaited) when the signal aborts.
   */
  review?: (call: LoopToolCall, result: { text: string; isError: boolean }, signal: AbortSignal) => Promise<boolean>;
  /** Streamed text of the model's answer as it arrives. */
  onText?: (delta: string) => void;
  onEvent?: (event: LoopEvent) => void;
  /** Milliseconds, for the time of each step (tests pass a fake clock). */
  now?: () => number;
}

export interface ToolLoopOutcome {
  /** The calls the model made that named an offered tool, in order (run or not). */
  calls: LoopToolCall[];
  /** The names the model called that were not offered. */
  unknownTools: string[];
  /** The model's final answer (when it gave one). */
  answer?: string;
  modelCalls: number;
  interrupted: boolean;
  stepCapReached: boolean;
}

class Interrupted extends Error {}

/** Settles with `promise`, or rejects with Interrupted as soon as `signal` aborts (the promise is then abandoned). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Interrupted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Interrupted());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

export async function runToolLoop(options: ToolLoopOptions): Promise<ToolLoopOutcome> {
  const { signal, toolset } = options;
  const now = options.now ?? (() => performance.now());
  const outcome: ToolLoopOutcome = {
    calls: [],
    unknownTools: [],
    modelCalls: 0,
    interrupted: false,
    stepCapReached: false,
  };
  try {
    for (let step = 0; step < options.maxSteps; step++) {
      if (signal.aborted) throw new Interrupted();
      const started = now();
      outcome.modelCalls++;
      let response;
      try {
        response = await options.model.provider.complete(
          options.model.info,
          {
            ...(options.systemPrompt === undefined ? {} : { systemPrompt: options.systemPrompt }),
            // A copy: the loop appends to the conversation after the provider returned, never under it.
            messages: [...options.messages],
            maxTokens: options.maxTokens,
            tools: toolset.tools,
            toolChoice: 'auto',
          },
          signal,
          options.onText,
        );
      } catch (error) {
        if (signal.aborted) throw new Interrupted();
        throw error;
      }
      if (signal.aborted) throw new Interrupted();
      options.onEvent?.({
        kind: 'model-step',
        step: step + 1,
        text: response.text,
        toolCalls: response.toolCalls.length,
        ...(response.usage?.inputTokens === undefined ? {} : { inputTokens: response.usage.inputTokens }),
        ...(response.usage?.outputTokens === undefined ? {} : { outputTokens: response.usage.outputTokens }),
        durationMs: now() - started,
      });
      if (response.toolCalls.length === 0) {
        outcome.answer = response.text;
        options.messages.push({ role: 'assistant', parts: [{ kind: 'text', text: response.text }] });
        return outcome;
      }
      const assistant: ChatPart[] = response.text ? [{ kind: 'text', text: response.text }] : [];
      const results: ChatPart[] = [];
      for (const [index, call] of response.toolCalls.entries()) {
        assistant.push({ kind: 'tool-call', id: call.id, name: call.name, input: call.input });
        if (index >= MAX_TOOL_CALLS_PER_STEP) {
          results.push(
            errorResult(call.id, `Not run: at most ${MAX_TOOL_CALLS_PER_STEP} tool calls are run from one answer.`),
          );
          continue;
        }
        const target = toolset.byModelName.get(call.name);
        if (!target) {
          outcome.unknownTools.push(call.name);
          options.onEvent?.({ kind: 'unknown-tool', id: call.id, name: call.name });
          results.push(errorResult(call.id, `No tool named ${call.name}.`));
          continue;
        }
        const loopCall: LoopToolCall = {
          id: call.id,
          modelName: call.name,
          server: target.server,
          tool: target.tool,
          arguments: call.input,
        };
        outcome.calls.push(loopCall);
        const decision: CallDecision = options.decide
          ? await untilAborted(Promise.resolve(options.decide(loopCall, signal)), signal)
          : { run: true };
        options.onEvent?.({ kind: 'call-decided', call: loopCall, decision });
        if (!decision.run) {
          results.push(errorResult(call.id, decision.reason));
          continue;
        }
        options.onEvent?.({ kind: 'call-started', call: loopCall });
        const callStarted = now();
        // Stop does not wait for a server that ignores the cancellation: the call is abandoned, its result unread.
        const result = await untilAborted(callTool(loopCall, signal), signal);
        options.onEvent?.({
          kind: 'call-ended',
          call: loopCall,
          text: result.text,
          isError: result.isError,
          durationMs: now() - callStarted,
        });
        const reviewed =
          !options.review || (await untilAborted(options.review(loopCall, result, signal), signal))
            ? result
            : errorResult(call.id, WITHHELD);
        results.push(reviewed);
      }
      options.messages.push({ role: 'assistant', parts: assistant });
      options.messages.push({ role: 'user', parts: results });
    }
    outcome.stepCapReached = true;
    return outcome;
  } catch (error) {
    if (error instanceof Interrupted) return { ...outcome, interrupted: true };
    throw error;
  }
}

/** What the model reads of a result the person withheld: fixed text, nothing of the result. */
export const WITHHELD = 'The person withheld the result of this tool call.';

function errorResult(toolCallId: string, text: string): ChatPart & { kind: 'tool-result' } {
  return { kind: 'tool-result', toolCallId, text, isError: true };
}

/** The tool's result as the model reads it; an error (the server's or ours) is a result with isError, as a client reports it. */
async function callTool(call: LoopToolCall, signal: AbortSignal): Promise<ChatPart & { kind: 'tool-result' }> {
  try {
    const { result } = await call.server.callTool(call.tool.name, call.arguments, { signal });
    return {
      kind: 'tool-result',
      toolCallId: call.id,
      text: truncateForDisplay(toolResultText(result as unknown as JsonObject), MAX_TOOL_RESULT_CHARS),
      isError: result.isError === true,
    };
  } catch (error) {
    return errorResult(call.id, truncateForDisplay(errorMessage(error), MAX_TOOL_RESULT_CHARS));
  }
}
