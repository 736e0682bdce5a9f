import { isObject } from '../../protocol/guards';
import type { JsonObject } from '../../protocol/types';
import { MASK } from '../secrets';

/**
 * What the Protocol view may send again (Replay, Edit and Send): one request of the client to the server, as JSON. A
 * replay goes through the client's request loop like any call (a fresh id, the era's `_meta` and headers, deadlines,
 * input rounds), so only the method and params are taken from the text: its `id` and `jsonrpc` are the client's to
 * set.
 */
export type ReplayRefusal =
  | { kind: 'invalid-json'; detail: string }
  | { kind: 'not-object' }
  /** A notification (no id), a response (result or error), a batch. */
  | { kind: 'not-request'; what: 'notification' | 'response' | 'batch' }
  | { kind: 'bad-params' }
  /** A method the server sends to the client (sampling, elicitation, roots): the server is not the one to ask. */
  | { kind: 'server-method'; method: string }
  /** A request that opens or holds the session (initialize, server/discover, subscriptions/listen): the client's own. */
  | { kind: 'session-method'; method: string }
  /** The text still holds a masked value: what was sent is not known here. */
  | { kind: 'masked' }
  /** The log kept only the start of the message. */
  | { kind: 'truncated' }
  /** The row is not a request we sent, or it is no longer kept. */
  | { kind: 'not-sent-request' };

export type ReplayCheck =
  { ok: true; method: string; params: JsonObject | undefined } | { ok: false; refusal: ReplayRefusal };

/** Requests only a server sends (to the client); a client sending them asks the wrong side. */
const SERVER_TO_CLIENT_METHODS: ReadonlySet<string> = new Set([
  'sampling/createMessage',
  'elicitation/create',
  'roots/list',
]);

/** Requests the client sends itself to open or keep its session: sent again by hand, they would break it. */
const SESSION_METHODS: ReadonlySet<string> = new Set(['initialize', 'server/discover', 'subscriptions/listen']);

/** The characters of edited text read at most (a request a person edits is small; a paste of megabytes is refused). */
export const MAX_EDITED_CHARS = 1024 * 1024;

/** Checks text a person edited (Edit and Send) as one client request. */
export function checkEditedRequest(text: string): ReplayCheck {
  if (text.length > MAX_EDITED_CHARS)
    return refuse({ kind: 'invalid-json', detail: `longer than ${MAX_EDITED_CHARS} characters` });
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (error) {
    return refuse({ kind: 'invalid-json', detail: error instanceof Error ? error.message : String(error) });
  }
  // Checked on the parsed text: the mark inside a string is what masking left.
  if (text.includes(MASK)) return refuse({ kind: 'masked' });
  return checkRequest(message);
}

/** Checks a message (parsed from the log, or kept whole) as one client request. */
export function checkRequest(message: unknown): ReplayCheck {
  if (Array.isArray(message)) return refuse({ kind: 'not-request', what: 'batch' });
  if (!isObject(message)) return refuse({ kind: 'not-object' });
  if (typeof message.method !== 'string') {
    if ('result' in message || 'error' in message) return refuse({ kind: 'not-request', what: 'response' });
    return refuse({ kind: 'not-object' });
  }
  if (message.id === undefined) return refuse({ kind: 'not-request', what: 'notification' });
  const method = message.method;
  if (SERVER_TO_CLIENT_METHODS.has(method)) return refuse({ kind: 'server-method', method });
  if (SESSION_METHODS.has(method)) return refuse({ kind: 'session-method', method });
  if (message.params !== undefined && !isObject(message.params)) return refuse({ kind: 'bad-params' });
  return { ok: true, method, params: message.params === undefined ? undefined : withoutProgressToken(message.params) };
}

/**
 * The params without the old request's progress token: the client sets its own when it wants progress, and an old
 * token would tie the server's progress to the old row.
 */
function withoutProgressToken(params: JsonObject): JsonObject {
  const meta = params._meta;
  if (!isObject(meta) || !('progressToken' in meta)) return params;
  const { progressToken: _dropped, ...rest } = meta;
  void _dropped;
  const copy: JsonObject = { ...params };
  if (Object.keys(rest).length > 0) copy._meta = rest as JsonObject;
  else delete copy._meta;
  return copy;
}

function refuse(refusal: ReplayRefusal): ReplayCheck {
  return { ok: false, refusal };
}

/** The tool a `tools/call` names, for asking before a destructive one is sent again. */
export function toolNameOf(check: ReplayCheck): string | undefined {
  if (!check.ok || check.method !== 'tools/call') return undefined;
  const name = check.params?.name;
  return typeof name === 'string' ? name : undefined;
}
