/**
 * `mcp-workbench events list | poll | stream | subscribe`: Events (SEP-3415) from the command line, JSON Lines on
 * stdout. A subscription runs until Ctrl+C (or --duration): it then stops (cancels its request, unsubscribes a
 * webhook, closes the loopback listener), prints a summary line and closes the server, leaving nothing running.
 */
import type { McpClient } from '../protocol/client';
import {
  enableEvents,
  EVENTS_API,
  type DeliveryMode,
  type EventsApi,
  type FeedItem,
} from '../protocol/extensions/events';
import { openWebhookListener } from '../protocol/node/webhookListener';
import { UsageError, parseJsonObjectArgument, type ParsedArgs } from './args';
import { connectedRun, ownCommand, stopExitCode, takeFlags } from './ownCommand';
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
  const flags: Omit<EventsFlags, 'rest'> = {};
  const rest = takeFlags(argv, (flag, value) => {
    switch (flag) {
      case '--args':
        flags.args = value();
        return true;
      case '--cursor':
        flags.cursor = value();
        return true;
      case '--max-age-ms':
        flags.maxAgeMs = number(flag, value(), 0);
        return true;
      case '--duration':
        flags.durationS = number(flag, value(), 0);
        return true;
      case '--poll-floor-ms':
        flags.pollFloorMs = number(flag, value(), 1);
        return true;
      default:
        return false;
    }
  });
  return { ...flags, rest };
}

export function eventsCommand(argv: readonly string[], usage: string): Promise<number> | undefined {
  return ownCommand(argv, usage, { name: 'events', flags: eventsFlags, run: runEvents });
}

const line = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value)}\n`);

function eventsOf(client: McpClient): EventsApi {
  const events = client.extension(EVENTS_API);
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
  return connectedRun(
    async (run) => {
      const subscribeArgs = parseJsonObjectArgument(flags.args, '--args');
      const { client } = await run.connect(args, undefined, [
        enableEvents({
          webhookEndpoint: openWebhookListener,
          limits: flags.pollFloorMs === undefined ? undefined : { pollFloorMs: flags.pollFloorMs },
        }),
      ]);
      const events = eventsOf(client);
      const listing = await events.list({ signal: run.stop.signal });
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
      // From here a stop ends the subscription (its request cancelled, a webhook unsubscribed) before the close.
      run.closeOnStop = false;
      const timer =
        flags.durationS === undefined
          ? undefined
          : setTimeout(() => run.stop.abort('duration'), flags.durationS * 1000);
      const stopped = new Promise<void>((resolve) => run.stop.signal.addEventListener('abort', () => resolve()));
      await Promise.race([stopped, subscription.ended]);
      clearTimeout(timer);
      const terminated = !run.stop.signal.aborted;
      await subscription.stop();
      line({ kind: 'summary', name: type.name, mode, cursor: subscription.cursor, ...subscription.stats });
      if (terminated) return 1;
      return stopExitCode(run.stop.signal.reason);
    },
    { stopWhenStdoutCloses: true },
  );
}
