/**
 * The scaffold the CLI's own commands share (events, eval, load, lint, doctor, card, gateway): each takes its own
 * flags out of the command line before the shared parser sees it, and a run connects, works, prints, maps a failure
 * to an exit code (0 done, 1 failed, 2 usage, 128+signal stopped) and closes the server, the same way in each.
 */
import type { McpClient } from '../protocol/client';
import type { EnabledExtension } from '../protocol/extensions/protocolExtension';
import { errorMessage } from '../protocol/errors';
import type { ClientHost } from '../protocol/host';
import { maskText } from '../workbench/secrets';
import { UsageError, parseArgs, type ParsedArgs } from './args';
import type { Target } from './connect';
import { printable } from './printable';

/** A flag's value: the next word (`--flag value`) or what follows the `=` (`--flag=value`); undefined at the end. */
export type FlagValue = () => string | undefined;

/**
 * Goes through argv once: `take` answers whether a word is one of the command's own flags (reading its value, if it
 * has one, through `value`); every other word is returned, in order, for the shared parser.
 */
export function takeFlags(
  argv: readonly string[],
  take: (flag: string, value: FlagValue, arg: string) => boolean,
): string[] {
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq !== -1 ? arg.slice(0, eq) : arg;
    const value: FlagValue = () => (flag === arg ? argv[++i] : arg.slice(eq + 1));
    if (!take(flag, value, arg)) rest.push(arg);
  }
  return rest;
}

export interface OwnCommand<F extends { readonly rest: readonly string[] }> {
  /** The subcommand's word: the command answers only a command line whose subcommand it is. */
  readonly name: string;
  /** Its own flags, and in `rest` what is left for the shared parser. */
  flags(argv: readonly string[]): F;
  /** What the parsed command line must also satisfy; throws a UsageError (exit 2, with the usage) when it does not. */
  check?(args: ParsedArgs, flags: F): void;
  run(args: ParsedArgs, flags: F): Promise<number>;
}

/**
 * The command's run when the command line asks for it, else undefined (main goes on with the other subcommands):
 * a command line that does not parse, or fails `check`, prints the error and the usage and exits 2.
 */
export function ownCommand<F extends { readonly rest: readonly string[] }>(
  argv: readonly string[],
  usage: string,
  command: OwnCommand<F>,
): Promise<number> | undefined {
  if (!argv.includes(command.name)) return undefined;
  let flags: F;
  let args: ParsedArgs;
  try {
    flags = command.flags(argv);
    args = parseArgs(flags.rest);
    if (args.subcommand !== command.name || args.help) return undefined;
    command.check?.(args, flags);
  } catch (error) {
    process.stderr.write(`${errorMessage(error)}\n\n${usage}\n`);
    return Promise.resolve(2);
  }
  return command.run(args, flags);
}

/** How a stop ends a run: Ctrl+C 130, SIGTERM 143, a reader gone 141 (as a shell reports SIGPIPE), else 0. */
export function stopExitCode(reason: unknown): number {
  return reason === 'SIGINT' ? 130 : reason === 'SIGTERM' ? 143 : reason === 'SIGPIPE' ? 141 : 0;
}

/**
 * A failure on stderr, masked, with control characters escaped, and named by its server unless its text already
 * starts with the name; the exit code: 2 for a usage error, else 1.
 */
export function reportFailure(error: unknown, server: string | undefined, secrets: readonly string[]): number {
  const message = printable(maskText(errorMessage(error), secrets));
  const named = server && !message.startsWith(server) ? `${server}: ` : '';
  process.stderr.write(`${named}${message}\n`);
  return error instanceof UsageError ? 2 : 1;
}

/** What a connected run's work has: the stop signal, its one server, and the secrets its output is masked with. */
export interface OwnRun {
  /** Aborted by Ctrl+C or SIGTERM (reason: the signal's name), or by the work itself (its own reason). */
  readonly stop: AbortController;
  /**
   * While true (at first), a stop also closes the server, which is all of stopping before the work has begun. The
   * work sets it false once it answers a stop itself (it then reports what it has; the run closes the server after).
   */
  closeOnStop: boolean;
  /** Resolves the target from the connection flags, creates its client and connects; the run closes it at the end. */
  connect(
    args: ParsedArgs,
    host?: ClientHost,
    extensions?: readonly EnabledExtension[],
  ): Promise<{ client: McpClient; target: Target }>;
  /** The run's own secrets and, once connected, the server's. */
  secrets(): string[];
}

export interface ConnectedRunOptions {
  /** Secrets of the run's own (a model key) masked out of what it prints, with the server's. */
  readonly secrets?: readonly string[];
  /** A reader of stdout that goes away (`| head`) stops the run like Ctrl+C (reason SIGPIPE), instead of an EPIPE. */
  readonly stopWhenStdoutCloses?: boolean;
}

/**
 * Runs `work` with one server: a stop (a signal) aborts `run.stop`; a failure is reported (`reportFailure`) unless
 * the run was stopped, which exits with the stop's code; the server is closed in every case.
 */
export async function connectedRun(
  work: (run: OwnRun) => Promise<number>,
  options: ConnectedRunOptions = {},
): Promise<number> {
  const stop = new AbortController();
  let target: Target | undefined;
  let client: McpClient | undefined;
  const run: OwnRun = {
    stop,
    closeOnStop: true,
    async connect(args, host, extensions) {
      // Loaded here: a command that parses its line and connects only on some paths (card) stays light until then.
      const { createClient, resolveTarget } = await import('./connect.js');
      target = await resolveTarget(args);
      stop.signal.throwIfAborted();
      const created = createClient(target, args, host, extensions);
      client = created;
      await created.connect();
      return { client: created, target };
    },
    secrets: () => [...(options.secrets ?? []), ...(target?.secrets ?? [])],
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stop.signal.aborted) return;
    stop.abort(signal);
    if (run.closeOnStop) void client?.close().catch(() => undefined);
  };
  const onStdoutError = (): void => onSignal('SIGPIPE');
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  if (options.stopWhenStdoutCloses) process.stdout.on('error', onStdoutError);
  try {
    return await work(run);
  } catch (error) {
    if (stop.signal.aborted) return stopExitCode(stop.signal.reason);
    return reportFailure(error, target?.name, run.secrets());
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.stdout.off('error', onStdoutError);
    await client?.close().catch(() => undefined);
  }
}
