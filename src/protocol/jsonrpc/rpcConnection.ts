import {
  CancellationReceiverStrategy,
  ParameterStructures,
  ResponseError,
  createMessageConnection,
  type CancellationToken,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import { Emitter, type Disposable } from '../disposable';
import { ErrorCodes, LocalError, McpError, errorMessage } from '../errors';
import type { Transport } from '../transports/transport';
import { isOversizedReason } from './lineSplitter';
import { excerpt, isJsonObject, responseIdFromFragment, type JsonRpcErrorObject, type RequestId } from './messages';
import { McpMessageReader, McpMessageWriter, type TraceDirection } from './mcpStreams';

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
}

export type RequestHandler = (params: Record<string, unknown>, signal: AbortSignal) => Promise<object> | object;
export type NotificationHandler = (params: Record<string, unknown>) => void;

export interface RpcConnectionOptions {
  serverName: string;
  logger?: Logger;
  trace?: (direction: TraceDirection, message: unknown) => void;
  defaultTimeoutMs?: number;
  maxTotalTimeoutMs?: number;
}

interface PendingRequest {
  method: string;
  fail(error: Error): void;
}

const ABANDONED_MEMORY = 4096;

/**
 * One JSON-RPC session with one MCP server, on vscode-jsonrpc. Adds what MCP needs and the engine lacks:
 * base-protocol validation, MCP cancellation and progress, timeouts that reject locally, and errors
 * that tell the server's own failures apart from local ones.
 */
export class RpcConnection implements Disposable {
  private readonly logger: Logger;
  private readonly reader: McpMessageReader;
  private readonly writer: McpMessageWriter;
  private readonly connection: MessageConnection;
  private readonly pending = new Map<RequestId, PendingRequest>();
  /** The server's requests being handled (sampling, elicitation waiting for a person): aborted when the connection closes. */
  private readonly incoming = new Set<AbortController>();
  private readonly abandoned = new Set<RequestId>();
  private readonly peerErrors = new Map<RequestId, JsonRpcErrorObject>();
  private readonly progressHandlers = new Map<string, (update: ProgressUpdate) => void>();
  private readonly requestHandlers = new Map<string, RequestHandler>();
  private readonly notificationHandlers = new Map<string, NotificationHandler>();
  private readonly closeEmitter = new Emitter<Error | undefined>();
  private readonly violationEmitter = new Emitter<string>();
  private lastRequestId: RequestId | undefined;
  private nextProgressToken = 0;
  private closedError: Error | undefined;
  private closed = false;

  readonly onClose = this.closeEmitter.event;
  /** Every base-protocol violation, already logged; hosts may show it. */
  readonly onViolation = this.violationEmitter.event;

  constructor(
    private readonly transport: Transport,
    private readonly options: RpcConnectionOptions,
  ) {
    this.logger = options.logger ?? silentLogger;
    const trace = options.trace ?? (() => {});
    this.reader = new McpMessageReader({
      isPending: (id) => this.pending.has(id),
      wasAbandoned: (id) => this.abandoned.has(id),
      failPending: (id, reason) => this.settleLocally(id, new LocalError('protocol-violation', `${options.serverName}: invalid response: ${reason}`)),
      recordPeerError: (id, error) => this.peerErrors.set(id, error),
      recordIncomingCancel: (id) => this.writer.suppressResponse(id),
      violation: (reason, raw) => this.reportViolation(reason, raw),
      notification: (method, params) => this.dispatchNotification(method, params),
      orphanError: (error) =>
        this.logger.error(`${options.serverName} reported an error without a request id: ${error.message} (code ${error.code})`),
      trace,
    });
    this.writer = new McpMessageWriter(transport, trace);
    this.connection = createMessageConnection(this.reader, this.writer, toEngineLogger(this.logger), {
      // Any value other than -1 makes the engine settle responses as they arrive instead of one per
      // setImmediate turn; handlers stay effectively unbounded.
      maxParallelism: Number.MAX_SAFE_INTEGER,
      cancellationStrategy: {
        sender: {
          enableCancellation: (request) => {
            this.lastRequestId = request.id as RequestId;
          },
          // Cancellation is sent by request() itself: no per-request token keeps the hot path lean.
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

  async start(): Promise<void> {
    this.connection.listen();
    await this.transport.start({
      onMessage: (value) => this.reader.deliver(value),
      onUnparsable: (raw, reason) => this.handleUnparsable(raw, reason),
      onWarning: (message) => this.logger.warn(`${this.options.serverName}: ${message}`),
      onClose: (error) => this.handleClose(error),
    });
  }

  setRequestHandler(method: string, handler: RequestHandler): void {
    this.requestHandlers.set(method, handler);
  }

  setNotificationHandler(method: string, handler: NotificationHandler): void {
    this.notificationHandlers.set(method, handler);
  }

  request<T extends object = Record<string, unknown>>(method: string, params?: Record<string, unknown>, options: RequestOptions = {}): Promise<T> {
    if (this.closed) {
      return Promise.reject(this.closedError ?? new LocalError('connection-closed', `${this.options.serverName}: connection is closed`));
    }
    const cancellable = options.cancellable ?? true;
    let progressToken: string | undefined;
    let sendParams = params;
    if (options.onProgress) {
      progressToken = `p${this.nextProgressToken++}`;
      const meta = isJsonObject(params?._meta) ? params._meta : {};
      sendParams = { ...params, _meta: { ...meta, progressToken } };
    }
    const args: unknown[] = sendParams === undefined ? [] : [ParameterStructures.byName, sendParams];
    this.lastRequestId = undefined;
    const enginePromise = this.connection.sendRequest<T>(method, ...(args as [])) as Promise<T>;
    const id = this.lastRequestId as RequestId | undefined;
    if (id === undefined) return Promise.reject(new Error('internal: request id was not captured'));

    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const timeoutMs = options.timeoutMs ?? this.options.defaultTimeoutMs ?? 60_000;
      const maxTotalMs = options.maxTotalTimeoutMs ?? this.options.maxTotalTimeoutMs ?? 10 * 60_000;
      const startedAt = Date.now();
      let idleTimer: NodeJS.Timeout | undefined;

      const cleanup = () => {
        settled = true;
        this.pending.delete(id);
        this.peerErrors.delete(id);
        this.writer.writeErrors.delete(id);
        if (idleTimer) clearTimeout(idleTimer);
        if (progressToken) this.progressHandlers.delete(progressToken);
        options.signal?.removeEventListener('abort', onAbort);
      };
      const fail = (error: Error) => {
        if (settled) return;
        cleanup();
        reject(error);
      };
      const abandon = (error: Error, cancelReason: string | undefined) => {
        if (settled) return;
        this.rememberAbandoned(id);
        if (cancelReason && cancellable && !this.closed) {
          this.notify('notifications/cancelled', { requestId: id, reason: cancelReason }).catch(() => undefined);
        }
        fail(error);
        this.reader.release(id);
      };
      const armTimer = () => {
        if (idleTimer) clearTimeout(idleTimer);
        const remainingTotal = maxTotalMs - (Date.now() - startedAt);
        const wait = Math.max(0, Math.min(timeoutMs, remainingTotal));
        idleTimer = setTimeout(() => {
          const what = `${this.options.serverName}: ${method} timed out after ${Date.now() - startedAt} ms`;
          abandon(new LocalError('timeout', what), cancellable ? `timed out after ${timeoutMs} ms` : undefined);
        }, wait);
      };
      const onAbort = () => abandon(new LocalError('cancelled', `${method} was cancelled`), 'cancelled by the user');

      this.pending.set(id, { method, fail });
      if (progressToken && options.onProgress) {
        const onProgress = options.onProgress;
        this.progressHandlers.set(progressToken, (update) => {
          if (settled) return;
          if (options.resetTimeoutOnProgress ?? true) armTimer();
          onProgress(update);
        });
      }
      if (options.signal) {
        if (options.signal.aborted) {
          onAbort();
          return;
        }
        options.signal.addEventListener('abort', onAbort, { once: true });
      }
      armTimer();

      enginePromise.then(
        (result) => {
          if (settled) return;
          cleanup();
          resolve(result);
        },
        (error: unknown) => {
          if (settled) return;
          fail(this.translateEngineError(id, method, error));
        },
      );
    });
  }

  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.closed) throw this.closedError ?? new LocalError('connection-closed', `${this.options.serverName}: connection is closed`);
    if (params === undefined) await this.connection.sendNotification(method);
    else await this.connection.sendNotification(method, ParameterStructures.byName, params);
  }

  async close(): Promise<void> {
    if (!this.closed) {
      this.failAll(new LocalError('connection-closed', `${this.options.serverName}: connection closed`));
    }
    await this.transport.close();
    this.handleClose(undefined);
  }

  dispose(): void {
    void this.close();
  }

  private translateEngineError(id: RequestId, method: string, error: unknown): Error {
    const peer = this.peerErrors.get(id);
    if (peer) return new McpError(peer.code, peer.message, peer.data, this.options.serverName);
    const writeError = this.writer.writeErrors.get(id);
    if (writeError instanceof Error) return writeError;
    if (writeError !== undefined) return new LocalError('transport', `${this.options.serverName}: sending ${method} failed: ${errorMessage(writeError)}`);
    if (this.closed && this.closedError) return this.closedError;
    return new LocalError('transport', `${this.options.serverName}: ${method} failed locally: ${errorMessage(error)}`, { cause: error });
  }

  private settleLocally(id: RequestId, error: Error): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.rememberAbandoned(id);
    entry.fail(error);
    this.reader.release(id);
  }

  private rememberAbandoned(id: RequestId): void {
    this.abandoned.add(id);
    if (this.abandoned.size > ABANDONED_MEMORY) {
      const oldest = this.abandoned.values().next().value;
      if (oldest !== undefined) this.abandoned.delete(oldest);
    }
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
      ? new LocalError('message-too-large', `${this.options.serverName}: the response to ${method} was discarded: ${reason}`)
      : new LocalError('protocol-violation', `${this.options.serverName}: the response to ${method} is not valid JSON-RPC: ${reason}`);
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
      const result = await handler(isJsonObject(params) ? params : {}, controller.signal);
      // MCP results are objects; vscode-jsonrpc would turn undefined into "result": null.
      return isJsonObject(result) ? result : {};
    } catch (error) {
      if (error instanceof McpError) throw new ResponseError(error.code, error.rawMessage, error.data);
      if (error instanceof ResponseError) throw error;
      this.logger.error(`${this.options.serverName}: handling ${method} failed: ${errorMessage(error)}`);
      throw new ResponseError(ErrorCodes.InternalError, errorMessage(error));
    } finally {
      this.incoming.delete(controller);
      subscription.dispose();
    }
  }

  private dispatchNotification(method: string, params: unknown): void {
    const body = isJsonObject(params) ? params : {};
    if (method === 'notifications/progress') {
      const token = body.progressToken;
      const handler = (typeof token === 'string' || typeof token === 'number') ? this.progressHandlers.get(String(token)) : undefined;
      if (handler && typeof body.progress === 'number') {
        handler({
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
    for (const [id, entry] of [...this.pending]) {
      this.rememberAbandoned(id);
      entry.fail(error);
    }
  }

  private handleClose(error: Error | undefined): void {
    if (this.closed) return;
    this.closed = true;
    this.closedError = error
      ? new LocalError('connection-closed', `${this.options.serverName}: ${errorMessage(error)}`, { cause: error })
      : new LocalError('connection-closed', `${this.options.serverName}: connection closed`);
    this.failAll(this.closedError);
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
