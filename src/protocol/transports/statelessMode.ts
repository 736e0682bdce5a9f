import { LocalError } from '../errors';
import type { Exchange, HttpExchangeMode, HttpWire, LogicalStream, RequestId } from './httpExchange';
import { discardBody, displayUrl, mediaType, readBodyPrefix } from './httpShared';
import { readSseResponse } from './sseStreams';
import { isObject } from '../guards';

/**
 * Stateless Streamable HTTP (2026-07-28): every POST stands alone. No session id is echoed, nothing is resumed or
 * deleted, an error answer in a 4xx body is the request's response, a stream that ends before its response loses the
 * request (the era issues it again), and cancelling a request means closing its response stream.
 */

/** An error answer is a small JSON-RPC message; more than this is not read as one. */
const ERROR_ANSWER_BYTES = 64 * 1024;

export class StatelessMode implements HttpExchangeMode {
  readonly kind = 'stateless' as const;
  /** Each request's own abort, so cancelling it closes exactly its response stream. */
  private readonly requestAborts = new Map<RequestId, AbortController>();
  /** The abort of every exchange not over (request, then its JSON body or event stream), so shutdown ends them all. */
  private readonly openExchanges = new Map<AbortSignal, AbortController>();
  /** For POSTs without an id (notifications, responses): only shutdown aborts them. */
  private readonly scope = new AbortController();

  constructor(private readonly wire: HttpWire) {}

  decorate(): void {}

  // 2026-07-28 has no sessions: a session id some server still sends is ignored, never echoed.
  observe(): void {}

  cancel(requestId: RequestId): boolean {
    this.requestAborts.get(requestId)?.abort();
    this.requestAborts.delete(requestId);
    this.wire.note(`cancelled request ${JSON.stringify(requestId)} by closing its response stream`);
    return true;
  }

  begin(requestId: RequestId | undefined): Exchange {
    if (requestId === undefined) return { requestId, signal: this.scope.signal };
    // The request's own controller, which shutdown also aborts (openExchanges): cheaper per POST than
    // AbortSignal.any([scope, own]).
    const own = new AbortController();
    this.requestAborts.set(requestId, own);
    this.openExchanges.set(own.signal, own);
    return { requestId, signal: own.signal };
  }

  end(exchange: Exchange): void {
    this.openExchanges.delete(exchange.signal);
    if (exchange.requestId !== undefined && this.requestAborts.get(exchange.requestId)?.signal === exchange.signal) {
      this.requestAborts.delete(exchange.requestId);
    }
  }

  answered(requestId: RequestId): void {
    this.requestAborts.delete(requestId);
  }

  /**
   * A modern server answers a request it rejects (unsupported version -32022, header mismatch -32020, unknown method
   * -32601) with an HTTP error status AND a JSON-RPC error response in the body. That error is the request's answer,
   * so it is delivered like any other response. Authorization statuses are never read this way: the authorizer and
   * the caller must see them as HTTP failures.
   */
  async refused(response: Response, exchange: Exchange): Promise<boolean> {
    const requestId = exchange.requestId;
    if (
      requestId === undefined ||
      response.status === 401 ||
      response.status === 403 ||
      mediaType(response) !== 'application/json'
    )
      return false;
    const text = await readBodyPrefix(response.clone(), ERROR_ANSWER_BYTES);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return false;
    }
    const record = value as Record<string, unknown> | null;
    if (!isObject(record)) return false;
    const error = record.error as Record<string, unknown> | null | undefined;
    if (typeof error !== 'object' || error === null || typeof error.code !== 'number') return false;
    // The answer to a POST belongs to the one request the POST carried. A rejection sent before the server read the
    // id (id null or absent) is still that request's answer; an id naming another request is not.
    if (record.id !== requestId && record.id !== null && record.id !== undefined) return false;
    await discardBody(response);
    this.wire.note(`HTTP ${response.status} carried the JSON-RPC error answer to request ${JSON.stringify(requestId)}`);
    this.wire.deliver(record.id === requestId ? text : JSON.stringify({ ...record, id: requestId }));
    return true;
  }

  abortError(method: string, _exchange: Exchange, cause: unknown): LocalError {
    // The request's own abort: its cancellation.
    return new LocalError('cancelled', `${method} ${displayUrl(this.wire.url)} was cancelled`, { cause });
  }

  /** Streams are not resumable in 2026-07-28: a stream that ends before its response loses the request. */
  async followPostStream(stream: LogicalStream, response: Response, exchange: Exchange): Promise<void> {
    const read = await readSseResponse(this.wire, stream, response, exchange.signal);
    if (stream.origin.kind !== 'post') return;
    const open = stream.origin.requestIds.filter((id) => this.wire.awaiting.has(id));
    if (open.length === 0 || !this.wire.isOpen || exchange.signal.aborted) return;
    if (read.kind === 'too-large') this.wire.failTooLarge(open, read.error);
    else this.wire.lose(open, `${stream.label} ended before its response`);
  }

  openServerChannel(): void {
    this.wire.note('no server-to-client GET stream in stateless HTTP');
  }

  async shutdown(): Promise<void> {
    this.scope.abort();
    const open = [...this.openExchanges.values()];
    this.openExchanges.clear();
    this.requestAborts.clear();
    for (const controller of open) controller.abort();
  }
}
