import {
  ProtocolError,
  createRequestStateCodec,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ProgressUpdate } from '../../protocol/jsonrpc/rpcConnection';
import type { JsonObject } from '../../protocol/types';

/** The JSON-RPC code of a refused `requestState` (the SDK's own seam answers a failed verify with it too). */
const INVALID_PARAMS = -32602;
/** A requestState the gateway minted is about 200 characters; anything far longer is refused before the HMAC. */
const MAX_STATE_CHARS = 2048;
/** The methods whose result may be `input_required` (2026-07-28 `HandlerResultTypeMap`). */
export const ROUND_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

interface Asked {
  method: string;
  params: JsonObject;
  sent: boolean;
  resolve(response: JsonObject): void;
  reject(error: Error): void;
}

type Outcome = { ok: true; value: JsonObject } | { ok: false; error: unknown };

/** What an agent's round sees next: the upstream call's end, or the server's questions to put to the agent. */
type Next = { kind: 'done'; outcome: Outcome } | { kind: 'input'; requests: Record<string, JsonObject> };

/**
 * One upstream call of a 2026-07-28 agent that outlives the agent's request: the server's sampling, elicitation and
 * roots requests made during it wait here until the agent's next round brings their answers.
 */
export class RelayedCall {
  readonly id = globalThis.crypto.randomUUID();
  private readonly controller = new AbortController();
  private readonly asked = new Map<string, Asked>();
  private outcome?: Outcome;
  private wake?: () => void;
  private counter = 0;
  private expiry?: ReturnType<typeof setTimeout>;
  /** The round the agent was last sent: only that round's state continues the call (an earlier one is spent). */
  round = 0;
  /** A round of the agent is waiting on this call (a second retry with the same state is refused meanwhile). */
  waiting = false;
  /** Where the upstream's progress goes: the agent's current round, when it asked for progress. */
  progress?: (update: ProgressUpdate) => void;

  /** The signal the upstream request runs under: aborted when the agent cancels or the call expires. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A server request to put to the agent; settles with the agent's answer in its next round. */
  ask(method: string, params: JsonObject, signal: AbortSignal | undefined): Promise<JsonObject> {
    return new Promise<JsonObject>((resolve, reject) => {
      if (this.signal.aborted) return reject(new Error('the agent ended the call'));
      const key = `gw-${++this.counter}`;
      const abort = () => {
        if (this.asked.delete(key)) reject(new Error('the request was cancelled'));
      };
      const done = () => {
        signal?.removeEventListener('abort', abort);
        this.signal.removeEventListener('abort', abort);
      };
      this.asked.set(key, {
        method,
        params,
        sent: false,
        resolve: (response) => (done(), resolve(response)),
        reject: (error) => (done(), reject(error)),
      });
      signal?.addEventListener('abort', abort, { once: true });
      this.signal.addEventListener('abort', abort, { once: true });
      this.wake?.();
    });
  }

  settle(outcome: Outcome): void {
    this.outcome = outcome;
    this.wake?.();
  }

  /**
   * The agent's answers to the questions of its last round. The values come from the agent and are untrusted: an
   * answer must be an object; a question it left out fails, so the server is not left waiting.
   */
  answer(responses: Record<string, unknown> | undefined): void {
    for (const [key, asked] of this.asked) {
      if (!asked.sent) continue;
      this.asked.delete(key);
      const response = responses?.[key];
      if (typeof response === 'object' && response !== null && !Array.isArray(response))
        asked.resolve(response as JsonObject);
      else asked.reject(new Error(`the agent did not answer the ${asked.method} request`));
    }
  }

  /** Waits for the call's end or for questions; `signal` is the agent's round, whose abort cancels the call. */
  async next(signal: AbortSignal): Promise<Next> {
    const cancelled = () => this.cancel();
    signal.addEventListener('abort', cancelled, { once: true });
    this.waiting = true;
    try {
      for (;;) {
        if (signal.aborted) throw new Error('the agent cancelled the call');
        if (this.outcome) return { kind: 'done', outcome: this.outcome };
        if ([...this.asked.values()].some((asked) => !asked.sent)) {
          // A server may ask several things at once (one input round): they reach the agent in one round.
          await new Promise((resolve) => setTimeout(resolve, 0));
          const requests: Record<string, JsonObject> = {};
          for (const [key, asked] of this.asked)
            if (!asked.sent) {
              asked.sent = true;
              requests[key] = { method: asked.method, params: asked.params };
            }
          if (Object.keys(requests).length > 0) return { kind: 'input', requests };
          continue;
        }
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          signal.addEventListener('abort', () => resolve(), { once: true });
        });
        this.wake = undefined;
      }
    } finally {
      this.waiting = false;
      signal.removeEventListener('abort', cancelled);
    }
  }

  /** Ends the call: the upstream request is cancelled and every question still open fails. */
  cancel(): void {
    clearTimeout(this.expiry);
    this.controller.abort();
    for (const [key, asked] of this.asked) {
      this.asked.delete(key);
      asked.reject(new Error('the agent ended the call'));
    }
  }

  /** The agent has `ms` to come back with its answers; past that the call ends. */
  expireIn(ms: number, onExpired: () => void): void {
    clearTimeout(this.expiry);
    this.expiry = setTimeout(() => {
      this.cancel();
      onExpired();
    }, ms);
    (this.expiry as { unref?: () => void }).unref?.();
  }

  holdOn(): void {
    clearTimeout(this.expiry);
  }
}

/** What the gateway seals into a requestState: which call, and which of its rounds. */
interface SealedState {
  call?: unknown;
  round?: unknown;
}

export interface InputRoundsOptions {
  /** How long an agent has to answer a round (and a requestState stays valid). */
  ttlMs: number;
  /** Relayed calls open at once across every agent; past that a new one is refused as busy. */
  maxCalls: number;
  /** Who a round belongs to (the agent and the method): a requestState minted for one is refused for another. */
  bind(ctx: ServerContext): string;
}

/**
 * The input-required rounds of 2026-07-28 agents (basic/patterns/mrtr). The agent has no server→client channel, so
 * when the server asks for sampling, elicitation or roots during its call, the gateway answers the agent's request
 * with `resultType: "input_required"`, the questions and a `requestState`, keeps the upstream call running, and
 * continues it when the agent retries with `inputResponses`. The state is the gateway's own: an HMAC-SHA256 seal
 * (the SDK's codec, a random 256-bit key per gateway) over the call's id, bound to the agent and method, expiring
 * with the round; the agent can read it but not forge, replay elsewhere, or extend it.
 */
export class InputRounds {
  private readonly calls = new Map<string, RelayedCall>();
  private readonly codec: RequestStateCodec<SealedState>;

  constructor(private readonly options: InputRoundsOptions) {
    this.codec = createRequestStateCodec({
      key: globalThis.crypto.getRandomValues(new Uint8Array(32)),
      ttlSeconds: Math.max(1, Math.ceil(options.ttlMs / 1000)),
      bind: options.bind,
    });
  }

  /** The SDK servers' `requestState.verify` hook: the seam refuses a bad state with -32602 before any handler. */
  readonly verify = async (state: string, ctx: ServerContext): Promise<SealedState> => {
    if (state.length > MAX_STATE_CHARS) throw new Error('oversized');
    return this.codec.verify(state, ctx);
  };

  /** Relayed calls open now. */
  get size(): number {
    return this.calls.size;
  }

  /**
   * Serves one round: a retry (a verified requestState) answers the call's questions and waits for what comes
   * next; a first request starts the upstream call with `start`. The answer is the call's result or the next round.
   */
  async serve(
    ctx: ServerContext,
    start: (call: RelayedCall) => Promise<JsonObject>,
    progress: ((update: ProgressUpdate) => void) | undefined,
  ): Promise<JsonObject> {
    const state = ctx.mcpReq.requestState<SealedState | string>();
    let call: RelayedCall;
    if (state !== undefined) {
      const sealed = typeof state === 'object' && state !== null ? state : {};
      const found = typeof sealed.call === 'string' ? this.calls.get(sealed.call) : undefined;
      if (!found || found.waiting || sealed.round !== found.round)
        throw new ProtocolError(INVALID_PARAMS, 'Invalid or expired requestState');
      call = found;
      call.holdOn();
      call.answer(ctx.mcpReq.inputResponses);
    } else {
      if (this.calls.size >= this.options.maxCalls)
        throw Object.assign(new Error('the gateway is busy: too many calls wait for agents to answer; retry later'), {
          code: -32000,
        });
      call = new RelayedCall();
      this.calls.set(call.id, call);
      const running = call;
      start(call).then(
        (value) => running.settle({ ok: true, value }),
        (error: unknown) => running.settle({ ok: false, error }),
      );
    }
    call.progress = progress;
    let next: Next;
    try {
      next = await call.next(ctx.mcpReq.signal);
    } catch (error) {
      this.forget(call);
      throw error;
    }
    if (next.kind === 'done') {
      this.forget(call);
      if (next.outcome.ok) return next.outcome.value;
      throw next.outcome.error;
    }
    call.progress = undefined;
    call.round++;
    call.expireIn(this.options.ttlMs, () => this.calls.delete(call.id));
    return {
      resultType: 'input_required',
      inputRequests: next.requests,
      requestState: await this.codec.mint({ call: call.id, round: call.round }, ctx),
    };
  }

  private forget(call: RelayedCall): void {
    call.cancel();
    this.calls.delete(call.id);
  }

  /** Ends every relayed call (the gateway closes). */
  close(): void {
    for (const call of this.calls.values()) call.cancel();
    this.calls.clear();
  }
}
