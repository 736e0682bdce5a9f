import type { CallOptions, CallToolOutcome } from '../../protocol/clientOptions';
import { errorMessage } from '../../protocol/errors';
import { readBytesCapped } from '../../protocol/limits/inputLimits';
import type { JsonObject, Tool } from '../../protocol/types';
import { truncateForDisplay } from '../display';
import type { ChatMessage, ChatModelProvider, ChatPart, ModelInfo } from '../sampling/chatModel';
import { toolResultText } from '../sampling/mapping';
import { ModelEndpointError } from '../sampling/openaiProvider';
import { maskSecrets, maskText } from '../secrets';
import { EVAL_LIMITS, type LoadedEval, type LoadedRequest } from './format';
import { describeCall, gradeRun, type MadeCall, type Problem } from './grade';

/**
 * Runs an eval: each request goes to each model with the servers' tools, the model's tool calls run through the MCP
 * client, and the loop goes on until the model answers without a tool call or the step cap is reached. Then the run
 * is graded (grade.ts). Everything is bounded: steps per run, runs per request and in all, the text of a tool's result
 * the model reads, and the text a report keeps.
 */

/** What the runner needs of a server: the MCP client (McpClient) has exactly this. */
export interface EvalServer {
  readonly serverName: string;
  listTools(options?: CallOptions): Promise<Tool[]>;
  callTool(name: string, args?: Record<string, unknown>, options?: CallOptions): Promise<CallToolOutcome>;
}

export interface EvalModel {
  provider: ChatModelProvider;
  info: ModelInfo;
}

export interface EvalRunOptions {
  servers: readonly EvalServer[];
  models: readonly EvalModel[];
  /** Replaces every request's runs (the CLI's --runs). */
  runs?: number;
  signal?: AbortSignal;
  /** Values never written into the report (the model's key, the servers' secrets). */
  secrets?: readonly string[];
  /** After each run, for a progress line. */
  onRun?: (done: number, total: number) => void;
}

/** A tool's result is cut to this many characters before the model reads it. */
export const MAX_TOOL_RESULT_CHARS = 32_000;
/** A final answer is kept to this many characters in the report. */
const MAX_ANSWER_CHARS = 2_000;
/** At most this many failed runs are described per request and model; the counts stay exact. */
const MAX_FAILURES_LISTED = 20;
/** Tool calls run from one answer of the model; the rest are answered "not run" (one answer may list thousands). */
export const MAX_TOOL_CALLS_PER_STEP = 16;
/** One answer of the model endpoint is read up to this many bytes: an eval runs unattended, often in CI. */
export const MAX_MODEL_RESPONSE_BYTES = 4 * 1024 * 1024;
/** When an eval would make more model calls than this, it says so before it starts (issue 41). */
export const ANNOUNCE_MODEL_CALLS_OVER = 20;

export interface RunFailure {
  run: number;
  problems: Problem[];
  calls: MadeCall[];
  answer?: string;
}

export interface RequestReport {
  name: string;
  model: string;
  /** Runs that passed, of `runs`. */
  passed: number;
  runs: number;
  passRate: number;
  failures: RunFailure[];
}

export interface EvalReport {
  requests: RequestReport[];
  /** Passed runs over all runs. */
  passRate: number;
  modelCalls: number;
  interrupted: boolean;
}

export interface EvalPlan {
  runs: number;
  /** The most model calls the eval can make: every run taking every step. */
  maxModelCalls: number;
}

export class EvalPlanError extends Error {
  override readonly name = 'EvalPlanError';
}

export function planEval(loaded: LoadedEval, models: number, runsOverride?: number): EvalPlan {
  if (runsOverride !== undefined && (runsOverride < 1 || runsOverride > EVAL_LIMITS.maxRunsPerRequest))
    throw new EvalPlanError(`runs must be from 1 to ${EVAL_LIMITS.maxRunsPerRequest}`);
  const runs = loaded.requests.reduce((sum, request) => sum + (runsOverride ?? request.runs), 0) * models;
  if (runs > EVAL_LIMITS.maxTotalRuns)
    throw new EvalPlanError(
      `this eval would run ${runs} times (requests × runs × models); at most ${EVAL_LIMITS.maxTotalRuns} in one eval`,
    );
  return { runs, maxModelCalls: runs * loaded.maxSteps };
}

/** The tools as the model sees them, each name mapped back to its server and MCP tool. */
export interface ModelToolset {
  tools: { name: string; description?: string; inputSchema: Record<string, unknown> }[];
  byModelName: Map<string, { server: EvalServer; tool: Tool }>;
}

/** What OpenAI's and Anthropic's tool calling accept as a name. */
const MODEL_TOOL_NAME_MAX = 64;

/**
 * Names the model can take and that say which server a tool is from: one server's tools keep their names (only
 * characters providers refuse are replaced); with several servers each name is `<server>__<tool>`. A name already
 * taken (two names that sanitize alike) gets `_2`, `_3`: two tools never share a name the model calls.
 */
export async function modelToolset(servers: readonly EvalServer[], signal?: AbortSignal): Promise<ModelToolset> {
  const toolset: ModelToolset = { tools: [], byModelName: new Map() };
  const sanitize = (text: string) => text.replace(/[^a-zA-Z0-9_-]/g, '_');
  for (const server of servers) {
    for (const tool of await server.listTools({ signal })) {
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

/**
 * A fetch for the model provider whose answers are read at most `limitBytes` bytes (the provider itself reads a body
 * whole): the endpoint is a URL the person typed, but what answers there is not checked by anyone.
 */
export function boundedFetch(limitBytes = MAX_MODEL_RESPONSE_BYTES, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.body) return response;
    const bytes = await readBytesCapped(
      response.body,
      limitBytes,
      () => new ModelEndpointError(`the model endpoint answered with more than ${limitBytes} bytes; not read further`),
    );
    return new Response(new TextDecoder().decode(bytes), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

export async function runEval(loaded: LoadedEval, options: EvalRunOptions): Promise<EvalReport> {
  const plan = planEval(loaded, options.models.length, options.runs);
  const toolset = await modelToolset(options.servers, options.signal);
  const multipleServers = options.servers.length > 1;
  checkExpectedTools(loaded, toolset);
  const report: EvalReport = { requests: [], passRate: 0, modelCalls: 0, interrupted: false };
  let done = 0;
  let passedRuns = 0;
  outer: for (const request of loaded.requests) {
    for (const model of options.models) {
      const runs = options.runs ?? request.runs;
      const entry: RequestReport = {
        name: request.name,
        model: model.info.name,
        passed: 0,
        runs: 0,
        passRate: 0,
        failures: [],
      };
      report.requests.push(entry);
      for (let run = 1; run <= runs; run++) {
        if (options.signal?.aborted) {
          report.interrupted = true;
          break outer;
        }
        const outcome = await runOnce(loaded, request, model, toolset, options.signal, multipleServers);
        report.modelCalls += outcome.modelCalls;
        if (outcome.interrupted) {
          report.interrupted = true;
          break outer;
        }
        entry.runs++;
        const problems = [...outcome.problems, ...gradeRun(request, outcome.calls, outcome.answer, multipleServers)];
        if (problems.length === 0) entry.passed++;
        else if (entry.failures.length < MAX_FAILURES_LISTED)
          entry.failures.push({
            run,
            problems,
            calls: outcome.calls,
            ...(outcome.answer === undefined ? {} : { answer: truncateForDisplay(outcome.answer, MAX_ANSWER_CHARS) }),
          });
        entry.passRate = entry.passed / entry.runs;
        options.onRun?.(++done, plan.runs);
      }
      passedRuns += entry.passed;
    }
  }
  const totalRuns = report.requests.reduce((sum, entry) => sum + entry.runs, 0);
  report.passRate = totalRuns === 0 ? 0 : passedRuns / totalRuns;
  // What a model or a server wrote can hold a credential it was sent or saw: the report never carries one.
  return maskSecrets(report, options.secrets ?? []);
}

/**
 * Every tool an eval expects must be offered: a typo, or a tool the server renamed, would otherwise cost every run's
 * model calls to report the same missing call.
 */
function checkExpectedTools(loaded: LoadedEval, toolset: ModelToolset): void {
  const offered = [...toolset.byModelName.values()];
  const missing = new Set<string>();
  for (const request of loaded.requests)
    for (const call of request.calls)
      if (
        !offered.some(
          ({ server, tool }) => tool.name === call.tool && (call.server ?? server.serverName) === server.serverName,
        )
      )
        missing.add(call.server === undefined ? call.tool : `${call.server}/${call.tool}`);
  if (missing.size > 0)
    throw new EvalPlanError(
      `the eval expects ${[...missing].map((name) => JSON.stringify(name)).join(', ')}, which no server offers; offered: ${
        offered
          .slice(0, 30)
          .map(({ tool }) => tool.name)
          .join(', ') || '(none)'
      }${offered.length > 30 ? `, … (${offered.length} in all)` : ''}`,
    );
}

interface RunOutcome {
  calls: MadeCall[];
  answer?: string;
  problems: Problem[];
  modelCalls: number;
  interrupted: boolean;
}

async function runOnce(
  loaded: LoadedEval,
  request: LoadedRequest,
  model: EvalModel,
  toolset: ModelToolset,
  outerSignal: AbortSignal | undefined,
  multipleServers: boolean,
): Promise<RunOutcome> {
  const signal = outerSignal ?? new AbortController().signal;
  const outcome: RunOutcome = { calls: [], problems: [], modelCalls: 0, interrupted: false };
  const messages: ChatMessage[] = [{ role: 'user', parts: [{ kind: 'text', text: request.request }] }];
  for (let step = 0; step < loaded.maxSteps; step++) {
    let response;
    try {
      outcome.modelCalls++;
      response = await model.provider.complete(
        model.info,
        {
          ...(loaded.systemPrompt === undefined ? {} : { systemPrompt: loaded.systemPrompt }),
          messages,
          maxTokens: loaded.maxTokens,
          tools: toolset.tools,
          toolChoice: 'auto',
        },
        signal,
      );
    } catch (error) {
      if (signal.aborted) return { ...outcome, interrupted: true };
      throw error;
    }
    if (response.toolCalls.length === 0) {
      outcome.answer = response.text;
      return outcome;
    }
    const assistant: ChatPart[] = response.text ? [{ kind: 'text', text: response.text }] : [];
    const results: ChatPart[] = [];
    for (const [index, call] of response.toolCalls.entries()) {
      assistant.push({ kind: 'tool-call', id: call.id, name: call.name, input: call.input });
      if (index >= MAX_TOOL_CALLS_PER_STEP) {
        results.push({
          kind: 'tool-result',
          toolCallId: call.id,
          text: `Not run: at most ${MAX_TOOL_CALLS_PER_STEP} tool calls are run from one answer.`,
          isError: true,
        });
        continue;
      }
      const target = toolset.byModelName.get(call.name);
      if (!target) {
        outcome.problems.push({
          kind: 'unknown-tool',
          message: `the model called a tool that was not offered: ${JSON.stringify(call.name)}`,
        });
        results.push({ kind: 'tool-result', toolCallId: call.id, text: `No tool named ${call.name}.`, isError: true });
        continue;
      }
      const made: MadeCall = { server: target.server.serverName, tool: target.tool.name, arguments: call.input };
      outcome.calls.push(made);
      if (request.notCalled.includes(made.tool)) {
        // A tool the eval says must not be called is often the destructive one: the call is graded, never run.
        results.push({
          kind: 'tool-result',
          toolCallId: call.id,
          text: 'This tool was not run: the eval does not allow it.',
          isError: true,
        });
        continue;
      }
      results.push(await callTool(target.server, made, call.id, signal));
      if (signal.aborted) return { ...outcome, interrupted: true };
    }
    messages.push({ role: 'assistant', parts: assistant });
    messages.push({ role: 'user', parts: results });
  }
  outcome.problems.push({
    kind: 'step-cap',
    message: `the step cap (${loaded.maxSteps} model calls) was reached before a final answer; last calls: ${outcome.calls
      .slice(-3)
      .map((call) => describeCall(call, multipleServers))
      .join(', ')}`,
  });
  return outcome;
}

/** The tool's result as the model reads it; an error (the server's or ours) is a result with isError, as a client reports it. */
async function callTool(server: EvalServer, call: MadeCall, id: string, signal: AbortSignal): Promise<ChatPart> {
  try {
    const { result } = await server.callTool(call.tool, call.arguments, { signal });
    return {
      kind: 'tool-result',
      toolCallId: id,
      text: truncateForDisplay(toolResultText(result as unknown as JsonObject), MAX_TOOL_RESULT_CHARS),
      isError: result.isError === true,
    };
  } catch (error) {
    return {
      kind: 'tool-result',
      toolCallId: id,
      text: truncateForDisplay(errorMessage(error), MAX_TOOL_RESULT_CHARS),
      isError: true,
    };
  }
}

/** The report as text for a terminal: per request and model, the pass rate and each failed run's diff. */
export function formatEvalReport(report: EvalReport, secrets: readonly string[] = []): string {
  const lines: string[] = [];
  const models = new Set(report.requests.map((entry) => entry.model));
  for (const entry of report.requests) {
    const percent = Math.round(entry.passRate * 100);
    lines.push(
      `${entry.passed === entry.runs ? 'PASS' : 'FAIL'} ${entry.name}${models.size > 1 ? ` [${entry.model}]` : ''}: ${entry.passed}/${entry.runs} runs passed (${percent}%)`,
    );
    for (const failure of entry.failures) {
      lines.push(`  run ${failure.run}:`);
      for (const problem of failure.problems)
        lines.push(...problem.message.split('\n').map((line, index) => `${index === 0 ? '    - ' : '      '}${line}`));
    }
    const unlisted = entry.runs - entry.passed - entry.failures.length;
    if (unlisted > 0) lines.push(`  (${unlisted} more failed runs not listed)`);
  }
  lines.push(
    `pass rate: ${Math.round(report.passRate * 100)}% over ${report.requests.reduce((sum, entry) => sum + entry.runs, 0)} runs; ${report.modelCalls} model calls${report.interrupted ? '; interrupted' : ''}`,
  );
  return maskText(lines.join('\n'), secrets);
}
