import type { TraceDirection } from '../../protocol/jsonrpc/mcpStreams';
import type { HttpPurpose } from '../../protocol/transports/wireObserver';
import { isObject } from '../../protocol/guards';

/**
 * What the protocol log keeps of the wire, already masked: nothing in a WireEvent holds a secret or a reference to
 * a live message, so events can be posted to a webview or written to a file as they are.
 */
export type WireEvent = MessageEvent | HttpEvent | ConsoleEvent;

type MessageKind = 'request' | 'notification' | 'result' | 'error' | 'batch' | 'other';

interface EventBase {
  /** Increases by one per event of one log, so a reader can ask for what came after the last one it saw. */
  seq: number;
  /** Milliseconds since the epoch. */
  time: number;
}

export interface MessageEvent extends EventBase {
  kind: 'message';
  direction: TraceDirection;
  messageKind: MessageKind;
  method?: string;
  id?: string | number;
  /**
   * The protocol revision this message carries or was sent under: its own (`_meta` of a 2026-07-28 request,
   * `protocolVersion` of an `initialize` request or of a handshake's result), else the revision the session settled on
   * (an `initialize` result, a `server/discover` result, a 2026-07-28 request of an open session). Absent while none
   * is settled: an `initialize` that asks for 2025-11-25 is never labelled with a probe's 2026-07-28.
   */
  era?: string;
  /** UTF-8 bytes of the message as compact JSON. */
  size: number;
  /** The masked message as compact JSON, cut at the log's per-message cap (then `truncated`). */
  text: string;
  truncated: boolean;
  /** The error's code and message, for errors to stand out without parsing `text`. */
  error?: { code: number | undefined; message: string };
  /**
   * For a response: the `seq` (the row) of the request it answers. For progress or a cancellation: of the request it
   * is about. A row number of this log, never a JSON-RPC id (that is `relatedId`).
   */
  relatedSeq?: number;
  /** The JSON-RPC id of the request `relatedSeq` points at, when known. */
  relatedId?: string | number;
  /** For a response: milliseconds since its request. */
  durationMs?: number;
  /** A request the person sent again from the Protocol view: the row it replays (or was edited from). */
  replayOf?: number;
  /** With replayOf: the person edited the request before sending it. */
  edited?: true;
  /**
   * An agent's request through the gateway and the gateway's answer to it (issue 37): the agent as its clientInfo
   * named it, escaped and cut (it is the agent's text). `receive` is the agent's request, `send` the answer.
   */
  agent?: string;
}

export interface HttpEvent extends EventBase {
  kind: 'http';
  purpose: HttpPurpose;
  method: string;
  /** Masked (user:password removed, secret-looking query values and known secrets replaced). */
  url: string;
  requestHeaders: HeaderLine[];
  /** An OAuth request's form, with codes, verifiers, assertions, secrets and tokens masked. */
  requestBody?: string;
  durationMs: number;
  status?: number;
  statusText?: string;
  responseHeaders: HeaderLine[];
  /** A redirect's Location (masked). */
  location?: string;
  failure?: string;
}

export interface HeaderLine {
  name: string;
  value: string;
  /** `Mcp-Param-*` sent as `=?base64?…?=`: the value decoded, for reading. */
  decoded?: string;
}

interface ConsoleEvent extends EventBase {
  kind: 'console';
  /** A line the server wrote to stderr (or a transport note), masked. */
  text: string;
}

/** What a message is, read without trusting it: any field may be missing or of the wrong type. */
interface MessageSummary {
  messageKind: MessageKind;
  method?: string;
  id?: string | number;
  progressToken?: string | number;
  /** notifications/cancelled: the request it cancels. */
  cancelledId?: string | number;
  /** `_meta["io.modelcontextprotocol/protocolVersion"]` of a 2026-07-28 request. */
  metaVersion?: string;
  /** `params.protocolVersion` of an `initialize` request: the revision it asks for. */
  paramsVersion?: string;
  /** `result.protocolVersion` of a response (initialize, server/discover). */
  resultVersion?: string;
  /** `result.supportedVersions` of a response (a server/discover result lists them). */
  resultSupported?: string[];
  error?: { code: number | undefined; message: string };
}

const META_VERSION = 'io.modelcontextprotocol/protocolVersion';

export function summarize(message: unknown): MessageSummary {
  if (Array.isArray(message)) return { messageKind: 'batch' };
  if (typeof message !== 'object' || message === null) return { messageKind: 'other' };
  const record = message as Record<string, unknown>;
  const id = typeof record.id === 'string' || typeof record.id === 'number' ? record.id : undefined;
  const params = isObject(record.params) ? record.params : undefined;
  if (typeof record.method === 'string') {
    const meta = isObject(params?._meta) ? params._meta : undefined;
    const summary: MessageSummary = {
      messageKind: id === undefined ? 'notification' : 'request',
      method: record.method,
      id,
    };
    const progressToken =
      meta?.progressToken ?? (record.method === 'notifications/progress' ? params?.progressToken : undefined);
    if (typeof progressToken === 'string' || typeof progressToken === 'number') summary.progressToken = progressToken;
    if (
      record.method === 'notifications/cancelled' &&
      (typeof params?.requestId === 'string' || typeof params?.requestId === 'number')
    )
      summary.cancelledId = params.requestId;
    if (typeof meta?.[META_VERSION] === 'string') summary.metaVersion = meta[META_VERSION];
    if (record.method === 'initialize' && typeof params?.protocolVersion === 'string')
      summary.paramsVersion = params.protocolVersion;
    return summary;
  }
  if ('error' in record) {
    const error = isObject(record.error) ? record.error : undefined;
    return {
      messageKind: 'error',
      id,
      error: {
        code: typeof error?.code === 'number' ? error.code : undefined,
        message: typeof error?.message === 'string' ? error.message : '',
      },
    };
  }
  if ('result' in record) {
    const result = isObject(record.result) ? record.result : undefined;
    const summary: MessageSummary = { messageKind: 'result', id };
    if (typeof result?.protocolVersion === 'string') summary.resultVersion = result.protocolVersion;
    if (Array.isArray(result?.supportedVersions))
      summary.resultSupported = result.supportedVersions.filter((v): v is string => typeof v === 'string');
    return summary;
  }
  return { messageKind: 'other', id };
}
