/**
 * `mcp-workbench eval`: does a model, given the server's tools, call the right tool with the right arguments?
 * (src/workbench/evals/). Runs an eval file, or one request given on the command line.
 */
import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { errorMessage } from '../protocol/errors';
import {
  EVAL_LIMITS,
  EvalFormatError,
  MAX_EVAL_FILE_BYTES,
  checkEvalFile,
  parseEvalFile,
  type LoadedEval,
} from '../workbench/evals/format';
import {
  ANNOUNCE_MODEL_CALLS_OVER,
  EvalPlanError,
  boundedFetch,
  formatEvalReport,
  planEval,
  runEval,
  type EvalModel,
  type EvalReport,
} from '../workbench/evals/runner';
import { OpenAiCompatibleProvider } from '../workbench/sampling/openaiProvider';
import { UsageError, parseJsonObjectArgument, type ParsedArgs } from './args';
import { connectedRun, ownCommand, stopExitCode, takeFlags } from './ownCommand';
import { printable } from './printable';

export const MODEL_KEY_ENV = 'MCP_WORKBENCH_MODEL_KEY';

interface EvalFlags {
  modelUrl?: string;
  models: string[];
  runs?: number;
  json: boolean;
  yes: boolean;
  request?: string;
  expectTool?: string;
  expectArgs?: string;
  rest: string[];
}

function evalFlags(argv: readonly string[]): EvalFlags {
  const flags: Omit<EvalFlags, 'rest'> = { models: [], json: false, yes: false };
  const rest = takeFlags(argv, (flag, next) => {
    const value = (): string => {
      const given = next();
      if (given === undefined || given === '') throw new UsageError(`${flag} needs a value`);
      return given;
    };
    switch (flag) {
      case '--json':
        flags.json = true;
        return true;
      case '--yes':
        flags.yes = true;
        return true;
      case '--model-url':
        flags.modelUrl = value();
        return true;
      case '--model':
        flags.models.push(value());
        return true;
      case '--runs': {
        const text = value();
        const runs = Number(text);
        if (!Number.isInteger(runs) || runs < 1 || runs > EVAL_LIMITS.maxRunsPerRequest)
          throw new UsageError(`--runs needs a whole number from 1 to ${EVAL_LIMITS.maxRunsPerRequest}, got ${text}`);
        flags.runs = runs;
        return true;
      }
      case '--request':
        flags.request = value();
        return true;
      case '--expect-tool':
        flags.expectTool = value();
        return true;
      case '--expect-args':
        flags.expectArgs = value();
        return true;
      default:
        return false;
    }
  });
  return { ...flags, rest };
}

/** The eval's run when the command line asks for it, else undefined (main goes on with the other subcommands). */
export function evalCommand(argv: readonly string[], usage: string): Promise<number> | undefined {
  return ownCommand(argv, usage, { name: 'eval', flags: evalFlags, run: runEvalCommand });
}

/**
 * The key goes only where it cannot be read on the way: https, or http to this machine (a local Ollama or LM Studio).
 */
function checkModelUrl(raw: string | undefined, key: string | undefined): URL {
  if (!raw) throw new UsageError('eval needs --model-url <OpenAI-compatible base URL>, e.g. http://127.0.0.1:11434/v1');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--model-url is not a URL: ${raw}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError(`--model-url must be http or https, got ${url.protocol}`);
  if (url.username || url.password)
    throw new UsageError(`--model-url must not hold credentials: put the key in ${MODEL_KEY_ENV}`);
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) || url.hostname.startsWith('127.');
  if (key && url.protocol === 'http:' && !loopback)
    throw new UsageError(
      `the model key would be sent in clear text to ${url.host}: use https, or http only to this machine`,
    );
  return url;
}

async function loadEval(args: ParsedArgs, flags: EvalFlags): Promise<LoadedEval> {
  const [file, ...extra] = args.positionals;
  if (extra.length > 0) throw new UsageError(`eval takes one file, got also: ${extra.join(' ')}`);
  if (flags.request !== undefined) {
    if (file !== undefined) throw new UsageError('give either an eval file or --request, not both');
    if (flags.expectTool === undefined) throw new UsageError('--request needs --expect-tool NAME');
    const expectArgs =
      flags.expectArgs === undefined ? undefined : parseJsonObjectArgument(flags.expectArgs, '--expect-args');
    try {
      return checkEvalFile({
        mcpeval: 1,
        requests: [
          {
            request: flags.request,
            expect: { calls: [{ tool: flags.expectTool, ...(expectArgs ? { args: expectArgs } : {}) }] },
          },
        ],
      });
    } catch (error) {
      throw new UsageError(errorMessage(error));
    }
  }
  if (flags.expectTool !== undefined || flags.expectArgs !== undefined)
    throw new UsageError('--expect-tool and --expect-args go with --request');
  if (file === undefined) throw new UsageError('eval needs a FILE.mcpeval.json, or --request TEXT --expect-tool NAME');
  const resolved = path.resolve(file);
  let text: string;
  try {
    const size = (await stat(resolved)).size;
    if (size > MAX_EVAL_FILE_BYTES)
      throw new UsageError(`${resolved} is ${size} bytes; an eval file may have at most ${MAX_EVAL_FILE_BYTES}`);
    text = await readFile(resolved, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${resolved}: ${(error as Error).message}`);
  }
  try {
    return parseEvalFile(text, resolved);
  } catch (error) {
    if (error instanceof EvalFormatError) throw new UsageError(error.message);
    throw error;
  }
}

/** At a terminal the person answers; anywhere else (CI, a pipe) a large run needs --yes on the command line. */
async function confirmLargeRun(calls: number, flags: EvalFlags, modelHost: string): Promise<void> {
  if (calls <= ANNOUNCE_MODEL_CALLS_OVER) return;
  process.stderr.write(`this eval makes up to ${calls} model calls to ${modelHost} (every run taking every step)\n`);
  if (flags.yes) return;
  if (!process.stdin.isTTY || !process.stderr.isTTY)
    throw new UsageError(
      `add --yes to make up to ${calls} model calls (asked only when more than ${ANNOUNCE_MODEL_CALLS_OVER})`,
    );
  const lines = createInterface({ input: process.stdin, output: process.stderr });
  const answer = await new Promise<string>((resolve) => lines.question('go on? [y/N] ', resolve));
  lines.close();
  if (!/^y(es)?$/i.test(answer.trim())) throw new UsageError('not run: no model was called');
}

async function runEvalCommand(args: ParsedArgs, flags: EvalFlags): Promise<number> {
  const key = process.env[MODEL_KEY_ENV] || undefined;
  return connectedRun(
    async (run) => {
      const loaded = await loadEval(args, flags);
      const modelUrl = checkModelUrl(flags.modelUrl, key);
      const modelIds = flags.models.length > 0 ? flags.models : loaded.models;
      if (modelIds.length === 0) throw new UsageError('eval needs --model <id> (or "models" in the eval file)');
      let plan;
      try {
        plan = planEval(loaded, modelIds.length, flags.runs);
      } catch (error) {
        if (error instanceof EvalPlanError) throw new UsageError(error.message);
        throw error;
      }
      await confirmLargeRun(plan.maxModelCalls, flags, modelUrl.host);
      const models: EvalModel[] = [];
      for (const id of modelIds) {
        const provider = new OpenAiCompatibleProvider({
          baseUrl: modelUrl.href,
          model: id,
          ...(key ? { apiKey: key } : {}),
          // One JSON answer per step is simpler to bound than a stream, and an eval shows no text as it comes.
          stream: false,
          fetch: boundedFetch(),
        });
        const [info] = await provider.listModels();
        models.push({ provider, info });
      }
      const { client } = await run.connect(args);
      const report = await runEval(loaded, {
        servers: [client],
        models,
        ...(flags.runs === undefined ? {} : { runs: flags.runs }),
        signal: run.stop.signal,
        secrets: run.secrets(),
      });
      if (flags.json) process.stdout.write(`${JSON.stringify(jsonReport(report))}\n`);
      else process.stdout.write(`${printable(formatEvalReport(report, run.secrets()))}\n`);
      if (report.interrupted) return stopExitCode(run.stop.signal.reason);
      return report.requests.every((entry) => entry.passed === entry.runs) ? 0 : 1;
    },
    // The model key is masked out of what the run prints, with the server's secrets.
    { secrets: key ? [key] : [] },
  );
}

/** The --json contract's keys first (issue 41), then what a script may also want. */
function jsonReport(report: EvalReport): Record<string, unknown> {
  return {
    requests: report.requests.map((entry) => ({
      name: entry.name,
      passed: entry.passed,
      runs: entry.runs,
      failures: entry.failures,
      model: entry.model,
      passRate: entry.passRate,
    })),
    passRate: report.passRate,
    modelCalls: report.modelCalls,
    interrupted: report.interrupted,
  };
}
