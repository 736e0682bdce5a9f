import type * as vscode from 'vscode';
import { maskText } from '../../../workbench/secrets';

/** The methods that write text to a channel; each one's text is masked before the channel sees it. */
const WRITERS = new Set<PropertyKey>(['trace', 'debug', 'info', 'warn', 'error', 'append', 'appendLine', 'replace']);

/** A log channel's writing surface (vscode.LogOutputChannel has it; so does any sink a unit test passes). */
export type LogSink = Pick<
  vscode.LogOutputChannel,
  'trace' | 'debug' | 'info' | 'warn' | 'error' | 'append' | 'appendLine' | 'replace'
>;

/**
 * The one masking writer: `channel` as every caller sees it, with each written text masked against `secrets()` (asked
 * at every write: a password input may be entered after the server started) and the generic patterns of maskText
 * (auth schemes, secret-named URL query parameters). No caller gets the raw channel, so no call site can forget.
 * Writing never throws: on window close or reload the extension host closes its channels before deactivate runs,
 * and a throwing `log.info('Stopped')` would reject a stop mid-shutdown.
 */
export function maskingChannel<Channel extends LogSink>(channel: Channel, secrets: () => readonly string[]): Channel {
  return new Proxy(channel, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const masked = WRITERS.has(property);
      return (...args: unknown[]) => {
        try {
          const written = masked ? args.map((argument) => maskArgument(argument, secrets)) : args;
          return (value as (...a: unknown[]) => unknown).apply(target, written);
        } catch {
          return undefined;
        }
      };
    },
  });
}

/** Strings and errors (LogOutputChannel.error takes either) are masked; other arguments are formatted by VS Code as is. */
function maskArgument(argument: unknown, secrets: () => readonly string[]): unknown {
  if (typeof argument === 'string') return maskText(argument, secrets());
  if (argument instanceof Error) return maskText(argument.stack ?? `${argument.name}: ${argument.message}`, secrets());
  if (typeof argument === 'object' && argument !== null) return maskText(safeJson(argument), secrets());
  return argument;
}

function safeJson(value: object): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
