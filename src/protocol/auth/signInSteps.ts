/**
 * The steps of a server's sign-ins, for a person who asks why they must sign in again: each HTTP exchange of the
 * OAuth flow (metadata discovery, registration, the token and refresh requests) with its request and answer, the
 * authorization URL the person is sent to and what came back, where a flow stopped with its error, and the tokens'
 * life after (when the access token expires, whether it can be refreshed).
 *
 * Host-neutral: the authorizer reports to a `SignInObserver` (optional, see OAuthAuthorizerOptions.steps), and
 * `SignInRecorder` keeps the last steps and flows within fixed bounds. Nothing it keeps holds a secret: codes,
 * verifiers, states, tokens, client secrets and assertions are masked as each step is recorded, by name (form
 * fields, JSON keys, query parameters) and by value (every secret seen so far in an answer is masked wherever it
 * appears later).
 */
import { Emitter, type Disposable } from '../disposable';
import { readBodyPrefix } from '../transports/bodyPrefix';
import type { AuthorizationUserAgent, PendingAuthorization, StoredTokens } from './types';

export const MASK = '••••';

export type SignInStepKind =
  'resource-metadata' | 'server-metadata' | 'registration' | 'authorization' | 'token' | 'refresh' | 'other';

export type SignInFlowKind = 'sign-in' | 'refresh';

export interface SignInStep {
  /** Increases by one per step of one recorder. */
  seq: number;
  /** The flow (SignInFlow.id) it was part of; 0 when none was running. */
  flow: number;
  kind: SignInStepKind;
  /** Milliseconds since the epoch. */
  time: number;
  durationMs: number;
  request: { method: string; url: string; body?: string };
  answer?: { status: number; body?: string };
  /** Why the step got no answer (the network failed, the person closed the page). */
  error?: string;
}

export interface SignInFlow {
  id: number;
  kind: SignInFlowKind;
  started: number;
  ended?: number;
  outcome: 'running' | 'succeeded' | 'failed';
  /** Where it stopped (the error's message), for a failed flow. */
  error?: string;
}

/** What the person may know of the tokens held (never the tokens). */
export interface TokenLife {
  tokenType: 'bearer' | 'dpop';
  obtainedAt?: number;
  expiresAt?: number;
  refreshable: boolean;
  scopes: string[];
}

/** What an OAuthAuthorizer reports as it works. Every value it hands over is raw: the observer masks. */
export interface SignInObserver {
  flowStarted(kind: SignInFlowKind): void;
  flowEnded(error?: unknown): void;
  exchange(exchange: RawExchange): void;
  /** The tokens now held (undefined: none, signed out or refresh refused). */
  tokens(life: TokenLife | undefined): void;
}

export interface RawExchange {
  kind: SignInStepKind;
  time: number;
  durationMs: number;
  method: string;
  url: string;
  requestBody?: string;
  status?: number;
  answerBody?: string;
  error?: string;
}

interface RecorderBounds {
  maxSteps: number;
  maxFlows: number;
  /** Characters of one request or answer body kept. */
  maxBodyChars: number;
}

const DEFAULT_BOUNDS: RecorderBounds = { maxSteps: 200, maxFlows: 20, maxBodyChars: 4096 };

/** Names (form fields, JSON keys, query parameters) whose value is a credential, whatever its look. */
const SECRET_NAMES = new Set([
  'code',
  'code_verifier',
  'state',
  'assertion',
  'client_assertion',
  'subject_token',
  'actor_token',
  'password',
  'device_code',
]);
// By suffix, so metadata fields about tokens (`token_endpoint`, `token_type`) stay readable.
const SECRET_NAME_PATTERN = /(?:^|_)token$|secret$|password|assertion$/i;
const isSecretName = (name: string) => SECRET_NAMES.has(name.toLowerCase()) || SECRET_NAME_PATTERN.test(name);
/** The most distinct secret values remembered for masking by value. */
const MAX_KNOWN_SECRETS = 64;

/** Keeps the last steps and flows of one server's sign-ins, masked; tells listeners when anything changed. */
export class SignInRecorder implements SignInObserver, Disposable {
  private steps: SignInStep[] = [];
  private flowList: SignInFlow[] = [];
  private current: SignInFlow | undefined;
  private life: TokenLife | undefined;
  private nextSeq = 1;
  private nextFlow = 1;
  private readonly secrets: string[] = [];
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(readonly bounds: RecorderBounds = DEFAULT_BOUNDS) {}

  /** The kept steps, oldest first. */
  allSteps(): readonly SignInStep[] {
    return [...this.steps];
  }

  /** The kept flows, oldest first. */
  flows(): readonly SignInFlow[] {
    return [...this.flowList];
  }

  tokenLife(): TokenLife | undefined {
    return this.life;
  }

  flowStarted(kind: SignInFlowKind): void {
    // A flow still running when another starts (a refresh inside a sign-in's retry) ends with it untold: keep the outer.
    if (this.current) return;
    this.current = { id: this.nextFlow++, kind, started: Date.now(), outcome: 'running' };
    this.flowList.push(this.current);
    if (this.flowList.length > this.bounds.maxFlows)
      this.flowList.splice(0, this.flowList.length - this.bounds.maxFlows);
    this.changed.fire();
  }

  flowEnded(error?: unknown): void {
    const flow = this.current;
    if (!flow) return;
    this.current = undefined;
    flow.ended = Date.now();
    flow.outcome = error === undefined ? 'succeeded' : 'failed';
    if (error !== undefined) flow.error = this.maskText(error instanceof Error ? error.message : String(error));
    this.changed.fire();
  }

  exchange(raw: RawExchange): void {
    // Secrets in the answer are learnt before anything is masked, so the answer's own echo of them is masked too.
    if (raw.answerBody !== undefined) this.learnSecrets(raw.answerBody);
    if (raw.requestBody !== undefined) this.learnSecrets(raw.requestBody);
    const step: SignInStep = {
      seq: this.nextSeq++,
      flow: this.current?.id ?? 0,
      kind: raw.kind,
      time: raw.time,
      durationMs: raw.durationMs,
      request: { method: raw.method, url: this.maskUrl(raw.url) },
    };
    if (raw.requestBody !== undefined) step.request.body = this.maskBody(raw.requestBody);
    if (raw.status !== undefined) {
      step.answer = { status: raw.status };
      if (raw.answerBody !== undefined) step.answer.body = this.maskBody(raw.answerBody);
    }
    if (raw.error !== undefined) step.error = this.maskText(raw.error);
    this.steps.push(step);
    if (this.steps.length > this.bounds.maxSteps) this.steps.splice(0, this.steps.length - this.bounds.maxSteps);
    this.changed.fire();
  }

  tokens(life: TokenLife | undefined): void {
    this.life = life === undefined ? undefined : { ...life, scopes: [...life.scopes] };
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }

  private cut(text: string): string {
    const max = this.bounds.maxBodyChars;
    return text.length > max ? `${text.slice(0, max)}…` : text;
  }

  private maskText(text: string): string {
    let masked = text;
    for (const secret of this.secrets) masked = masked.split(secret).join(MASK);
    return masked;
  }

  private maskUrl(url: string): string {
    try {
      const parsed = new URL(url);
      parsed.username = '';
      parsed.password = '';
      for (const name of [...new Set(parsed.searchParams.keys())])
        if (isSecretName(name)) parsed.searchParams.set(name, MASK);
      return this.maskText(parsed.href);
    } catch {
      return this.maskText(url);
    }
  }

  /** A JSON document with secret-named values masked, a form likewise, any other text masked by known values. */
  private maskBody(body: string): string {
    const trimmed = body.trim();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      try {
        return this.cut(this.maskText(JSON.stringify(maskJson(JSON.parse(trimmed), 0), null, 2)));
      } catch {
        // Not JSON after all: masked as text below.
      }
    } else if (/^[\w.~%-]+=/.test(trimmed)) {
      const parts: string[] = [];
      for (const [name, value] of new URLSearchParams(trimmed))
        parts.push(`${name}=${isSecretName(name) ? MASK : this.maskText(value)}`);
      return this.cut(parts.join('&'));
    }
    return this.cut(this.maskText(body));
  }

  /** Remembers the values of secret-named fields (a token in an answer, a code in a form) to mask them anywhere. */
  private learnSecrets(body: string): void {
    const found: string[] = [];
    const trimmed = body.trim();
    try {
      if (trimmed.startsWith('{')) collectSecrets(JSON.parse(trimmed), found, 0);
      else for (const [name, value] of new URLSearchParams(trimmed)) if (isSecretName(name)) found.push(value);
    } catch {
      return;
    }
    for (const value of found) {
      // Short values ("", "1") would mask ordinary text; a credential is never that short.
      if (value.length < 8 || this.secrets.includes(value)) continue;
      this.secrets.push(value);
      if (this.secrets.length > MAX_KNOWN_SECRETS) this.secrets.shift();
    }
  }
}

/** Depth past which a document's values are not looked into (a hostile document is still bounded by maxBodyChars). */
const MAX_DEPTH = 32;

function maskJson(value: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => maskJson(item, depth + 1));
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    result[key] =
      isSecretName(key) && (typeof item === 'string' || typeof item === 'number') ? MASK : maskJson(item, depth + 1);
  return result;
}

function collectSecrets(value: unknown, found: string[], depth: number): void {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return;
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string' && isSecretName(key)) found.push(item);
    else collectSecrets(item, found, depth + 1);
  }
}

/** What the tokens held say of their life, for SignInObserver.tokens. */
export function tokenLifeOf(tokens: StoredTokens | undefined): TokenLife | undefined {
  if (!tokens) return undefined;
  const life: TokenLife = {
    tokenType: tokens.tokenType,
    refreshable: tokens.refreshToken !== undefined,
    scopes: tokens.scopes,
  };
  if (tokens.obtainedAt !== undefined) life.obtainedAt = tokens.obtainedAt;
  if (tokens.expiresAt !== undefined) life.expiresAt = tokens.expiresAt;
  return life;
}

/** Which step an OAuth HTTP request is, from its URL and form. */
function stepKindOf(method: string, url: string, body: string | undefined): SignInStepKind {
  let path = '';
  try {
    path = new URL(url).pathname;
  } catch {
    return 'other';
  }
  if (path.includes('/.well-known/oauth-protected-resource')) return 'resource-metadata';
  if (path.includes('/.well-known/oauth-authorization-server') || path.includes('/.well-known/openid-configuration'))
    return 'server-metadata';
  if (method !== 'POST' || body === undefined) return 'other';
  if (body.trim().startsWith('{')) return 'registration';
  const grant = new URLSearchParams(body).get('grant_type');
  if (grant === 'refresh_token') return 'refresh';
  return grant ? 'token' : 'other';
}

/** How many characters of an answer's body are read for the record (the flow itself reads the whole, capped). */
const RECORDED_ANSWER_CHARS = 16 * 1024;

/** The flow's fetch, reporting each exchange to the observer with its request form and the start of its answer. */
export function observedOAuthFetch(fetchFn: typeof fetch, observer: SignInObserver): typeof fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const requestBody =
      typeof init?.body === 'string'
        ? init.body
        : init?.body instanceof URLSearchParams
          ? init.body.toString()
          : undefined;
    const kind = stepKindOf(method, url, requestBody);
    const time = Date.now();
    const base = { kind, time, method, url, ...(requestBody !== undefined ? { requestBody } : {}) };
    let response: Response;
    try {
      response = await fetchFn(input, init);
    } catch (error) {
      observer.exchange({
        ...base,
        durationMs: Date.now() - time,
        error: error instanceof Error ? error.message : String(error),
      });
      throw error;
    }
    const answerBody = response.body ? await readBodyPrefix(response.clone(), RECORDED_ANSWER_CHARS) : undefined;
    observer.exchange({ ...base, durationMs: Date.now() - time, status: response.status, answerBody });
    return response;
  };
}

/** The user agent, reporting the authorization URL the person is sent to and the redirect that came back. */
export function observedUserAgent(agent: AuthorizationUserAgent, observer: SignInObserver): AuthorizationUserAgent {
  return {
    prepare: async (): Promise<PendingAuthorization> => {
      const pending = await agent.prepare();
      return {
        redirectUri: pending.redirectUri,
        dispose: () => pending.dispose(),
        complete: async (authorizationUrl, signal, about) => {
          const time = Date.now();
          const base = { kind: 'authorization' as const, time, method: 'GET', url: authorizationUrl.href };
          try {
            const redirect = await pending.complete(authorizationUrl, signal, about);
            // The answer is the redirect back: its query (code, state, iss or error) as a form, masked like one.
            observer.exchange({
              ...base,
              durationMs: Date.now() - time,
              status: 302,
              answerBody: redirect.search.slice(1),
            });
            return redirect;
          } catch (error) {
            observer.exchange({
              ...base,
              durationMs: Date.now() - time,
              error: error instanceof Error ? error.message : String(error),
            });
            throw error;
          }
        },
      };
    },
  };
}
