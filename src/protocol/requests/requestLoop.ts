import { LocalError } from '../errors';
import type {
  AttemptContext,
  AttemptOutcome,
  AttemptVerdict,
  ClientIdentity,
  EraWire,
  InputRequest,
  InputResponses,
  ProtocolEra,
  RequiredUrlElicitation,
  ServerSession,
} from '../eras/era';
import type { ResponseReader } from '../jsonrpc/outgoingRequest';
import type { Logger, ProgressUpdate, RequestOptions, RpcConnection } from '../jsonrpc/rpcConnection';
import type { ClientRequestMethod, ClientRequestParams, ClientRequestResult, JsonParams, ListMethod } from '../methods';
import type { JsonObject } from '../types';

/** Attempts of one request across era retries and input rounds; a server that never completes is cut off. */
const MAX_ATTEMPTS = 16;

/**
 * A check every result of one kind of request gets before its caller sees it (callTool's result check): made once by
 * the caller and handed to every request, so a call costs no closure of its own for it. Given the request's params.
 */
export type ResultCheck<R> = (result: JsonObject, params: JsonParams | undefined) => R;

const NO_OPTIONS: LoopCallOptions = Object.freeze({});

interface LoopCallOptions {
  signal?: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
  timeoutMs?: number;
  /** Fetch again even when a cached result is still fresh (a manual refresh). */
  refresh?: boolean;
  maxTotalTimeoutMs?: number;
  onRequestId?: (id: string | number) => void;
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
  answerInputRequests(
    inputRequests: Readonly<Record<string, InputRequest>>,
    signal: AbortSignal | undefined,
  ): Promise<InputResponses>;
  completeUrlElicitations(
    elicitations: readonly RequiredUrlElicitation[],
    signal: AbortSignal | undefined,
  ): Promise<boolean>;
  relist(method: ListMethod, signal: AbortSignal | undefined): Promise<void>;
  resolveExtensionResult(
    resultType: string,
    result: JsonObject,
    method: ClientRequestMethod,
    params: JsonParams | undefined,
    signal: AbortSignal | undefined,
  ): Promise<JsonObject>;
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

  constructor(readonly peer: RequestLoopPeer) {}

  /**
   * Not an async function, and the first attempt costs the connection's promise alone: the era reads the outcome
   * (and `check` the result) in the turn the connection settles the request (FirstAttempt is its ResponseReader), so
   * a request the era completes at once (nearly every request) chains no `then`, closure or async frame of any layer.
   * Anything else the era asks for (renew, retry, input rounds) continues in `continueAfter`, a turn later as before.
   * With `check`, every result the request ends with, however it came, is checked by it, and its answer is the result.
   */
  request<M extends ClientRequestMethod, R = ClientRequestResult<M>>(
    method: M,
    params: ClientRequestParams<M>,
    options: LoopCallOptions = NO_OPTIONS,
    check?: ResultCheck<R>,
  ): Promise<R> {
    const peer = this.peer;
    try {
      const session = peer.session(); // throws when not connected
      const preflight = peer.era.preflight(method, params, options.refresh === true);
      // The declared shape of the method's result; callers check the fields they rely on.
      if (preflight.kind === 'answered')
        return Promise.resolve(check ? check(preflight.result, params) : (preflight.result as R));
      // A request that starts while a renewal is in flight waits for the new session instead of racing it.
      if (this.renewing)
        return checked(this.continueAfter(new LoopCall(method, params, options, session), 0), check, params);
      const context = new FirstAttempt(this, method, params, options, session, check);
      const shaped = peer.era.shapeParams(params, context);
      context.shaped();
      // The caller's options are what the connection reads (`refresh` it ignores); no copy per request.
      return peer.rpc.request<R>(method, shaped, options, context);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * The first attempt's outcome, read in the turn the connection settled it (FirstAttempt): a result or a failure at
   * once; the request's LoopCall is made only if the era asks for more than one attempt.
   */
  firstOutcome(context: FirstAttempt, outcome: AttemptOutcome): unknown {
    const era = this.peer.era;
    const verdict = era.interpret(outcome, context);
    const check = context.check;
    if (verdict.kind === 'complete') {
      era.completed?.(context.method, context.params, verdict.result);
      return check ? check(verdict.result, context.params) : verdict.result;
    }
    if (verdict.kind === 'fail') throw verdict.error;
    const call = new LoopCall(context.method, context.params, context.options, context.session);
    // A turn later, as when this ran in a `then`: a retry is never sent from inside the connection's settling.
    const rest = Promise.resolve(call).then((later) => this.continueAfter(later, 1, { outcome, verdict }));
    return checked(rest, check, context.params);
  }

  /** The rest of a request after attempt `attempt` (0: none yet) ended with `last`, bounded by MAX_ATTEMPTS. */
  private async continueAfter(
    call: LoopCall,
    attempt: number,
    last?: { outcome: AttemptOutcome; verdict: AttemptVerdict },
  ): Promise<JsonObject> {
    const peer = this.peer;
    const { method, params, options } = call;
    for (;;) {
      if (!last) {
        attempt++;
        if (this.renewing) call.session = await this.renewing;
        const context = new Attempt(peer, call, attempt);
        const outcome = await this.attempt(
          method,
          peer.era.shapeParams(call.currentParams, context),
          call.requestOptions,
        );
        last = { outcome, verdict: peer.era.interpret(outcome, context) };
      }
      const { outcome, verdict } = last;
      last = undefined;
      if (
        verdict.kind !== 'complete' &&
        verdict.kind !== 'fail' &&
        verdict.kind !== 'extension-result' &&
        attempt >= MAX_ATTEMPTS
      ) {
        throw new LocalError(
          'protocol-violation',
          `${peer.serverName}: ${method} did not complete after ${attempt} attempts; giving up`,
        );
      }
      switch (verdict.kind) {
        case 'complete':
          peer.era.completed?.(method, params, verdict.result);
          return verdict.result;
        case 'extension-result':
          return peer.resolveExtensionResult(verdict.resultType, verdict.result, method, params, options.signal);
        case 'fail':
          throw verdict.error;
        case 'retry':
          peer.logger.debug(`${peer.serverName}: sending ${method} again: ${verdict.reason}`);
          continue;
        case 'renew-session':
          // A request that fails again after a renewal is not renewed in a loop.
          if (call.renewed)
            throw outcomeError(
              outcome,
              `${peer.serverName}: ${method} failed again after a new session: ${verdict.reason}`,
            );
          call.renewed = true;
          call.session = await this.renewSession(call.session, verdict.reason);
          continue;
        case 'relist-and-retry':
          if (call.relisted) throw verdict.error;
          call.relisted = true;
          peer.logger.info(`${peer.serverName}: ${verdict.reason}`);
          await peer.relist(verdict.list, options.signal);
          continue;
        case 'url-elicitation-required':
          if (call.elicitedUrls || !(await peer.completeUrlElicitations(verdict.elicitations, options.signal)))
            throw verdict.error;
          call.elicitedUrls = true;
          continue;
        case 'input-required':
          call.currentParams = verdict.continueWith(
            call.currentParams,
            await peer.answerInputRequests(verdict.inputRequests, options.signal),
          );
          continue;
        default: {
          const exhaustive: never = verdict;
          throw new Error(`unhandled verdict ${JSON.stringify(exhaustive)}`);
        }
      }
    }
  }

  private attempt(
    method: ClientRequestMethod,
    params: JsonParams | undefined,
    options: RequestOptions,
  ): Promise<AttemptOutcome> {
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

/** One request's state across its attempts. */
class LoopCall {
  readonly requestOptions: RequestOptions;
  currentParams: JsonParams | undefined;
  renewed = false;
  elicitedUrls = false;
  relisted = false;

  constructor(
    readonly method: ClientRequestMethod,
    readonly params: JsonParams | undefined,
    readonly options: LoopCallOptions,
    public session: ServerSession,
  ) {
    this.currentParams = params;
    // The caller's options are what the connection reads (`refresh` it ignores); no copy per request.
    this.requestOptions = options;
  }
}

/**
 * One attempt as the era sees it. The identity is built only when the era reads it: the handshake era never does,
 * and building it (the host's capabilities) per request was a share of every call's cost.
 */
class Attempt implements AttemptContext {
  private identityValue: ClientIdentity | undefined;
  readonly method: ClientRequestMethod;
  readonly session: ServerSession;
  readonly extensionResultTypes: ReadonlySet<string>;

  constructor(
    private readonly peer: RequestLoopPeer,
    call: LoopCall,
    readonly attempt: number,
  ) {
    this.method = call.method;
    this.session = call.session;
    this.extensionResultTypes = peer.extensionResultTypes();
  }

  get identity(): ClientIdentity {
    this.identityValue ??= this.peer.identity();
    return this.identityValue;
  }
}

/**
 * The first attempt of a request, which also carries what a LoopCall would, and reads the connection's outcome for
 * it (ResponseReader): nearly every request completes in one attempt, and what was kept per request in flight (a
 * LoopCall, a derived promise and reaction with their closures per layer) was most of a burst's garbage. What is the
 * same for every request (the attempt number, the extensions' result types) is a getter, not a field of each.
 */
class FirstAttempt implements AttemptContext, ResponseReader {
  private identityValue: ClientIdentity | undefined;

  constructor(
    private readonly loop: RequestLoop,
    readonly method: ClientRequestMethod,
    readonly params: JsonParams | undefined,
    readonly options: LoopCallOptions,
    readonly session: ServerSession,
    readonly check: ResultCheck<unknown> | undefined,
  ) {}

  get attempt(): number {
    return 1;
  }

  get extensionResultTypes(): ReadonlySet<string> {
    return this.loop.peer.extensionResultTypes();
  }

  get identity(): ClientIdentity {
    this.identityValue ??= this.loop.peer.identity();
    return this.identityValue;
  }

  /**
   * The request's params are shaped: the identity they were shaped with (the 2026-07-28 era reads it for every
   * request) is not kept while the call is in flight; an era that reads it again gets it built again.
   */
  shaped(): void {
    this.identityValue = undefined;
  }

  onResult(result: JsonObject): unknown {
    return this.loop.firstOutcome(this, { kind: 'result', result });
  }

  onError(error: Error): unknown {
    return this.loop.firstOutcome(this, errorOutcome(error));
  }
}

/** `result` as `check` reads it (the rest of a request that took more than one attempt). */
function checked<R>(
  result: Promise<JsonObject>,
  check: ResultCheck<R> | undefined,
  params: JsonParams | undefined,
): Promise<R> {
  return check ? result.then((value) => check(value, params)) : (result as Promise<R>);
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
