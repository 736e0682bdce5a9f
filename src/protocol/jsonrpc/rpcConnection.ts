import {
  CancellationReceiverStrategy,
  ParameterStructures,
  ResponseError,
  createMessageConnection,
  type CancellationToken,
  type Message,
  type MessageConnection,
} from 'vscode-jsonrpc';
import { Emitter, type Disposable } from '../disposable';
import { ErrorCodes, LocalError, McpError, errorDetail, errorMessage } from '../errors';
import type { Transport } from '../transports/transport';
import { BoundedSet } from './bounded';
import {
  OutgoingRequest,
  RequestDeadlines,
  SendWatch,
  promiseFor,
  readNow,
  type RequestOwner,
  type ResponseReader,
} from './outgoingRequest';
import { isOversizedReason } from './oversized';
import {
  excerpt,
  responseIdFromFragment,
  type JsonRpcErrorResponse,
  type JsonRpcResultResponse,
  type RequestId,
} from './messages';
import { McpMessageReader, McpMessageWriter, type TraceDirection } from './mcpStreams';
import type { PersonWaits } from './personWaits';
import { ensureJsonRpcRuntime } from './runtime';
import { SENT } from './sent';
import { isObject } from '../guards';

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

export interface RequestOptions {
  /** Idle timeout: rejects when no response (and, by default, no progress) arrived for this long. */
  timeoutMs?: number;
  /** Hard limit however much progress arrives. */
  maxTotalTimeoutMs?: number;
  resetTimeoutOnProgress?: boolean;
  signal?: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
  /** `initialize` must never be cancelled: on timeout it is abandoned without notifications/cancelled. */
  cancellable?: boolean;
  /** Told the JSON-RPC id the request was sent with (2026-07-28 subscriptions are named by it). */
  onRequestId?: (id: RequestId) => void;
}

type RequestHandler = (params: Record<string, unknown>, signal: AbortSignal) => Promise<object> | object;
type NotificationHandler = (params: Record<string, unknown>) => void;

interface RpcConnectionOptions {
  serverName: string;
  logger?: Logger;
  trace?: (direction: TraceDirection, message: unknown) => void;
  defaultTimeoutMs?: number;
  maxTotalTimeoutMs?: number;
  /** While a person acts for this connection, deadlines wait: pushed back by the time the person took. */
  personWaits?: PersonWaits;
}

export const ABANDONED_MEMORY = 4096;

interface RpcBookkeeping {
  pending: number;
  abandoned: number;
  progressHandlers: number;
  deadlines: number;
  incomingRequests: number;
  cancelledIncoming: number;
}

/**
 * One JSON-RPC session with one MCP server, on vscode-jsonrpc. Adds what MCP needs and the engine lacks:
 * base-protocol validation, MCP cancellation and progress, timeouts that reject locally, and errors
 * that tell the server's own failures apart from local ones.
 *
 * This side's own requests bypass the engine: they are written and settled here (`pending`), because the engine's
 * second copy of that bookkeeping (its own id map, promise and closures per request, and a synthetic response to
 * release it after a local timeout or cancel) was most of the client's cost per sequential call over stdio. The
 * engine serves the server's requests to this side and carries notifications both ways.
 */
export class RpcConnection implements Disposable {
  private readonly logger: Logger;
  private readonly reader: McpMessageReader;
  private readonly writer: McpMessageWriter;
  private readonly connection: MessageConnection;
  private readonly pending = new Map<RequestId, OutgoingRequest>();
  /** Requests this side gave up on (timeout, cancel, violation): their late responses are expected, not violations. */
  private readonly abandoned = new BoundedSet<RequestId>(ABANDONED_MEMORY);
  /** The server's requests being handled (sampling, elicitation waiting for a person): aborted when the connection closes. */
  private readonly incoming = new Set<AbortController>();
  /** Requests that asked for progress, by the progress token they sent. */
  private readonly progressHandlers = new Map<string, OutgoingRequest>();
  private readonly requestHandlers = new Map<string, RequestHandler>();
  private readonly notificationHandlers = new Map<string, NotificationHandler>();
  private readonly deadlines: RequestDeadlines;
  private readonly requestOwner: RequestOwner = {
    expire: (request) => {
      if (this.deadlines.postponedForPerson(request)) return;
      const ms = Date.now() - request.startedAt;
      const what = `${this.options.serverName}: ${request.method} timed out after ${ms} ms`;
      this.abandon(
        request,
        new LocalError('timeout', what, { detail: { kind: 'timed-out', method: request.method, ms } }),
        request.cancellable ? `timed out after ${request.timeoutMs} ms` : undefined,
      );
    },
    abort: (request) =>
      this.abandon(request, new LocalError('cancelled', `${request.method} was cancelled`), 'cancelled by the user'),
  };
  private readonly closeEmitter = new Emitter<Error | undefined>();
  private readonly violationEmitter = new Emitter<string>();
  private readonly messageEmitter = new Emitter<void>();
  /** Fails the requests whose message the transport could not send. */
  private readonly sendWatch = new SendWatch((request, error) => this.sendFailed(request, error));
  private nextRequestId = 0;
  private nextProgressToken = 0;
  private closedError: Error | undefined;
  private closed = false;

  readonly onClose = this.closeEmitter.event;
  /** Every base-protocol violation, already logged; hosts may show it. */
  readonly onViolation = this.violationEmitter.event;
  /** Fires for anything the server sends, before it is handled (the era probe's evidence that the server reads). */
  readonly onServerMessage = this.messageEmitter.event;

  constructor(
    readonly transport: Transport,
    private readonly options: RpcConnectionOptions,
  ) {
    ensureJsonRpcRuntime();
    this.logger = options.logger ?? silentLogger;
    this.deadlines = new RequestDeadlines(options.personWaits, (request) => this.requestOwner.expire(request));
    const trace = options.trace ?? (() => {});
    this.reader = new McpMessageReader({
      isPending: (id) => this.pending.has(id),
      wasAbandoned: (id) => this.abandoned.has(id),
      failPending: (id, reason) =>
        this.settleLocally(
          id,
          new LocalError('protocol-violation', `${options.serverName}: invalid response: ${reason}`),
        ),
      respond: (response) => this.settleFromResponse(response),
      recordIncomingRequest: (id) => this.writer.expectResponse(id),
      recordIncomingCancel: (id) => this.writer.suppressResponse(id),
      violation: (reason, raw) => this.reportViolation(reason, raw),
      notification: (method, params) => this.dispatchNotification(method, params),
      orphanError: (error) =>
        this.logger.error(
          `${options.serverName} reported an error without a request id: ${error.message} (code ${error.code})`,
        ),
      trace,
    });
    this.writer = new McpMessageWriter(transport, trace);
    this.connection = createMessageConnection(this.reader, this.writer, toEngineLogger(this.logger), {
      // Any value other than -1 makes the engine settle responses as they arrive instead of one per
      // setImmediate turn; handlers stay effectively unbounded.
      maxParallelism: Number.MAX_SAFE_INTEGER,
      cancellationStrategy: {
        // This side's requests do not go through the engine (see the class comment); request() cancels them.
        sender: {
          sendCancellation: async () => undefined,
          cleanup: () => undefined,
        },
        receiver: CancellationReceiverStrategy.Message,
      },
    });
    this.connection.onRequest((method, params, token) => this.dispatchRequest(method, params, token));
    this.connection.onError(([error]) => this.logger.error(`${options.serverName}: ${error.message}`));
  }

  get serverName(): string {
    return this.options.serverName;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Sizes of every per-id structure, for tests that show the bookkeeping stays bounded: each is either removed when
   * its request settles or capped (`abandoned` at ABANDONED_MEMORY, the peer's requests at INCOMING_MEMORY).
   */
  get bookkeeping(): RpcBookkeeping {
    return {
      pending: this.pending.size,
      abandoned: this.abandoned.size,
      progressHandlers: this.progressHandlers.size,
      deadlines: this.deadlines.size,
      ...this.writer.bookkeeping,
    };
  }

  async start(): Promise<void> {
    this.connection.listen();
    await this.transport.start({
      onMessage: (value) => {
        this.messageEmitter.fire();
        this.reader.deliver(value);
      },
      onUnparsable: (raw, reason) => {
        this.messageEmitter.fire();
        this.handleUnparsable(raw, reason);
      },
      onWarning: (message) => this.logger.warn(`${this.options.serverName}: ${message}`),
      onClose: (error) => this.handleClose(error),
      onRequestLost: (id, reason) => {
        const method = this.pending.get(id)?.method ?? 'request';
        this.settleLocally(
          id,
          new LocalError('response-lost', `${this.options.serverName}: the response to ${method} was lost: ${reason}`),
        );
      },
    });
  }

  setRequestHandler(method: string, handler: RequestHandler): void {
    this.requestHandlers.set(method, handler);
  }

  setNotificationHandler(method: string, handler: NotificationHandler): void {
    this.notificationHandlers.set(method, handler);
  }

  /**
   * Sends a request; the promise settles with its result or failure, or, given a `reader`, with what the reader makes
   * of them in the turn the request settles (outgoingRequest.ts, ResponseReader).
   */
  request<T = Record<string, unknown>>(
    method: string,
    params?: Record<string, unknown>,
    options: RequestOptions = NO_OPTIONS,
    reader?: ResponseReader,
  ): Promise<T> {
    if (this.closed) {
      const error =
        this.closedError ?? new LocalError('connection-closed', `${this.options.serverName}: connection is closed`);
      return reader === undefined ? Promise.reject(error) : readNow(reader, error);
    }
    let progressToken: string | undefined;
    let sendParams = params;
    if (options.onProgress) {
      progressToken = `p${this.nextProgressToken++}`;
      const meta = isObject(params?._meta) ? params._meta : {};
      sendParams = { ...params, _meta: { ...meta, progressToken } };
    }
    const id = this.nextRequestId++;
    const request = new OutgoingRequest(
      this.requestOwner,
      id,
      method,
      options,
      progressToken,
      options.timeoutMs ?? this.options.defaultTimeoutMs ?? 60_000,
      options.maxTotalTimeoutMs ?? this.options.maxTotalTimeoutMs ?? 10 * 60_000,
      reader,
    );
    const result = promiseFor<T>(request);
    // Registered before it is written: a transport may deliver the response before send() resolves.
    this.pending.set(id, request);
    if (progressToken) this.progressHandlers.set(progressToken, request);
    const sent = this.writer.write({ jsonrpc: '2.0', id, method, params: sendParams } as Message);
    if (sent !== SENT) this.sendWatch.watch(sent, request);
    options.onRequestId?.(id);
    // Answered during send(): nothing to time or to cancel any more.
    if (request.settled) return result;
    const { signal } = options;
    if (signal?.aborted) this.requestOwner.abort(request);
    else {
      signal?.addEventListener('abort', request, { once: true });
      this.deadlines.arm(request);
    }
    return result;
  }

  private sendFailed(request: OutgoingRequest, error: unknown): void {
    if (request.settled) return;
    this.finish(request);
    request.fail(
      error instanceof Error
        ? error
        : new LocalError(
            'transport',
            `${this.options.serverName}: sending ${request.method} failed: ${errorMessage(error)}`,
          ),
    );
  }

  /** Removes every trace of a settled request. */
  private finish(request: OutgoingRequest): void {
    request.settled = true;
    const { id } = request;
    this.pending.delete(id);
    this.deadlines.cancel(request);
    if (request.progressToken) this.progressHandlers.delete(request.progressToken);
    request.options.signal?.removeEventListener('abort', request);
  }

  /** This side gives up on a request (timeout, cancel): tell the server unless it must not be cancelled, then fail it. */
  private abandon(request: OutgoingRequest, error: Error, cancelReason: string | undefined): void {
    if (request.settled) return;
    if (cancelReason && request.cancellable && !this.closed) {
      this.notify('notifications/cancelled', { requestId: request.id, reason: cancelReason }).catch(() => undefined);
    }
    this.settleRequestLocally(request, error);
  }

  /** Fails the request with `error` now; a response that still arrives for it is expected, not a violation. */
  private settleRequestLocally(request: OutgoingRequest, error: Error): void {
    if (request.settled) return;
    this.abandoned.add(request.id);
    this.finish(request);
    request.fail(error);
  }

  /** The server answered (the reader checked the response is valid): settles the request, if it is pending. */
  private settleFromResponse(response: JsonRpcResultResponse | JsonRpcErrorResponse): boolean {
    const request = this.pending.get(response.id as RequestId);
    if (!request) return false;
    this.finish(request);
    if ('error' in response) {
      const { code, message, data } = response.error;
      request.fail(new McpError(code, message, data, this.options.serverName, request.method));
    } else {
      request.succeed(response.result);
    }
    return true;
  }

  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.closed)
      throw this.closedError ?? new LocalError('connection-closed', `${this.options.serverName}: connection is closed`);
    if (params === undefined) await this.connection.sendNotification(method);
    else await this.connection.sendNotification(method, ParameterStructures.byName, params);
  }

  async close(): Promise<void> {
    this.writer.closing();
    if (!this.closed) {
      this.failAll(new LocalError('connection-closed', `${this.options.serverName}: connection closed`));
    }
    await this.transport.close();
    this.handleClose(undefined);
  }

  dispose(): void {
    void this.close();
  }

  private settleLocally(id: RequestId, error: Error): void {
    const request = this.pending.get(id);
    if (request) this.settleRequestLocally(request, error);
  }

  /**
   * A line that could not be parsed, or was discarded for its size. When its text shows it is the response to
   * a pending request, that request fails now with a clear error instead of waiting for its timeout.
   */
  private handleUnparsable(raw: string, reason: string): void {
    this.reportViolation(reason, raw);
    const id = responseIdFromFragment(raw);
    if (id === undefined || !this.pending.has(id)) return;
    const method = this.pending.get(id)?.method ?? 'request';
    const error = isOversizedReason(reason)
      ? new LocalError(
          'message-too-large',
          `${this.options.serverName}: the response to ${method} was discarded: ${reason}`,
        )
      : new LocalError(
          'protocol-violation',
          `${this.options.serverName}: the response to ${method} is not valid JSON-RPC: ${reason}`,
        );
    this.settleLocally(id, error);
  }

  private reportViolation(reason: string, raw: unknown): void {
    const text = `${this.options.serverName} broke the protocol: ${reason}; message: ${excerpt(raw)}`;
    this.logger.warn(text);
    this.violationEmitter.fire(text);
  }

  private async dispatchRequest(method: string, params: unknown, token: CancellationToken): Promise<object> {
    const handler = this.requestHandlers.get(method);
    if (!handler) throw new ResponseError(ErrorCodes.MethodNotFound, `Method not found: ${method}`);
    const controller = new AbortController();
    const subscription = token.onCancellationRequested(() => controller.abort());
    this.incoming.add(controller);
    try {
      const result = await handler(isObject(params) ? params : {}, controller.signal);
      // An answer that comes after its request ended (the server cancelled it, the connection closed) is not sent,
      // and says so: a person's late Accept must never vanish without a word.
      if (controller.signal.aborted) this.reportLateAnswer(method);
      // MCP results are objects; vscode-jsonrpc would turn undefined into "result": null.
      return isObject(result) ? result : {};
    } catch (error) {
      if (controller.signal.aborted) {
        this.reportLateAnswer(method);
        throw new ResponseError(ErrorCodes.InternalError, `${method} ended before it was answered`);
      }
      if (error instanceof McpError) throw new ResponseError(error.code, error.rawMessage, error.data);
      if (error instanceof ResponseError) throw error;
      this.logger.error(`${this.options.serverName}: handling ${method} failed: ${errorMessage(error)}`);
      throw new ResponseError(ErrorCodes.InternalError, errorMessage(error));
    } finally {
      this.incoming.delete(controller);
      subscription.dispose();
    }
  }

  private reportLateAnswer(method: string): void {
    const why = this.closed ? 'the connection had closed' : 'the server had cancelled it';
    this.logger.warn(
      `${this.options.serverName}: the answer to its ${method} came after the request had already ended (${why}); it was not sent`,
    );
  }

  private dispatchNotification(method: string, params: unknown): void {
    const body = isObject(params) ? params : {};
    if (method === 'notifications/progress') {
      const token = body.progressToken;
      const request =
        typeof token === 'string' || typeof token === 'number' ? this.progressHandlers.get(String(token)) : undefined;
      if (request && !request.settled && typeof body.progress === 'number') {
        if (request.options.resetTimeoutOnProgress ?? true) this.deadlines.arm(request);
        request.options.onProgress?.({
          progress: body.progress,
          total: typeof body.total === 'number' ? body.total : undefined,
          message: typeof body.message === 'string' ? body.message : undefined,
        });
      }
    }
    const listener = this.notificationHandlers.get(method);
    if (listener) {
      try {
        listener(body);
      } catch (error) {
        this.logger.error(`${this.options.serverName}: handling ${method} failed: ${errorMessage(error)}`);
      }
    } else if (method !== 'notifications/progress') {
      this.logger.debug(`${this.options.serverName}: unhandled notification ${method}`);
    }
  }

  private failAll(error: Error): void {
    for (const request of [...this.pending.values()]) this.settleRequestLocally(request, error);
  }

  private handleClose(error: Error | undefined): void {
    if (this.closed) return;
    this.closed = true;
    this.closedError = error
      ? new LocalError('connection-closed', `${this.options.serverName}: ${errorMessage(error)}`, {
          cause: error,
          detail: errorDetail(error),
        })
      : new LocalError('connection-closed', `${this.options.serverName}: connection closed`);
    this.failAll(this.closedError);
    this.deadlines.dispose();
    // Whatever the engine still answers (a handler that finishes after the close) is not written anywhere.
    this.writer.closed();
    // Nobody is left to answer: a review still waiting for a request of a server that went away must leave the queue
    // (a server that floods and exits would otherwise hold the review panel forever).
    for (const controller of [...this.incoming]) controller.abort();
    this.incoming.clear();
    this.reader.closed();
    this.connection.dispose();
    this.closeEmitter.fire(error);
  }
}

function toEngineLogger(logger: Logger) {
  return {
    error: (message: string) => logger.debug(`jsonrpc: ${message}`),
    warn: (message: string) => logger.debug(`jsonrpc: ${message}`),
    info: (message: string) => logger.debug(`jsonrpc: ${message}`),
    log: (message: string) => logger.debug(`jsonrpc: ${message}`),
  };
}

const NO_OPTIONS: RequestOptions = Object.freeze({});
