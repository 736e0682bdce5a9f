import type { Disposable } from '../disposable';
import { DeadlineTimer, type DeadlineTarget } from './deadlines';
import type { RequestId } from './messages';
import type { PersonWaits } from './personWaits';
import type { RequestOptions } from './rpcConnection';

/**
 * Reads a request's outcome in the turn it settles, for a caller that would otherwise chain a `.then` onto the
 * request's promise: what it returns (a value, or a promise for the rare outcome that needs more work) is what the
 * promise resolves with, and what it throws, the promise rejects with. The request loop's first attempt is one, so a
 * call costs the connection's promise alone instead of that promise and one derived promise, reaction and closures
 * per layer (held for as long as the call is in flight).
 */
export interface ResponseReader {
  onResult(result: Record<string, unknown>): unknown;
  onError(error: Error): unknown;
}

/** What an OutgoingRequest needs from its connection: one object per connection, shared by all its requests. */
export interface RequestOwner {
  expire(request: OutgoingRequest): void;
  abort(request: OutgoingRequest): void;
}

/**
 * One request in flight. A class rather than a bundle of closures: a burst of thousands in flight costs one object
 * each besides its promise (the per-request closures were most of the client's garbage with 10,000 concurrent calls).
 * It is its own deadline target and its own abort listener (`handleEvent`), and holds its promise's settlers.
 */
export class OutgoingRequest implements DeadlineTarget {
  settled = false;
  /** The timer's own state (DeadlineTarget): when the armed deadline fires, and whether one is armed. */
  deadlineAt = 0;
  deadlineArmed = false;
  resolve: (result: Record<string, unknown>) => void = noop;
  reject: (error: Error) => void = noop;
  readonly startedAt = Date.now();
  /** When the armed deadline is due, before any person's time is added. */
  dueAt = 0;
  /** PersonWaits.pausedMs() when the deadline was armed, and when the request started (undefined: not yet armed). */
  pausedAtArm = 0;
  pausedAtStart: number | undefined;

  constructor(
    private readonly owner: RequestOwner,
    readonly id: RequestId,
    readonly method: string,
    readonly options: RequestOptions,
    readonly progressToken: string | undefined,
    readonly timeoutMs: number,
    readonly maxTotalMs: number,
    private readonly reader: ResponseReader | undefined,
  ) {}

  get cancellable(): boolean {
    return this.options.cancellable ?? true;
  }

  /** Settles the promise with the server's result, as the reader reads it. */
  succeed(result: Record<string, unknown>): void {
    const reader = this.reader;
    if (reader === undefined) this.resolve(result);
    else settleWith(this, reader, result, true);
  }

  /** Settles the promise with a failure, as the reader reads it. */
  fail(error: Error): void {
    const reader = this.reader;
    if (reader === undefined) this.reject(error);
    else settleWith(this, reader, error, false);
  }

  onDeadline(): void {
    this.owner.expire(this);
  }

  handleEvent(): void {
    this.owner.abort(this);
  }
}

function noop(): void {}

/** The request whose promise is being made: `new Promise` runs its executor at once, so one serves every request. */
let settlersFor: OutgoingRequest | undefined;

function takeSettlers(resolve: (result: never) => void, reject: (error: Error) => void): void {
  const request = settlersFor as OutgoingRequest;
  settlersFor = undefined;
  request.resolve = resolve as (result: Record<string, unknown>) => void;
  request.reject = reject;
}

/** The promise `request` settles: its settlers are the request's own, with no executor closure per request. */
export function promiseFor<T>(request: OutgoingRequest): Promise<T> {
  settlersFor = request;
  return new Promise<T>(takeSettlers);
}

/** A request refused before it was sent, read as its reader reads a failure. */
export function readNow<T>(reader: ResponseReader, error: Error): Promise<T> {
  try {
    return Promise.resolve(reader.onError(error) as T);
  } catch (thrown) {
    return Promise.reject(thrown as Error);
  }
}

/**
 * Fails a request when the transport rejects the promise its message's send() returned. A transport waiting for its
 * pipe to drain hands every message of a burst the same promise (over stdio, all but the first few hundred of a burst
 * of 10,000): the requests behind one promise share one handler, instead of a handler, closure and derived promise each.
 */
export class SendWatch {
  private current: { readonly sent: Promise<void>; readonly requests: OutgoingRequest[] } | undefined;

  constructor(private readonly failed: (request: OutgoingRequest, error: unknown) => void) {}

  watch(sent: Promise<void>, request: OutgoingRequest): void {
    const current = this.current;
    if (current !== undefined && current.sent === sent) {
      current.requests.push(request);
      return;
    }
    const watched = { sent, requests: [request] };
    this.current = watched;
    sent.then(
      () => this.forget(watched),
      (error: unknown) => {
        this.forget(watched);
        for (const waiting of watched.requests) this.failed(waiting, error);
      },
    );
  }

  private forget(watched: SendWatch['current']): void {
    if (this.current === watched) this.current = undefined;
  }
}

/** Kept out of succeed/fail so that their common case (no reader) stays small enough to inline. */
function settleWith(request: OutgoingRequest, reader: ResponseReader, outcome: unknown, isResult: boolean): void {
  let value: unknown;
  try {
    value = isResult ? reader.onResult(outcome as Record<string, unknown>) : reader.onError(outcome as Error);
  } catch (error) {
    request.reject(error as Error);
    return;
  }
  request.resolve(value as Record<string, unknown>);
}

/**
 * The deadlines of one connection's requests, at a person's pace: while a PersonWaits wait is open (a person reviews
 * a sampling request, fills an elicitation form, signs in) a deadline that passes waits for the person (parked), and
 * after they acted each deadline is pushed back by the time they took. Deadlines measure the server, not the person.
 */
export class RequestDeadlines implements Disposable {
  private readonly timer = new DeadlineTimer();
  /** Requests whose deadline passed while a person was acting. */
  private readonly parked = new Set<OutgoingRequest>();
  private readonly subscription: Disposable | undefined;

  constructor(
    private readonly personWaits: PersonWaits | undefined,
    private readonly expire: (request: OutgoingRequest) => void,
  ) {
    this.subscription = personWaits?.onDidChange((waiting) => {
      if (!waiting) this.resumeParked();
    });
  }

  get size(): number {
    return this.timer.size + this.parked.size;
  }

  /** (Re)arms the idle deadline, within what is left of the hard limit. */
  arm(request: OutgoingRequest): void {
    if (this.parked.size > 0) this.parked.delete(request);
    const now = Date.now();
    const paused = this.personWaits?.pausedMs(now) ?? 0;
    request.pausedAtStart ??= paused;
    // The hard limit counts the server's time too, never the person's.
    const remainingTotal = request.maxTotalMs - (now - request.startedAt - (paused - request.pausedAtStart));
    const delay = Math.max(0, Math.min(request.timeoutMs, remainingTotal));
    request.dueAt = now + delay;
    request.pausedAtArm = paused;
    this.timer.schedule(delay, request, now);
  }

  cancel(request: OutgoingRequest): void {
    this.timer.cancel(request);
    if (this.parked.size > 0) this.parked.delete(request);
  }

  /**
   * A deadline passed: while a person is acting it waits for them; after they acted it is pushed back by the time
   * they took. Returns false when the request really is overdue.
   */
  postponedForPerson(request: OutgoingRequest): boolean {
    const waits = this.personWaits;
    if (!waits || request.settled) return false;
    if (waits.waiting) {
      this.parked.add(request);
      return true;
    }
    const now = Date.now();
    const paused = waits.pausedMs(now);
    const due = request.dueAt + (paused - request.pausedAtArm);
    if (due <= now) return false;
    request.dueAt = due;
    request.pausedAtArm = paused;
    this.timer.schedule(due - now, request, now);
    return true;
  }

  dispose(): void {
    this.timer.dispose();
    this.parked.clear();
    this.subscription?.dispose();
  }

  private resumeParked(): void {
    for (const request of [...this.parked]) {
      this.parked.delete(request);
      if (!this.postponedForPerson(request)) this.expire(request);
    }
  }
}
