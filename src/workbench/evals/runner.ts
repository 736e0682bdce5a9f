import { readBytesCapped } from '../../protocol/limits/inputLimits';
import { truncateForDisplay } from '../display';
import type { ChatMessage } from '../sampling/chatModel';
import { ModelEndpointError } from '../sampling/openaiProvider';
import { maskSecrets, maskText } from '../secrets';
import { EVAL_LIMITS, type LoadedEval, type LoadedRequest } from './format';
import { describeCall, gradeRun, type MadeCall, type Problem } from './grade';
import { modelToolset, runToolLoop, type EvalModel, type EvalServer, type ModelToolset } from './toolLoop';

export {
  MAX_TOOL_CALLS_PER_STEP,
  MAX_TOOL_RESULT_CHARS,
  modelToolset,
  type EvalModel,
  type EvalServer,
  type ModelToolset,
} from './toolLoop';

/**
 * Runs an eval: each request goes to each model with the servers' tools, the model's tool calls run through the MCP
 * client, and the loop goes on until the model answers without a tool call or the step cap is reached. Then the run
 * is graded (grade.ts). The loop itself is toolLoop.ts, shared with the playground. Everything is bounded: steps per run, runs per request and in all, the text of a tool's result
 * the model reads, and the text a report keeps.
 */

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

/** A final answer is kept to this many characters in the report. */
const MAX_ANSWER_CHARS = 2_000;
/** At most this many failed runs are described per request and model; the counts stay exact. */
const MAX_FAILURES_LISTED = 20;
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
  const messages: ChatMessage[] = [{ role: 'user', parts: [{ kind: 'text', text: request.request }] }];
  const loop = await runToolLoop({
    model,
    toolset,
    messages,
    ...(loaded.systemPrompt === undefined ? {} : { systemPrompt: loaded.systemPrompt }),
    maxTokens: loaded.maxTokens,
    maxSteps: loaded.maxSteps,
    signal: outerSignal ?? new AbortController().signal,
    // A tool the eval says must not be called is often the destructive one: the call is graded, never run.
    decide: (call) =>
      request.notCalled.includes(call.tool.name)
        ? { run: false, reason: 'This tool was not run: the eval does not allow it.' }
        : { run: true },
  });
  const calls: MadeCall[] = loop.calls.map((call) => ({
    server: call.server.serverName,
    tool: call.tool.name,
    arguments: call.arguments,
  }));
  const problems: Problem[] = loop.unknownTools.map((name) => ({
    kind: 'unknown-tool',
    message: `the model called a tool that was not offered: ${JSON.stringify(name)}`,
  }));
  if (loop.stepCapReached)
    problems.push({
      kind: 'step-cap',
      message: `the step cap (${loaded.maxSteps} model calls) was reached before a final answer; last calls: ${calls
        .slice(-3)
        .map((call) => describeCall(call, multipleServers))
        .join(', ')}`,
    });
  return {
    calls,
    ...(loop.answer === undefined ? {} : { answer: loop.answer }),
    problems,
    modelCalls: loop.modelCalls,
    interrupted: loop.interrupted,
  };
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
