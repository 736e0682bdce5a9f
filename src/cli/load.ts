/**
 * `mcp-workbench load`: a load test of one server through this client (src/workbench/load/). Ctrl+C stops it at once
 * and prints what was measured so far.
 */
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { McpClient } from '../protocol/client';
import { errorMessage } from '../protocol/errors';
import { parseRecording } from '../workbench/recordings/format';
import { loadCallsFromRecording } from '../workbench/load/loadMix';
import {
  runLoad,
  validateLoadOptions,
  type LoadCall,
  type LoadClock,
  type LoadOptions,
  type LoadReport,
} from '../workbench/load/loadRun';
import { loadSummary } from '../workbench/load/loadSummary';
import { maskText } from '../workbench/secrets';
import { UsageError, parseJsonObjectArgument, type ParsedArgs } from './args';
import { connectedRun, ownCommand, stopExitCode, takeFlags } from './ownCommand';
import { printable } from './printable';

/** How many calls an open loop lets wait for their answer before it stops sending (see LoadShape). */
const DEFAULT_MAX_OUTSTANDING = 10_000;

interface LoadFlags {
  calls: LoadCall[];
  recording?: string;
  concurrency?: number;
  rate?: number;
  maxOutstanding?: number;
  requests?: number;
  durationS?: number;
  json: boolean;
  rest: string[];
}

function positiveNumber(flag: string, value: string | undefined, whole: boolean): number {
  const number = Number(value);
  if (value === undefined || value.trim() === '' || !(number > 0) || (whole && !Number.isInteger(number)))
    throw new UsageError(`${flag} needs a positive ${whole ? 'whole ' : ''}number, got ${value ?? 'nothing'}`);
  return number;
}

/** Takes the load test's own flags out of the command line (the shared parser does not know them). */
function loadFlags(argv: readonly string[]): LoadFlags {
  const flags: Omit<LoadFlags, 'rest'> = { calls: [], json: false };
  const rest = takeFlags(argv, (flag, value) => {
    switch (flag) {
      case '--json':
        flags.json = true;
        return true;
      case '--tool': {
        const tool = value();
        if (!tool) throw new UsageError('--tool needs a tool name');
        flags.calls.push({ tool, args: {} });
        return true;
      }
      case '--args': {
        const last = flags.calls.at(-1);
        if (!last) throw new UsageError('--args goes after the --tool it is for');
        last.args = parseJsonObjectArgument(value(), `--args of ${last.tool}`);
        return true;
      }
      case '--recording':
        flags.recording = value();
        if (!flags.recording) throw new UsageError('--recording needs a file');
        return true;
      case '--concurrency':
        flags.concurrency = positiveNumber(flag, value(), true);
        return true;
      case '--rate':
        flags.rate = positiveNumber(flag, value()?.replace(/\/s$/, ''), false);
        return true;
      case '--max-outstanding':
        flags.maxOutstanding = positiveNumber(flag, value(), true);
        return true;
      case '--requests':
        flags.requests = positiveNumber(flag, value(), true);
        return true;
      case '--duration':
        flags.durationS = positiveNumber(flag, value()?.replace(/s$/, ''), false);
        return true;
      default:
        return false;
    }
  });
  return { ...flags, rest };
}

/** The load test's run when the command line asks for it, else undefined (main goes on with the other subcommands). */
export function loadCommand(argv: readonly string[], usage: string): Promise<number> | undefined {
  return ownCommand(argv, usage, { name: 'load', flags: loadFlags, run: runLoadCommand });
}

async function callMix(flags: LoadFlags): Promise<LoadCall[]> {
  if (flags.recording === undefined) return flags.calls;
  if (flags.calls.length > 0) throw new UsageError('give either --tool (with --args) or --recording, not both');
  const file = path.resolve(flags.recording);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let calls: LoadCall[];
  try {
    calls = loadCallsFromRecording(parseRecording(text, file).recording);
  } catch (error) {
    throw new UsageError(errorMessage(error));
  }
  if (calls.length === 0) throw new UsageError(`${file} records no tool call to send`);
  return calls;
}

function loadOptions(flags: LoadFlags, calls: LoadCall[]): LoadOptions {
  if (flags.rate !== undefined && flags.concurrency !== undefined)
    throw new UsageError('give either --concurrency (closed loop) or --rate (open loop), not both');
  if (flags.maxOutstanding !== undefined && flags.rate === undefined)
    throw new UsageError('--max-outstanding goes with --rate');
  const options: LoadOptions = {
    calls,
    shape:
      flags.rate === undefined
        ? { kind: 'closed', concurrency: flags.concurrency ?? 1 }
        : { kind: 'open', ratePerS: flags.rate, maxOutstanding: flags.maxOutstanding ?? DEFAULT_MAX_OUTSTANDING },
    requests: flags.requests,
    durationMs: flags.durationS === undefined ? undefined : flags.durationS * 1000,
  };
  const problem = validateLoadOptions(options);
  if (problem) throw new UsageError(problem);
  return options;
}

const nodeClock: LoadClock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  cpuMicros: () => {
    const usage = process.cpuUsage();
    return usage.user + usage.system;
  },
};

/** Every tool of the mix must be one the server lists: a typo would otherwise be thousands of identical errors. */
async function checkTools(client: McpClient, calls: readonly LoadCall[]): Promise<void> {
  const tools = new Set((await client.listTools()).map((tool) => tool.name));
  const missing = [...new Set(calls.map((call) => call.tool))].filter((name) => !tools.has(name));
  if (missing.length > 0)
    throw new UsageError(
      `${client.serverName} has no tool ${missing.map((name) => JSON.stringify(name)).join(', ')}; it offers: ${[...tools].join(', ') || '(none)'}`,
    );
}

async function runLoadCommand(args: ParsedArgs, flags: LoadFlags): Promise<number> {
  if (args.positionals.length > 0) {
    process.stderr.write(`load takes no operands (got ${args.positionals.join(' ')}): the calls are --tool/--args\n`);
    return 2;
  }
  return connectedRun(async (run) => {
    const options = loadOptions(flags, await callMix(flags));
    const { client, target } = await run.connect(args);
    await checkTools(client, options.calls);
    // From here a signal stops the load, which then reports: the server is closed after the report is out.
    run.closeOnStop = false;
    const report = await runLoad(
      (call, signal) =>
        client.callTool(call.tool, call.args, { signal }).then((outcome) => ({
          isError: outcome.result.isError === true,
          outputInvalid: outcome.outputValidation?.kind === 'invalid',
        })),
      { ...options, signal: run.stop.signal, clock: nodeClock },
    );
    if (flags.json) process.stdout.write(`${JSON.stringify(jsonReport(report))}\n`);
    else process.stdout.write(`${printable(maskText(loadSummary(target.name, report), target.secrets))}\n`);
    if (report.interrupted) return stopExitCode(run.stop.signal.reason);
    return report.errors > 0 ? 1 : 0;
  });
}

/** The --json contract's keys first, then what a script may also want. */
function jsonReport(report: LoadReport): Record<string, unknown> {
  return {
    requests: report.requests,
    errors: report.errors,
    throughputPerS: report.throughputPerS,
    latencyMs: report.latencyMs,
    clientCpuPercent: report.clientCpuPercent,
    errorsByKind: report.errorsByKind,
    elapsedMs: report.elapsedMs,
    interrupted: report.interrupted,
    abandoned: report.abandoned,
    notSent: report.notSent,
    notes: report.notes,
    timeline: report.timeline,
    histogram: report.histogram,
  };
}
