/**
 * The shape check of every message an app posts to the host. An app is untrusted code: a message is accepted only
 * as a JSON-RPC 2.0 request, notification or response with a method name and id of bounded length and params
 * that are an object, within a byte cap. Anything else is dropped and counted (an app that keeps sending junk is
 * stopped by the caller).
 */
import { isObject } from '../../protocol/guards';
export type AppMessage =
  | { kind: 'request'; id: string | number; method: string; params: Record<string, unknown> }
  | { kind: 'notification'; method: string; params: Record<string, unknown> }
  | {
      kind: 'response';
      id: string | number;
      result?: Record<string, unknown>;
      error?: { code: number; message: string };
    };

type AppMessageVerdict = { ok: true; message: AppMessage } | { ok: false; reason: string };

/** The most bytes one app message may take (its JSON text). Tool arguments and log lines fit easily. */
export const MAX_APP_MESSAGE_BYTES = 1024 * 1024;
const MAX_METHOD_LENGTH = 128;
const MAX_ID_LENGTH = 128;

function validId(id: unknown): id is string | number {
  return (typeof id === 'number' && Number.isSafeInteger(id)) || (typeof id === 'string' && id.length <= MAX_ID_LENGTH);
}

/** The JSON size of a value, stopping early once past `limit` (a flood of huge messages costs at most the cap). */
function jsonSizeWithin(value: unknown, limit: number): number | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  return text.length > limit ? undefined : text.length;
}

export function checkAppMessage(raw: unknown, maxBytes = MAX_APP_MESSAGE_BYTES): AppMessageVerdict {
  if (!isObject(raw)) return { ok: false, reason: 'not a JSON-RPC object' };
  if (raw.jsonrpc !== '2.0') return { ok: false, reason: 'not JSON-RPC 2.0' };
  if (jsonSizeWithin(raw, maxBytes) === undefined)
    return { ok: false, reason: `larger than ${maxBytes} bytes or not JSON` };
  const params = raw.params === undefined ? {} : raw.params;
  if ('method' in raw) {
    if (typeof raw.method !== 'string' || raw.method.length === 0 || raw.method.length > MAX_METHOD_LENGTH)
      return { ok: false, reason: 'a method name that is not a short string' };
    if (!isObject(params)) return { ok: false, reason: `params of ${raw.method} are not an object` };
    if (!('id' in raw)) return { ok: true, message: { kind: 'notification', method: raw.method, params } };
    if (!validId(raw.id)) return { ok: false, reason: `an id of ${raw.method} that is not a short string or integer` };
    return { ok: true, message: { kind: 'request', id: raw.id, method: raw.method, params } };
  }
  if (!validId(raw.id)) return { ok: false, reason: 'a response without a valid id' };
  if (isObject(raw.error)) {
    const code = typeof raw.error.code === 'number' ? raw.error.code : -32603;
    const message = typeof raw.error.message === 'string' ? raw.error.message.slice(0, 500) : 'error';
    return { ok: true, message: { kind: 'response', id: raw.id, error: { code, message } } };
  }
  return { ok: true, message: { kind: 'response', id: raw.id, result: isObject(raw.result) ? raw.result : {} } };
}

/**
 * A sliding one-second window: at most `perSecond` messages. The first message over the rate trips it for good
 * (a flooding app is stopped, not slowed: its frame is removed with a note).
 */
export class MessageRate {
  private readonly stamps: number[] = [];
  private trippedValue = false;

  constructor(
    readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  get tripped(): boolean {
    return this.trippedValue;
  }

  /** Counts one message; false once the rate was exceeded. */
  admit(): boolean {
    if (this.trippedValue) return false;
    const now = this.now();
    while (this.stamps.length > 0 && now - this.stamps[0]! >= 1000) this.stamps.shift();
    this.stamps.push(now);
    if (this.stamps.length > this.perSecond) this.trippedValue = true;
    return !this.trippedValue;
  }
}
