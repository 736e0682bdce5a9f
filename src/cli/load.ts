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
import { UsageError, parseArgs, parseJsonObjectArgument, type ParsedArgs } from './args';
import { createClient, resolveTarget, type Target } from './connect';
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
  const flags: LoadFlags = { calls: [], json: false, rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq !== -1 ? arg.slice(0, eq) : arg;
    const value = () => (flag === arg ? argv[++i] : arg.slice(eq + 1));
    switch (flag) {
      case '--json':
        flags.json = true;
        break;
      case '--tool': {
        const tool = value();
        if (!tool) throw new UsageError('--tool needs a tool name');
        flags.calls.push({ tool, args: {} });
        break;
      }
      case '--args': {
        const last = flags.calls.at(-1);
        if (!last) throw new UsageError('--args goes after the --tool it is for');
        last.args = parseJsonObjectArgument(value(), `--args of ${last.tool}`);
        break;
      }
      case '--recording':
        flags.recording = value();
        if (!flags.recording) throw new UsageError('--recording needs a file');
        break;
      case '--concurrency':
        flags.concurrency = positiveNumber(flag, value(), true);
        break;
      case '--rate':
        flags.rate = positiveNumber(flag, value()?.replace(/\/s$/, ''), false);
        break;
      case '--max-outstanding':
        flags.maxOutstanding = positiveNumber(flag, value(), true);
        break;
      case '--requests':
        flags.requests = positiveNumber(flag, value(), true);
        break;
      case '--duration':
        flags.durationS = positiveNumber(flag, value()?.replace(/s$/, ''), false);
        break;
      default:
        flags.rest.push(arg);
    }
  }
  return flags;
}

/** The load test's run when the command line asks for it, else undefined (main goes on with the other subcommands). */
export function loadCommand(argv: readonly string[], usage: string): Promise<number> | undefined {
  let flags: LoadFlags;
  let args: ParsedArgs;
  try {
    flags = loadFlags(argv);
    args = parseArgs(flags.rest);
  } catch (error) {
    if (!argv.includes('load')) return undefined;
    process.stderr.write(`${errorMessage(error)}\n\n${usage}\n`);
    return Promise.resolve(2);
  }
  if (args.subcommand !== 'load' || args.help) return undefined;
  return runLoadCommand(args, flags);
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
  const interrupt = new AbortController();
  let target: Target | undefined;
  let client: McpClient | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (interrupt.signal.aborted) return;
    interrupt.abort(signal);
    // Before the load runs (the server is starting), stopping the server is the whole of stopping.
    void client?.close().catch(() => undefined);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const options = loadOptions(flags, await callMix(flags));
    target = await resolveTarget(args);
    interrupt.signal.throwIfAborted();
    client = createClient(target, args);
    await client.connect();
    await checkTools(client, options.calls);
    const connected = client;
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    // From here a signal stops the load, which then reports: the server is closed after the report is out.
    const stopLoad = (signal: NodeJS.Signals) => interrupt.abort(signal);
    process.on('SIGINT', stopLoad);
    process.on('SIGTERM', stopLoad);
    let report: LoadReport;
    try {
      report = await runLoad(
        (call, signal) =>
          connected.callTool(call.tool, call.args, { signal }).then((outcome) => ({
            isError: outcome.result.isError === true,
            outputInvalid: outcome.outputValidation?.kind === 'invalid',
          })),
        { ...options, signal: interrupt.signal, clock: nodeClock },
      );
    } finally {
      process.off('SIGINT', stopLoad);
      process.off('SIGTERM', stopLoad);
    }
    if (flags.json) process.stdout.write(`${JSON.stringify(jsonReport(report))}\n`);
    else process.stdout.write(`${printable(maskText(loadSummary(target.name, report), target.secrets))}\n`);
    if (report.interrupted) return interrupt.signal.reason === 'SIGTERM' ? 143 : 130;
    return report.errors > 0 ? 1 : 0;
  } catch (error) {
    if (interrupt.signal.aborted) return interrupt.signal.reason === 'SIGTERM' ? 143 : 130;
    const message = printable(maskText(errorMessage(error), target?.secrets ?? []));
    const named = target && !message.startsWith(target.name) ? `${target.name}: ` : '';
    process.stderr.write(`${named}${message}\n`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await client?.close().catch(() => undefined);
  }
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
