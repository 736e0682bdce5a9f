import { isObject } from '../../protocol/guards';
import { compileLinearPattern } from '../../protocol/validation/linearRegExp';
import { compileRules, RuleError, type CompiledRule, type RuleSpec } from '../recordings/rules';

/**
 * An eval file (`*.mcpeval.json`, described by schemas/mcpeval.schema.json): requests a person would make, and what a
 * model given the servers' tools should do with each: the tools it calls (in order, other calls may come between),
 * their arguments (equal, except where a rule of the recorded tests says otherwise: `ignore`, `match` on the linear
 * engine, `tolerance`, `unordered`; paths start at the arguments, `$.city`), the tools it must not call, and a check
 * of its final answer. Each request runs `runs` times per model: models do not answer the same way twice, so the
 * report is a pass rate.
 *
 * The file names no server and no command: the servers are the ones the person points the run at (the CLI's usual
 * server options), so a cloned repository's eval file cannot start anything by itself.
 */

export const MCPEVAL_FORMAT_VERSION = 1;

/** The suffix that makes a file an eval (CLI `eval`, the JSON schema association). */
export const MCPEVAL_SUFFIX = '.mcpeval.json';

/** An eval file larger than this is not read: it is a list of requests, not a data set. */
export const MAX_EVAL_FILE_BYTES = 4 * 1024 * 1024;

/** Bounds that keep one eval from becoming an unbounded bill: per request, per run, and for the whole file. */
export const EVAL_LIMITS = {
  /** Runs of one request on one model. */
  maxRunsPerRequest: 100,
  /** Runs of the whole eval (requests × runs × models). */
  maxTotalRuns: 1_000,
  /** Model calls in one run: each answer with tool calls is one step; the run fails when the cap is reached. */
  maxStepsPerRun: 25,
  defaultStepsPerRun: 6,
  /** Tokens the model may answer with per step. */
  defaultMaxTokens: 1_024,
  maxRequests: 500,
} as const;

export type AnswerCheck = { contains: string } | { match: string };

export interface ExpectedCall {
  /** The MCP tool's name as the server lists it (not the name the model is shown). */
  tool: string;
  /** Which server's tool, when the run has several servers with a tool of this name. */
  server?: string;
  /** The arguments expected; absent: any arguments. */
  args?: Record<string, unknown>;
  /** Rules on the arguments (the recorded tests' rules), paths from the arguments object: `$.units`. */
  rules?: RuleSpec[];
}

export interface EvalRequest {
  name?: string;
  request: string;
  runs?: number;
  expect: {
    calls?: ExpectedCall[];
    notCalled?: string[];
    answer?: AnswerCheck;
  };
}

export interface EvalFile {
  $schema?: string;
  mcpeval: typeof MCPEVAL_FORMAT_VERSION;
  /** Runs per request unless a request says otherwise (default 1). */
  runs?: number;
  /** Model ids at the endpoint; the CLI's --model replaces them. */
  models?: string[];
  maxSteps?: number;
  maxTokens?: number;
  systemPrompt?: string;
  requests: EvalRequest[];
}

/** An expected call with its rules compiled. */
export interface LoadedCall extends ExpectedCall {
  compiledRules: readonly CompiledRule[];
}

export interface LoadedRequest {
  name: string;
  request: string;
  runs: number;
  calls: LoadedCall[];
  notCalled: string[];
  answer?: AnswerCheck & { test(text: string): boolean };
}

export interface LoadedEval {
  file: EvalFile;
  requests: LoadedRequest[];
  models: string[];
  maxSteps: number;
  maxTokens: number;
  systemPrompt?: string;
}

export class EvalFormatError extends Error {
  override readonly name = 'EvalFormatError';
}

/** Parses and checks an eval file; errors name the file and the place in it. */
export function parseEvalFile(text: string, file: string): LoadedEval {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new EvalFormatError(`${file} is not JSON: ${(error as Error).message}`);
  }
  try {
    return checkEvalFile(value);
  } catch (error) {
    if (error instanceof EvalFormatError || error instanceof RuleError)
      throw new EvalFormatError(`${file}: ${error.message}`);
    throw error;
  }
}

const TOP_KEYS = ['$schema', 'mcpeval', 'runs', 'models', 'maxSteps', 'maxTokens', 'systemPrompt', 'requests'];

export function checkEvalFile(value: unknown): LoadedEval {
  const root = object(value, 'the file');
  if (root.mcpeval !== MCPEVAL_FORMAT_VERSION)
    throw new EvalFormatError(
      `"mcpeval" must be ${MCPEVAL_FORMAT_VERSION} (the format version this client reads), got ${JSON.stringify(root.mcpeval)}`,
    );
  unknownKeys(root, TOP_KEYS, 'the file');
  const runs = optionalCount(root.runs, 'runs', EVAL_LIMITS.maxRunsPerRequest) ?? 1;
  const maxSteps =
    optionalCount(root.maxSteps, 'maxSteps', EVAL_LIMITS.maxStepsPerRun) ?? EVAL_LIMITS.defaultStepsPerRun;
  const maxTokens = optionalCount(root.maxTokens, 'maxTokens', 1_000_000) ?? EVAL_LIMITS.defaultMaxTokens;
  const models = optionalStrings(root.models, 'models');
  if (root.systemPrompt !== undefined && typeof root.systemPrompt !== 'string')
    throw new EvalFormatError('"systemPrompt" must be a string');
  if (!Array.isArray(root.requests) || root.requests.length === 0)
    throw new EvalFormatError('"requests" must be a non-empty array');
  if (root.requests.length > EVAL_LIMITS.maxRequests)
    throw new EvalFormatError(`"requests" has ${root.requests.length} entries; at most ${EVAL_LIMITS.maxRequests}`);
  const requests = root.requests.map((request, index) => checkRequest(request, `requests[${index}]`, runs));
  return {
    file: value as EvalFile,
    requests,
    models,
    maxSteps,
    maxTokens,
    ...(typeof root.systemPrompt === 'string' ? { systemPrompt: root.systemPrompt } : {}),
  };
}

function checkRequest(value: unknown, where: string, defaultRuns: number): LoadedRequest {
  const request = object(value, where);
  unknownKeys(request, ['name', 'request', 'runs', 'expect', 'comment'], where);
  if (typeof request.request !== 'string' || request.request.trim() === '')
    throw new EvalFormatError(`${where}.request must be the person's request as a non-empty string`);
  if (request.name !== undefined && typeof request.name !== 'string')
    throw new EvalFormatError(`${where}.name must be a string`);
  const expect = object(request.expect, `${where}.expect`);
  unknownKeys(expect, ['calls', 'notCalled', 'answer'], `${where}.expect`);
  if (expect.calls !== undefined && !Array.isArray(expect.calls))
    throw new EvalFormatError(`${where}.expect.calls must be an array`);
  const calls = ((expect.calls as unknown[] | undefined) ?? []).map((call, index) =>
    checkCall(call, `${where}.expect.calls[${index}]`),
  );
  const notCalled = optionalStrings(expect.notCalled, `${where}.expect.notCalled`);
  const answer = expect.answer === undefined ? undefined : checkAnswer(expect.answer, `${where}.expect.answer`);
  if (calls.length === 0 && notCalled.length === 0 && !answer)
    throw new EvalFormatError(`${where}.expect must say something: "calls", "notCalled" or "answer"`);
  const clash = calls.find((call) => notCalled.includes(call.tool));
  if (clash)
    throw new EvalFormatError(`${where}.expect lists ${JSON.stringify(clash.tool)} in both "calls" and "notCalled"`);
  return {
    name: typeof request.name === 'string' ? request.name : request.request,
    request: request.request,
    runs: optionalCount(request.runs, `${where}.runs`, EVAL_LIMITS.maxRunsPerRequest) ?? defaultRuns,
    calls,
    notCalled,
    ...(answer ? { answer } : {}),
  };
}

function checkCall(value: unknown, where: string): LoadedCall {
  const call = object(value, where);
  unknownKeys(call, ['tool', 'server', 'args', 'rules', 'comment'], where);
  if (typeof call.tool !== 'string' || call.tool === '')
    throw new EvalFormatError(`${where}.tool must be the tool's name`);
  if (call.server !== undefined && typeof call.server !== 'string')
    throw new EvalFormatError(`${where}.server must be a string`);
  const args = call.args === undefined ? undefined : object(call.args, `${where}.args`);
  const compiledRules = compileRules(call.rules, `${where}.rules`);
  if (compiledRules.length > 0 && args === undefined)
    throw new EvalFormatError(`${where}.rules need "args": a rule says where the arguments may differ from them`);
  return {
    tool: call.tool,
    ...(typeof call.server === 'string' ? { server: call.server } : {}),
    ...(args ? { args } : {}),
    ...(call.rules === undefined ? {} : { rules: call.rules as RuleSpec[] }),
    compiledRules,
  };
}

function checkAnswer(value: unknown, where: string): AnswerCheck & { test(text: string): boolean } {
  const answer = object(value, where);
  unknownKeys(answer, ['contains', 'match'], where);
  if ((answer.contains === undefined) === (answer.match === undefined))
    throw new EvalFormatError(`${where} must have exactly one of "contains" and "match"`);
  if (answer.contains !== undefined) {
    if (typeof answer.contains !== 'string') throw new EvalFormatError(`${where}.contains must be a string`);
    const needle = answer.contains;
    return { contains: needle, test: (text) => text.includes(needle) };
  }
  if (typeof answer.match !== 'string')
    throw new EvalFormatError(`${where}.match must be a regular expression as a string`);
  // The linear engine, as for recorded tests' patterns: an eval file may come from anywhere (a cloned repository).
  const compiled = compileLinearPattern(answer.match);
  if (compiled.kind === 'unsupported')
    throw new EvalFormatError(`${where}.match ${JSON.stringify(answer.match)} cannot be used: ${compiled.reason}`);
  return { match: answer.match, test: compiled.test };
}

function object(value: unknown, what: string): Record<string, unknown> {
  if (!isObject(value)) throw new EvalFormatError(`${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

function unknownKeys(record: Record<string, unknown>, known: readonly string[], where: string): void {
  const unknown = Object.keys(record).filter((key) => !known.includes(key));
  if (unknown.length > 0)
    throw new EvalFormatError(
      `${where} has unknown ${unknown.length === 1 ? 'key' : 'keys'} ${unknown.map((key) => JSON.stringify(key)).join(', ')}`,
    );
}

function optionalCount(value: unknown, where: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max)
    throw new EvalFormatError(`${where} must be a whole number from 1 to ${max}`);
  return value;
}

function optionalStrings(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item !== ''))
    throw new EvalFormatError(`${where} must be an array of non-empty strings`);
  return value as string[];
}
