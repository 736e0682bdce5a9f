import { LocalError } from '../errors';
import type { InputLimitError } from '../limits/inputLimits';
import type { HttpWire, LogicalStream } from './httpExchange';
import { discardBody, httpStatusError, mediaType, networkError, pumpSse } from './httpShared';
import { SseParser } from './sseParser';

/** Reading the SSE answers of Streamable HTTP: one response of a logical stream, and the GET that (re)opens one. */

/** An SSE connection that stayed up this long counts as progress even without events. */
const HEALTHY_CONNECTION_MS = 10_000;

type ReadOutcome =
  /** The response ended or broke; `progressed` says whether it carried an event block or lived long (see below). */
  | { kind: 'read'; progressed: boolean }
  /** A line or an event passed its cap: reading stopped and the connection was released. */
  | { kind: 'too-large'; error: InputLimitError };

/**
 * Reads one HTTP response of a logical stream within the wire's limits. Progress: it carried an event block, or it
 * lived long enough to be a healthy connection cut by an idle timeout (proxies do that to quiet GET streams; giving
 * up on those would lose server notifications).
 */
export async function readSseResponse(
  wire: HttpWire,
  stream: LogicalStream,
  response: Response,
  signal: AbortSignal,
): Promise<ReadOutcome> {
  const openedAt = Date.now();
  const parser = new SseParser(
    {
      event: (event) => {
        stream.lastEventId = event.lastEventId;
        if (event.type === 'message') wire.deliver(event.data);
        else wire.note(`${stream.label}: ignored SSE event of type '${event.type}'`);
      },
      retry: (ms) => {
        stream.retryMs = ms;
      },
    },
    stream.lastEventId,
    { maxLineBytes: wire.limits.maxSseLineBytes, maxEventBytes: wire.limits.maxMessageBytes },
  );
  const outcome = await pumpSse(response, parser);
  // Also picks up ids of events without data (the spec's priming event).
  stream.lastEventId = parser.lastEventId;
  switch (outcome.kind) {
    case 'too-large':
      return { kind: 'too-large', error: outcome.error.within(stream.label) };
    case 'ended':
    case 'failed':
      if (!signal.aborted)
        wire.note(outcome.kind === 'ended' ? `${stream.label} ended` : `${stream.label} broke: ${outcome.reason}`);
      return { kind: 'read', progressed: parser.blocksSeen > 0 || Date.now() - openedAt >= HEALTHY_CONNECTION_MS };
  }
}

type GetOutcome =
  | { kind: 'stream'; response: Response }
  /** The server has no stream for us (405, or 2xx that is not SSE): stop quietly. */
  | { kind: 'unsupported'; reason: string }
  /** Retrying will not help (4xx, closed transport). */
  | { kind: 'fatal'; reason: string }
  /** Worth another attempt (network error, 5xx, 429). */
  | { kind: 'failed'; reason: string };

/** A GET that opens (or, with the stream's Last-Event-ID, resumes) a server-to-client SSE stream. */
export async function openGetStream(
  wire: HttpWire,
  stream: LogicalStream,
  signal: AbortSignal,
  observe: (response: Response) => void,
): Promise<GetOutcome> {
  const extra: Record<string, string> = stream.lastEventId ? { 'Last-Event-ID': stream.lastEventId } : {};
  let response: Response;
  try {
    response = await wire.fetch({
      method: 'GET',
      headers: wire.headers({ kind: 'stream' }, 'text/event-stream', extra),
      signal,
    });
  } catch (error) {
    if (signal.aborted) return { kind: 'fatal', reason: 'cancelled' };
    if (error instanceof LocalError) return { kind: 'fatal', reason: error.message };
    return { kind: 'failed', reason: networkError('GET', wire.url, error).message };
  }
  observe(response);
  const type = mediaType(response);
  wire.note(`GET → ${response.status}${type ? ` (${type})` : ''}`);
  if (response.status === 405) {
    await discardBody(response);
    return { kind: 'unsupported', reason: 'the server does not offer GET streams (405)' };
  }
  if (!response.ok) {
    // A 404 here does not forget the session: the next POST will see it and report session-expired.
    const error = await httpStatusError(response, wire.url);
    const retryable = response.status >= 500 || response.status === 429;
    return { kind: retryable ? 'failed' : 'fatal', reason: error.message };
  }
  if (type !== 'text/event-stream') {
    await discardBody(response);
    return {
      kind: 'unsupported',
      reason: `the server answered GET with '${type || 'no content type'}', not an event stream`,
    };
  }
  return { kind: 'stream', response };
}
