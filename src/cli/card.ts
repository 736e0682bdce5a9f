/**
 * `mcp-workbench card`: a server's Server Card (SEP-2127), or a domain's catalog, read before any connection and
 * checked against its schema, printed as JSON. `--compare` then connects (with the usual connection options) and
 * lists where the server's own answer differs from its card.
 */
import { errorMessage } from '../protocol/errors';
import type { ServerCard } from '../workbench/serverCards/cards';
import type { CardDifference } from '../workbench/serverCards/compare';
import type { DiscoveryFetchOptions } from '../workbench/serverCards/discoveryFetch';
import { maskText } from '../workbench/secrets';
import { UsageError, type ParsedArgs } from './args';
import { ownCommand, reportFailure, takeFlags } from './ownCommand';
import { toJsonText } from '../workbench/display';
import { printable } from './printable';

interface CardFlags {
  catalog?: string;
  cardUrl?: string;
  compare: boolean;
  rest: string[];
}

function cardFlags(argv: readonly string[]): CardFlags {
  const flags: Omit<CardFlags, 'rest'> = { compare: false };
  const rest = takeFlags(argv, (flag, value, arg) => {
    if (arg === '--compare') flags.compare = true;
    else if (flag === '--catalog' || flag === '--card-url') {
      const given = value();
      if (given === undefined || given === '') throw new UsageError(`${flag} needs a value`);
      if (flag === '--catalog') flags.catalog = given;
      else flags.cardUrl = given;
    } else return false;
    return true;
  });
  return { ...flags, rest };
}

/** The card command when the command line asks for it, else undefined (main goes on with the other subcommands). */
export function cardCommand(argv: readonly string[], usage: string): Promise<number> | undefined {
  return ownCommand(argv, usage, {
    name: 'card',
    flags: cardFlags,
    check(args, flags) {
      const given = [args.positionals.length > 0, flags.catalog !== undefined, flags.cardUrl !== undefined];
      if (given.filter(Boolean).length !== 1)
        throw new UsageError('card needs one of: <server-url>, --catalog <domain>, --card-url <url>');
      if (args.positionals.length > 1) throw new UsageError('card takes one server URL');
      if (flags.compare && args.positionals.length !== 1)
        throw new UsageError('--compare goes with card <server-url>: the server to connect to');
    },
    run: runCard,
  });
}

async function runCard(args: ParsedArgs, flags: CardFlags): Promise<number> {
  const { readCardAt, readCatalog, readServerCard } = await import('../workbench/serverCards/cards.js');
  const { DiscoveryError } = await import('../workbench/serverCards/discoveryFetch.js');
  const options: DiscoveryFetchOptions = {
    ...(args.timeoutMs !== undefined ? { timeoutMs: args.timeoutMs } : {}),
    ...(args.limits.maxDocumentBytes !== undefined ? { maxBytes: args.limits.maxDocumentBytes } : {}),
  };
  try {
    if (flags.catalog !== undefined) {
      const catalog = await readCatalog(flags.catalog, options);
      for (const skipped of catalog.skipped)
        process.stderr.write(
          `skipped ${printable(JSON.stringify(skipped.identifier))}: ${printable(skipped.reason)}\n`,
        );
      printJson(catalog);
      return 0;
    }
    const serverUrl = args.positionals[0];
    const reading =
      flags.cardUrl !== undefined ? await readCardAt(flags.cardUrl, options) : await readServerCard(serverUrl, options);
    if (!flags.compare) {
      printJson(reading);
      return 0;
    }
    const differences = await compareWithServer(serverUrl, args, reading.card);
    printJson({ ...reading, differences });
    return differences.length > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof DiscoveryError) {
      printJson({
        error: {
          kind: error.kind,
          url: error.url,
          message: error.message,
          ...(error.detail.errors ? { errors: error.detail.errors } : {}),
        },
      });
    }
    return reportFailure(error, undefined, []);
  }
}

/**
 * The JSON on stdout, with bidirectional, zero-width and C1 control characters written as \uXXXX: the same JSON value
 * (they only occur inside strings, where the escape means the character), but a card's text cannot reorder or hide
 * what a terminal shows. JSON itself escapes the C0 controls.
 */
function printJson(value: unknown): void {
  const text = toJsonText(value, 2) ?? 'null';
  process.stdout.write(
    `${text.replace(/[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/gu, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`,
  );
}

/** Connects as `--url <server-url>` with the run's other connection options, and compares. */
async function compareWithServer(serverUrl: string, args: ParsedArgs, card: ServerCard): Promise<CardDifference[]> {
  const [{ createClient, resolveTarget }, { compareCard }] = await Promise.all([
    import('./connect.js'),
    import('../workbench/serverCards/compare.js'),
  ]);
  const target = await resolveTarget({ ...args, url: serverUrl });
  const client = createClient(target, { ...args, url: serverUrl });
  try {
    await client.connect();
    const session = client.session;
    return compareCard(card, {
      serverInfo: session.serverInfo,
      protocolVersion: session.protocolVersion,
      transport: client.transport.kind,
      url: serverUrl,
    });
  } catch (error) {
    throw new Error(maskText(errorMessage(error), target.secrets));
  } finally {
    await client.close().catch(() => undefined);
  }
}
