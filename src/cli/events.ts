/**
 * `mcp-workbench events list | poll | stream | subscribe`: Events (SEP-3415) from the command line, JSON Lines on
 * stdout. A subscription runs until Ctrl+C (or --duration): it then stops (cancels its request, unsubscribes a
 * webhook, closes the loopback listener), prints a summary line and closes the server, leaving nothing running.
 */
import type { McpClient } from '../protocol/client';
import { errorMessage } from '../protocol/errors';
import {
  enableEvents,
  eventsExtension,
  type DeliveryMode,
  type EventsApi,
  type FeedItem,
} from '../protocol/extensions/events';
import { openWebhookListener } from '../protocol/node/webhookListener';
import { maskText } from '../workbench/secrets';
import { UsageError, parseArgs, parseJsonObjectArgument, type ParsedArgs } from './args';
import { createClient, resolveTarget, type Target } from './connect';
import { printable } from './printable';

const MODES: Readonly<Record<string, DeliveryMode>> = { poll: 'poll', stream: 'push', subscribe: 'webhook' };

interface EventsFlags {
  args?: string;
  cursor?: string;
  maxAgeMs?: number;
  durationS?: number;
  pollFloorMs?: number;
  rest: string[];
}

function number(flag: string, value: string | undefined, min: number): number {
  const parsed = Number(value);
  if (value === undefined || value.trim() === '' || !Number.isFinite(parsed) || parsed < min)
    throw new UsageError(`${flag} needs a number of at least ${min}, got ${value ?? 'nothing'}`);
  return parsed;
}

function eventsFlags(argv: readonly string[]): EventsFlags {
  const flags: EventsFlags = { rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq !== -1 ? arg.slice(0, eq) : arg;
    const value = () => (flag === arg ? argv[++i] : arg.slice(eq + 1));
    switch (flag) {
      case '--args':
        flags.args = value();
        break;
      case '--cursor':
        flags.cursor = value();
        break;
      case '--max-age-ms':
        flags.maxAgeMs = number(flag, value(), 0);
        break;
      case '--duration':
        flags.durationS = number(flag, value(), 0);
        break;
      case '--poll-floor-ms':
        flags.pollFloorMs = number(flag, value(), 1);
        break;
      default:
        flags.rest.push(arg);
    }
  }
  return flags;
}

export function eventsCommand(argv: readonly string[], usage: string): Promise<number> | undefined {
  let flags: EventsFlags;
  let args: ParsedArgs;
  try {
    flags = eventsFlags(argv);
    args = parseArgs(flags.rest);
  } catch (error) {
    if (!argv.includes('events')) return undefined;
    process.stderr.write(`${errorMessage(error)}\n\n${usage}\n`);
    return Promise.resolve(2);
  }
  if (args.subcommand !== 'events' || args.help) return undefined;
  return runEvents(args, flags);
}

/** How a stop ends the run: --duration 0, Ctrl+C 130, SIGTERM 143, a reader gone 141 (as a shell reports SIGPIPE). */
function exitCode(reason: unknown): number {
  return reason === 'SIGINT' ? 130 : reason === 'SIGTERM' ? 143 : reason === 'SIGPIPE' ? 141 : 0;
}

const line = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value)}\n`);

function eventsOf(client: McpClient): EventsApi {
  const events = client.extension(eventsExtension);
  if (!events?.supported)
    throw new UsageError(
      `${client.serverName} does not offer events (it declares no io.modelcontextprotocol/events in a 2026-07-28 session)`,
    );
  return events;
}

async function runEvents(args: ParsedArgs, flags: EventsFlags): Promise<number> {
  const [verb, name, ...extra] = args.positionals;
  const mode = verb === undefined ? undefined : MODES[verb];
  if (verb !== 'list' && mode === undefined) {
    process.stderr.write(`events takes list, poll, stream or subscribe (got ${verb ?? 'nothing'})\n`);
    return 2;
  }
  if ((mode !== undefined && name === undefined) || extra.length > 0 || (verb === 'list' && name !== undefined)) {
    process.stderr.write(`usage: events list | events ${verb} <event name> [--args JSON]\n`);
    return 2;
  }
  const interrupt = new AbortController();
  let target: Target | undefined;
  let client: McpClient | undefined;
  let subscribed = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (interrupt.signal.aborted) return;
    interrupt.abort(signal);
    // Before a subscription runs (the server is starting, the list is loading), closing the server is all of stopping.
    if (!subscribed) void client?.close().catch(() => undefined);
  };
  // A reader that goes away (`| head`) stops the subscription like Ctrl+C, instead of an EPIPE crash.
  const onStdoutError = (): void => onSignal('SIGPIPE');
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.stdout.on('error', onStdoutError);
  try {
    const subscribeArgs = parseJsonObjectArgument(flags.args, '--args');
    target = await resolveTarget(args);
    interrupt.signal.throwIfAborted();
    client = createClient(target, args, undefined, [
      enableEvents({
        webhookEndpoint: openWebhookListener,
        limits: flags.pollFloorMs === undefined ? undefined : { pollFloorMs: flags.pollFloorMs },
      }),
    ]);
    await client.connect();
    const events = eventsOf(client);
    const listing = await events.list({ signal: interrupt.signal });
    for (const invalid of listing.invalid)
      process.stderr.write(`refused event type #${invalid.index}: ${printable(invalid.reason)}\n`);
    if (mode === undefined || name === undefined) {
      for (const type of listing.types) line(type);
      return 0;
    }
    const type = listing.types.find((candidate) => candidate.name === name);
    if (!type)
      throw new UsageError(
        `${client.serverName} offers no event type ${JSON.stringify(name)} (it offers: ${listing.types.map((t) => t.name).join(', ') || 'none'})`,
      );
    if (!type.delivery.includes(mode))
      throw new UsageError(`${name} is delivered by ${type.delivery.join(', ')}, not by ${mode}`);
    const subscription = events.subscribe(
      type,
      mode,
      { arguments: subscribeArgs, cursor: flags.cursor ?? null, maxAgeMs: flags.maxAgeMs },
      (item: FeedItem) => line(item),
    );
    subscribed = true;
    const timer =
      flags.durationS === undefined ? undefined : setTimeout(() => interrupt.abort('duration'), flags.durationS * 1000);
    const stopped = new Promise<void>((resolve) => interrupt.signal.addEventListener('abort', () => resolve()));
    await Promise.race([stopped, subscription.ended]);
    clearTimeout(timer);
    const terminated = !interrupt.signal.aborted;
    await subscription.stop();
    line({ kind: 'summary', name: type.name, mode, cursor: subscription.cursor, ...subscription.stats });
    if (terminated) return 1;
    return exitCode(interrupt.signal.reason);
  } catch (error) {
    if (interrupt.signal.aborted) return exitCode(interrupt.signal.reason);
    const message = printable(maskText(errorMessage(error), target?.secrets ?? []));
    const named = target && !message.startsWith(target.name) ? `${target.name}: ` : '';
    process.stderr.write(`${named}${message}\n`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.stdout.off('error', onStdoutError);
    await client?.close().catch(() => undefined);
  }
}
