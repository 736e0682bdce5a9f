/**
 * Recorded sessions in the CLI: `session --record <file>` answers every line as a plain session does and also
 * writes the recording; `test <file> [server options]` replays it (exit 0 when every step answers as recorded, 1
 * naming the first step that differs, 2 on usage errors). The format and the comparison are host-neutral
 * (src/workbench/recordings); this file maps session lines to recorded requests and the recorded server to flags.
 */
import { existsSync } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { errorMessage } from '../protocol/errors';
import { splitCommandLine } from '../workbench/config/commandLine';
import { MASK, maskSecrets, maskText } from '../workbench/secrets';
import {
  MAX_RECORDING_BYTES,
  MCPTEST_FORMAT_VERSION,
  MCPTEST_SUFFIX,
  RecordingFormatError,
  parseRecording,
  serializeRecording,
  type LoadedRecording,
  type RecordedServer,
  type RecordedStep,
} from '../workbench/recordings/format';
import type { Difference } from '../workbench/recordings/compare';
import { describeFailure, normalizeAnswer, replayRecording, type ReplayReport } from '../workbench/recordings/replay';
import { StepParamsError, answerOfError, type StepAnswer } from '../workbench/recordings/stepMethods';
import { sessionRequest } from '../workbench/recordings/sessionRequests';
import { UsageError, type ParsedArgs } from './args';
import { createClient, printable, resolveTarget, type Target } from './connect';
import { enableEvents } from '../protocol/extensions/events';
import { openWebhookListener } from '../protocol/node/webhookListener';
import { writeJsonOutput } from './output';
import type { SessionRunner } from './session';

/** Records the lines of one `session --record` run; `write` puts the file down at the end of the session. */
class SessionRecorder {
  private readonly steps: RecordedStep[] = [];

  constructor(
    private readonly file: string,
    private readonly server: RecordedServer,
    private readonly secrets: readonly string[],
  ) {}

  /** The session's runners, each also recording what it asked and what came back. */
  wrap(runners: Readonly<Record<string, SessionRunner>>): Record<string, SessionRunner> {
    return Object.fromEntries(
      Object.entries(runners).map(([subcommand, runner]) => [
        subcommand,
        async (client, args) => {
          let answer: StepAnswer;
          let outcome: Awaited<ReturnType<SessionRunner>>;
          try {
            outcome = await runner(client, args);
            answer = { result: outcome.output };
          } catch (error) {
            // A line the CLI refused never reached the server: there is nothing to record.
            if (error instanceof UsageError) throw error;
            this.add(subcommand, args.positionals, answerOfError(error));
            throw error;
          }
          this.add(subcommand, args.positionals, answer);
          return outcome;
        },
      ]),
    );
  }

  private add(subcommand: string, positionals: readonly string[], answer: StepAnswer): void {
    const request = sessionRequest(subcommand, positionals);
    if (!request) return; // `info` is the session's opening, not a request
    const shaped = 'result' in answer ? { result: request.resultOf(answer.result) } : answer;
    this.steps.push({
      request: { method: request.method, params: maskSecrets(request.params, this.secrets) },
      answer: normalizeAnswer(shaped, this.secrets),
    });
  }

  get stepCount(): number {
    return this.steps.length;
  }

  async write(): Promise<void> {
    await writeFile(
      this.file,
      serializeRecording({ mcptest: MCPTEST_FORMAT_VERSION, server: this.server, steps: this.steps }),
      'utf8',
    );
  }
}

/** Checks --record before the server starts, so a wrong path costs no server start. */
export function sessionRecorder(args: ParsedArgs, target: Target): SessionRecorder | undefined {
  if (args.record === undefined) return undefined;
  const file = path.resolve(args.record);
  if (!existsSync(path.dirname(file)))
    throw new UsageError(`--record: the folder ${path.dirname(file)} does not exist`);
  if (!file.endsWith(MCPTEST_SUFFIX))
    process.stderr.write(
      `note: ${file} does not end in ${MCPTEST_SUFFIX}; VS Code's Test Explorer only finds files that do\n`,
    );
  return new SessionRecorder(file, recordedServerOf(args, target, path.dirname(file)), target.secrets);
}

/** The server of this run as a recording names it: what the person typed, secrets masked, paths relative to the file. */
function recordedServerOf(args: ParsedArgs, target: Target, folder: string): RecordedServer {
  const era = args.era ? { era: args.era } : {};
  const masked = (values: Record<string, string>): Record<string, string> | undefined =>
    Object.keys(values).length === 0 ? undefined : Object.fromEntries(Object.keys(values).map((key) => [key, MASK]));
  if (args.stdio !== undefined) {
    const [command, ...commandArgs] = splitCommandLine(args.stdio).map((word) => maskText(word, target.secrets));
    const env = masked(args.env);
    const cwd = relative(folder, args.cwd === undefined ? process.cwd() : path.resolve(args.cwd));
    return { kind: 'stdio', command, args: commandArgs, ...(env ? { env } : {}), cwd, ...era };
  }
  if (args.url !== undefined) {
    const headers = masked(args.headers);
    return {
      kind: 'http',
      url: maskText(args.url, target.secrets),
      ...(headers ? { headers } : {}),
      ...(args.transport ? { transport: args.transport } : {}),
      ...era,
    };
  }
  // A recording names the file its server came from: a client's set of files could resolve elsewhere on replay.
  if (args.config === undefined)
    throw new UsageError(
      '--record needs --stdio, --url or --config <file>, not --from-client: a recording names one file',
    );
  return { kind: 'config', config: relative(folder, path.resolve(args.config)), server: target.name, ...era };
}

function relative(folder: string, to: string): string {
  return path.relative(folder, to).split(path.sep).join('/') || '.';
}

/** `test <file> [server options]`. */
export async function runRecordingTest(args: ParsedArgs): Promise<number> {
  let loaded: LoadedRecording;
  let file: string;
  let replayArgs: ParsedArgs;
  try {
    if (args.positionals.length !== 1)
      throw new UsageError(`test needs exactly one recording file (${MCPTEST_SUFFIX}), got ${args.positionals.length}`);
    if (args.record !== undefined) throw new UsageError('--record goes with session, not with test');
    file = path.resolve(args.positionals[0]);
    loaded = parseRecording(await readRecordingText(file), file);
    if (loaded.recording.steps.length === 0) throw new UsageError(`${file} has no steps: there is nothing to test`);
    replayArgs =
      args.stdio !== undefined || args.url !== undefined || args.config !== undefined || args.fromClient !== undefined
        ? args
        : argsForRecordedServer(args, loaded.recording.server, path.dirname(file));
  } catch (error) {
    if (error instanceof UsageError || error instanceof RecordingFormatError) {
      process.stderr.write(`${printable(error.message)}\n`);
      return 2;
    }
    throw error;
  }
  let target: Target | undefined;
  let client: ReturnType<typeof createClient> | undefined;
  try {
    target = await resolveTarget(replayArgs);
    // Events are declared only for a recording that subscribes (an events/subscribe step): any other replays as before.
    const subscribes = loaded.recording.steps.some((step) => step.request.method === 'events/subscribe');
    client = createClient(
      target,
      replayArgs,
      undefined,
      subscribes ? [enableEvents({ webhookEndpoint: openWebhookListener })] : [],
    );
    await client.connect();
    const report = await replayRecording(client, loaded, { secrets: target.secrets });
    await writeJsonOutput(process.stdout, reportJson(file, report));
    if (report.firstFailure === undefined) return 0;
    const failed = report.steps.find((step) => step.index === report.firstFailure);
    if (failed) process.stderr.write(`${printable(maskText(`${file}: ${describeFailure(failed)}`, target.secrets))}\n`);
    return 1;
  } catch (error) {
    if (error instanceof UsageError || error instanceof StepParamsError) {
      process.stderr.write(
        `${printable(maskText(`${error instanceof StepParamsError ? `${file}: ` : ''}${error.message}`, target?.secrets ?? []))}\n`,
      );
      return 2;
    }
    process.stderr.write(
      `${printable(maskText(`${file}: the replay could not run against ${client?.serverName ?? 'the server'}: ${errorMessage(error)}`, target?.secrets ?? []))}\n`,
    );
    return 1;
  } finally {
    await client?.close().catch(() => undefined);
  }
}

async function readRecordingText(file: string): Promise<string> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    const { size } = await handle.stat();
    if (size > MAX_RECORDING_BYTES)
      throw new UsageError(`${file} is ${size} bytes, more than the ${MAX_RECORDING_BYTES} a recording may have`);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * The flags that start the recorded server. A masked env value comes from --env or the environment variable of
 * the same name (it then counts as a secret and is masked in the answers, as it was when recording); a masked
 * header from --header. What cannot be filled is a usage error naming it.
 */
export function argsForRecordedServer(
  args: ParsedArgs,
  server: RecordedServer,
  folder: string,
  environment: NodeJS.ProcessEnv = process.env,
): ParsedArgs {
  const era = args.era ?? server.era;
  const withEra = era ? { era } : {};
  switch (server.kind) {
    case 'stdio': {
      const words = [server.command, ...server.args];
      if (words.some((word) => word.includes(MASK)))
        throw new UsageError(
          `the recorded command line has a masked secret in it: pass the server with --stdio "<command line>"`,
        );
      const env = { ...args.env };
      for (const [name, value] of Object.entries(server.env ?? {})) {
        if (env[name] !== undefined) continue;
        if (value !== MASK) env[name] = value;
        else if (environment[name] !== undefined) env[name] = environment[name] as string;
        else
          throw new UsageError(
            `the recorded server needs ${name} (its value is masked in the file): pass --env ${name}=<value> or set ${name} in the environment`,
          );
      }
      return {
        ...args,
        stdio: words.map(quoteWord).join(' '),
        env,
        cwd: args.cwd ?? path.resolve(folder, server.cwd ?? '.'),
        ...withEra,
      };
    }
    case 'http': {
      if (server.url.includes(MASK))
        throw new UsageError('the recorded URL has a masked secret in it: pass the server with --url <url>');
      const missing = Object.entries(server.headers ?? {}).filter(
        ([name, value]) => value === MASK && args.headers[name] === undefined,
      );
      if (missing.length > 0)
        throw new UsageError(
          `the recorded server sends ${missing.map(([name]) => name).join(', ')} (masked in the file): pass --header "${missing[0][0]}: <value>"`,
        );
      const headers = {
        ...Object.fromEntries(Object.entries(server.headers ?? {}).filter(([, value]) => value !== MASK)),
        ...args.headers,
      };
      return {
        ...args,
        url: server.url,
        headers,
        ...(server.transport ? { transport: args.transport ?? server.transport } : {}),
        ...withEra,
      };
    }
    case 'config':
      return { ...args, config: path.resolve(folder, server.config), server: args.server ?? server.server, ...withEra };
    default: {
      const exhaustive: never = server;
      return exhaustive;
    }
  }
}

/** One word of a `--stdio` line, quoted so splitCommandLine gives it back unchanged. */
function quoteWord(word: string): string {
  if (/^[^\s"'\\]+$/.test(word)) return word;
  return `"${word.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

/**
 * A difference as the JSON report gives it: the recorded and the received value as JSON values, not as JSON text in
 * a string (which a CI log showed escaped twice over); a side with no value is left out, and the reason says which.
 */
function differenceJson(difference: Difference): unknown {
  return {
    path: difference.path,
    reason: difference.reason,
    ...('expectedValue' in difference ? { expected: difference.expectedValue } : {}),
    ...('actualValue' in difference ? { actual: difference.actualValue } : {}),
  };
}

function reportJson(file: string, report: ReplayReport): unknown {
  return {
    file,
    passed: report.firstFailure === undefined,
    ...(report.firstFailure === undefined ? {} : { firstFailure: report.firstFailure + 1 }),
    steps: report.steps.map((step) => ({
      step: step.index + 1,
      name: step.label,
      passed: step.verdict.kind === 'passed',
      ...(step.verdict.kind === 'failed' ? { differences: step.verdict.differences.map(differenceJson) } : {}),
    })),
  };
}
