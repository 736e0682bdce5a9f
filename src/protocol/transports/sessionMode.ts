import { LocalError, errorMessage } from '../errors';
import type { Exchange, HttpExchangeMode, HttpWire, LogicalStream, RequestId } from './httpExchange';
import { describeFetchFailure, discardBody, displayUrl, httpStatusError, sleep } from './httpShared';
import { openGetStream, readSseResponse } from './sseStreams';

/**
 * Session-based Streamable HTTP (revisions up to 2025-11-25): the Mcp-Session-Id the server assigned goes with every
 * request, an SSE stream that drops is resumed with GET + Last-Event-ID while its responses are still wanted, an
 * optional standalone GET stream carries server-initiated messages, a 404 means the session expired, and close()
 * ends the session with DELETE.
 */

interface ReconnectPolicy {
  /** Delay before reconnecting an SSE stream when the server sent no `retry` field. */
  delayMs: number;
  /** Consecutive reconnections without progress before a stream is given up. */
  maxAttempts: number;
}

const DELETE_TIMEOUT_MS = 2000;

export class SessionMode implements HttpExchangeMode {
  readonly kind = 'sessions' as const;
  private sessionId: string | undefined;
  /**
   * Aborts everything tied to the current session: fetches, SSE readers, reconnect timers. Replaced when the session
   * expires (old streams die, the transport lives on) and aborted for good on shutdown.
   */
  private scope = new AbortController();
  private standaloneStream: LogicalStream | undefined;

  constructor(
    private readonly wire: HttpWire,
    private readonly reconnect: ReconnectPolicy,
  ) {}

  /** The session id the server assigned, if any. */
  get currentSessionId(): string | undefined {
    return this.sessionId;
  }

  /** The era left sessions behind (2026-07-28): an id from before is never sent again. */
  forgetSessionId(): void {
    this.sessionId = undefined;
  }

  decorate(headers: Record<string, string>): void {
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
  }

  observe(response: Response): void {
    const id = response.headers.get('mcp-session-id');
    if (id === null || id === '' || id === this.sessionId) return;
    this.sessionId = id;
    this.wire.note('session id received');
  }

  cancel(): boolean {
    return false; // notifications/cancelled is sent; the stream is no longer resumed for the request (wire.awaiting)
  }

  begin(requestId: RequestId | undefined): Exchange {
    return { requestId, signal: this.scope.signal, sessionId: this.sessionId };
  }

  end(): void {}

  answered(): void {}

  async refused(response: Response, exchange: Exchange, label: string): Promise<boolean> {
    if (response.status !== 404 || exchange.sessionId === undefined) return false;
    // Only the session this request carried is forgotten: a concurrent 404 that arrives after a new session was made
    // must not wipe it.
    if (this.sessionId === exchange.sessionId) this.forgetSession(`the server answered 404 to ${label}`);
    throw await httpStatusError(
      response,
      this.wire.url,
      'session-expired',
      (detail) => `session expired (${detail}); the client must initialize again`,
    );
  }

  abortError(method: string, _exchange: Exchange, cause: unknown): LocalError {
    return new LocalError(
      'session-expired',
      `${method} ${displayUrl(this.wire.url)} was cancelled: the session expired`,
      { cause },
    );
  }

  followPostStream(stream: LogicalStream, response: Response, exchange: Exchange): Promise<void> {
    return this.followStream(stream, response, exchange.signal).catch((error: unknown) =>
      this.wire.warn(`${stream.label} failed: ${errorMessage(error)}`),
    );
  }

  /** Opens the standalone GET stream for server-initiated messages, unless one exists for this session. */
  openServerChannel(): void {
    if (!this.wire.isOpen || this.standaloneStream !== undefined) return;
    const stream: LogicalStream = {
      label: 'GET stream',
      origin: { kind: 'standalone' },
      lastEventId: '',
      retryMs: undefined,
    };
    this.standaloneStream = stream;
    this.runStandaloneStream(stream, this.scope.signal).catch((error: unknown) =>
      this.wire.warn(`GET stream failed: ${errorMessage(error)}`),
    );
  }

  async shutdown(): Promise<void> {
    this.scope.abort();
    if (this.sessionId !== undefined) await this.deleteSession();
  }

  // -------------------------------------------------------------------------------------------------------

  /** Tells the server the session is over (spec: SHOULD). 405 and failures are fine; bounded in time. */
  private async deleteSession(): Promise<void> {
    try {
      const response = await this.wire.fetch({
        method: 'DELETE',
        headers: this.wire.headers({ kind: 'end-session' }, 'application/json, text/event-stream'),
        signal: AbortSignal.timeout(DELETE_TIMEOUT_MS),
      });
      this.wire.note(`DELETE → ${response.status}`);
      await discardBody(response);
    } catch (error) {
      this.wire.note(`DELETE failed: ${describeFetchFailure(error)}`);
    }
  }

  /** The server no longer knows our session: drop it and everything tied to it, so the client can initialize again. */
  private forgetSession(reason: string): void {
    this.wire.note(`session expired: ${reason}`);
    this.sessionId = undefined;
    this.standaloneStream = undefined;
    this.wire.awaiting.clear();
    const old = this.scope;
    this.scope = new AbortController();
    old.abort();
  }

  private isWanted(stream: LogicalStream, signal: AbortSignal): boolean {
    if (!this.wire.isOpen || signal.aborted) return false;
    switch (stream.origin.kind) {
      case 'post':
        return stream.origin.requestIds.some((id) => this.wire.awaiting.has(id));
      case 'standalone':
        return this.standaloneStream === stream;
    }
  }

  private async runStandaloneStream(stream: LogicalStream, signal: AbortSignal): Promise<void> {
    // Let the caller finish its turn first (typically it is about to POST notifications/initialized).
    await Promise.resolve();
    const opened = await openGetStream(this.wire, stream, signal, (response) => this.observe(response));
    switch (opened.kind) {
      case 'stream':
        this.wire.note('GET stream opened');
        await this.followStream(stream, opened.response, signal);
        return;
      case 'unsupported':
        this.wire.note(`no GET stream: ${opened.reason}`);
        return;
      case 'fatal':
      case 'failed':
        if (!signal.aborted) this.wire.warn(`the server-to-client GET stream is unavailable: ${opened.reason}`);
        return;
    }
  }

  /**
   * Reads a logical stream to its end, resuming it with GET + Last-Event-ID while it is still wanted. Attempts are
   * counted since the last progress, so a polling server (closes after each event, sends `retry`) is followed
   * indefinitely while a dead one is given up after maxAttempts. A stream stopped at a cap is not resumed: its
   * requests fail naming the limit (a standalone stream is given up with a warning).
   */
  private async followStream(stream: LogicalStream, first: Response, signal: AbortSignal): Promise<void> {
    let response = first;
    let attempts = 0;
    for (;;) {
      const read = await readSseResponse(this.wire, stream, response, signal);
      if (read.kind === 'too-large') {
        if (stream.origin.kind === 'post') this.wire.failTooLarge(stream.origin.requestIds, read.error);
        else if (!signal.aborted) this.wire.warn(`${read.error.message}; the GET stream is not reopened`);
        return;
      }
      if (read.progressed) attempts = 0;
      let next: Response | undefined;
      while (next === undefined) {
        if (!this.isWanted(stream, signal)) return;
        if (stream.origin.kind === 'post' && stream.lastEventId === '') {
          this.wire.warn(`${stream.label} ended before its response and the server gave no event id to resume from`);
          return;
        }
        if (attempts >= this.reconnect.maxAttempts) {
          this.wire.warn(`${stream.label}: gave up after ${attempts} reconnection attempts`);
          this.stopWanting(stream);
          return;
        }
        attempts++;
        const delay = stream.retryMs ?? this.reconnect.delayMs;
        const cursor = stream.lastEventId ? ` (Last-Event-ID ${stream.lastEventId})` : '';
        this.wire.note(`SSE reconnect in ${delay} ms${cursor}`);
        if (!(await sleep(delay, signal))) return;
        if (!this.isWanted(stream, signal)) return;
        const opened = await openGetStream(this.wire, stream, signal, (reply) => this.observe(reply));
        switch (opened.kind) {
          case 'stream':
            this.wire.note(`${stream.label} resumed`);
            next = opened.response;
            break;
          case 'unsupported':
          case 'fatal':
            if (!signal.aborted) this.wire.warn(`${stream.label} cannot be resumed: ${opened.reason}`);
            this.stopWanting(stream);
            return;
          case 'failed':
            this.wire.note(`${stream.label} reconnection failed: ${opened.reason}`);
            break;
        }
      }
      response = next;
    }
  }

  /** A POST stream that cannot be resumed releases its requests. (A dead standalone stream stays registered, so
   * openServerChannel does not reopen a stream the server refused.) */
  private stopWanting(stream: LogicalStream): void {
    if (stream.origin.kind !== 'post') return;
    for (const id of stream.origin.requestIds) this.wire.awaiting.delete(id);
  }
}
