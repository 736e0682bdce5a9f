import { LocalError } from '../errors';
import type { AttemptContext, AttemptOutcome, ClientIdentity, EraWire, InputRequest, InputResponses, ProtocolEra, RequiredUrlElicitation, ServerSession } from '../eras/era';
import type { Logger, ProgressUpdate, RequestOptions, RpcConnection } from '../jsonrpc/rpcConnection';
import type { ClientRequestMethod, ClientRequestParams, ClientRequestResult, JsonParams, ListMethod } from '../methods';
import type { JsonObject } from '../types';

/** Attempts of one request across era retries and input rounds; a server that never completes is cut off. */
export const MAX_ATTEMPTS = 16;

export interface LoopCallOptions {
  signal?: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
  timeoutMs?: number;
  /** Fetch again even when a cached result is still fresh (a manual refresh). */
  refresh?: boolean;
}

/** What the loop needs from the client that owns it. */
export interface RequestLoopPeer {
  readonly serverName: string;
  readonly logger: Logger;
  readonly rpc: RpcConnection;
  readonly era: ProtocolEra;
  identity(): ClientIdentity;
  /** The open session; throws when not connected. */
  session(): ServerSession;
  /** The current session, if any (renewal checks whether another request already replaced the expired one). */
  currentSession(): ServerSession | undefined;
  sessionRenewed(session: ServerSession): void;
  extensionResultTypes(): ReadonlySet<string>;
  answerInputRequests(inputRequests: Readonly<Record<string, InputRequest>>, signal: AbortSignal | undefined): Promise<InputResponses>;
  completeUrlElicitations(elicitations: readonly RequiredUrlElicitation[], signal: AbortSignal | undefined): Promise<boolean>;
  relist(method: ListMethod, signal: AbortSignal | undefined): Promise<void>;
  resolveExtensionResult(resultType: string, result: JsonObject, method: ClientRequestMethod, params: JsonParams | undefined, signal: AbortSignal | undefined): Promise<JsonObject>;
}

/**
 * Sends one request through the era: the era may answer it before it goes out (a fresh cached result), shapes each
 * attempt and reads its outcome, and this loop carries out the verdict (renew the session once, complete URL
 * elicitations once, list again once, answer input requests, hand an extension's result type to the extension, send
 * again), bounded by MAX_ATTEMPTS. It names no era: everything that differs between eras is the era's.
 */
export class RequestLoop {
  /** The one renewal in flight; concurrent requests that saw the session expire all wait for it. */
  private renewing: Promise<ServerSession> | undefined;

  constructor(private readonly peer: RequestLoopPeer) {}

  async request<M extends ClientRequestMethod>(method: M, params: ClientRequestParams<M>, options: LoopCallOptions = {}): Promise<ClientRequestResult<M>> {
    const peer = this.peer;
    let session = peer.session(); // throws when not connected
    const preflight = peer.era.preflight(method, params, options.refresh === true);
    // The declared shape of the method's result; callers check the fields they rely on.
    if (preflight.kind === 'answered') return preflight.result as ClientRequestResult<M>;
    const requestOptions: RequestOptions = { signal: options.signal, onProgress: options.onProgress, timeoutMs: options.timeoutMs };
    let currentParams: JsonParams | undefined = params;
    let renewed = false;
    let elicitedUrls = false;
    let relisted = false;
    for (let attempt = 1; ; attempt++) {
      // A request that starts while a renewal is in flight waits for the new session instead of racing it.
      if (this.renewing) session = await this.renewing;
      const context: AttemptContext = { method, attempt, session, identity: peer.identity(), extensionResultTypes: peer.extensionResultTypes() };
      const outcome = await this.attempt(method, peer.era.shapeParams(currentParams, context), requestOptions);
      const verdict = peer.era.interpret(outcome, context);
      if (verdict.kind !== 'complete' && verdict.kind !== 'fail' && verdict.kind !== 'extension-result' && attempt >= MAX_ATTEMPTS) {
        throw new LocalError('protocol-violation', `${peer.serverName}: ${method} did not complete after ${attempt} attempts; giving up`);
      }
      switch (verdict.kind) {
        case 'complete':
          peer.era.completed?.(method, params, verdict.result);
          return verdict.result as ClientRequestResult<M>;
        case 'extension-result':
          return (await peer.resolveExtensionResult(verdict.resultType, verdict.result, method, params, options.signal)) as ClientRequestResult<M>;
        case 'fail':
          throw verdict.error;
        case 'retry':
          peer.logger.debug(`${peer.serverName}: sending ${method} again: ${verdict.reason}`);
          continue;
        case 'renew-session':
          // A request that fails again after a renewal is not renewed in a loop.
          if (renewed) throw outcomeError(outcome, `${peer.serverName}: ${method} failed again after a new session: ${verdict.reason}`);
          renewed = true;
          session = await this.renewSession(session, verdict.reason);
          continue;
        case 'relist-and-retry':
          if (relisted) throw verdict.error;
          relisted = true;
          peer.logger.info(`${peer.serverName}: ${verdict.reason}`);
          await peer.relist(verdict.list, options.signal);
          continue;
        case 'url-elicitation-required':
          if (elicitedUrls || !(await peer.completeUrlElicitations(verdict.elicitations, options.signal))) throw verdict.error;
          elicitedUrls = true;
          continue;
        case 'input-required':
          currentParams = verdict.continueWith(currentParams, await peer.answerInputRequests(verdict.inputRequests, options.signal));
          continue;
      }
    }
  }

  private attempt(method: ClientRequestMethod, params: JsonParams | undefined, options: RequestOptions): Promise<AttemptOutcome> {
    // Not an async function: module-level callbacks, no closure and no extra promise per request.
    return this.peer.rpc.request<JsonObject>(method, params, options).then(resultOutcome, errorOutcome);
  }

  /**
   * Single-flight renewal: every request that saw `expired` end shares one renewal, and a request that saw
   * the expiry of a session already replaced simply uses the new one.
   */
  private renewSession(expired: ServerSession, reason: string): Promise<ServerSession> {
    if (this.renewing) return this.renewing;
    const current = this.peer.currentSession();
    if (current && current !== expired) return Promise.resolve(current);
    const wire = this.peer;
    this.renewing = wire.era
      .renew(eraWireOf(wire), wire.identity(), reason)
      .then((session) => {
        wire.sessionRenewed(session);
        return session;
      })
      .finally(() => (this.renewing = undefined));
    return this.renewing;
  }
}

/** The connection as an era sees it for opening and renewing a session: requests go out exactly as given. */
export function eraWireOf(peer: Pick<RequestLoopPeer, 'serverName' | 'logger' | 'rpc'>): EraWire {
  const rpc = peer.rpc;
  return {
    serverName: peer.serverName,
    logger: peer.logger,
    transport: rpc.transport,
    request: (method, params, requestOptions) => rpc.request(method, params, requestOptions),
    notify: (method, params) => rpc.notify(method, params),
    onServerMessage: (listener) => rpc.onServerMessage(listener),
  };
}

function resultOutcome(result: JsonObject): AttemptOutcome {
  return { kind: 'result', result };
}

function errorOutcome(error: unknown): AttemptOutcome {
  return { kind: 'error', error: error instanceof Error ? error : new Error(String(error)) };
}

/** The error behind an outcome, or a new one saying what happened when the outcome was a result. */
function outcomeError(outcome: AttemptOutcome, otherwise: string): Error {
  return outcome.kind === 'error' ? outcome.error : new LocalError('session-expired', otherwise);
}
