import * as http from 'node:http';
import * as https from 'node:https';
import type * as net from 'node:net';
import { urlToHttpOptions } from 'node:url';

/**
 * A `fetch` for the HTTP transports built on `node:http` (issue 24): undici's fetch costs several times more CPU per
 * small request than an `http.request` on a keep-alive agent (spec-compliant Request/Response copies, header
 * sorting, body teeing). Where Node runs (the CLI, a desktop extension host) the launcher passes this as the
 * transport's `fetch`; where it does not (a web extension host) the global fetch stays the default.
 *
 * It covers what the transports and createHttpFetch use: string or URL input, method, headers (a plain object or
 * Headers), a string or URLSearchParams body, an AbortSignal, and `redirect: 'manual'` (the 3xx is returned) or `'error'` (a 3xx with a
 * Location rejects with "unexpected redirect", as undici does; authorizedFetch then retries with 'manual'). Anything
 * else (`redirect: 'follow'`, a Request or stream body) is handed to the global fetch. The response body is a
 * ReadableStream with backpressure: the socket is paused while the reader is behind, so a cap that stops reading
 * also stops the socket, and cancelling the body destroys the response (the connection is not reused).
 */

/**
 * Idle connections kept per server. Node's default (256) closed most of them after a burst of concurrent calls and
 * opened them again for the next burst: connecting cost this client a third of its CPU and the server its accepts
 * (bench: 2,000 concurrent calls over Streamable HTTP, 2.2 s → 1.95 s). A connection idle for longer than
 * IDLE_LIMIT_MS, or than the server announces, is closed by this side (see idleLimited). The number of
 * connections in use stays unlimited: a call's response stream holds its connection until the call ends, and a cap
 * would leave a reply to the server's request (sampling, elicitation) waiting behind calls that wait for that reply.
 */
const IDLE_CONNECTIONS_KEPT = 4096;

/**
 * How long a connection may stay idle in the pool: 4 s, undici's default keepAliveTimeout, below the 5 s that a Node
 * server waits by default (its keepAliveTimeout) before it closes an idle connection. Node's agent alone keeps an
 * idle connection until the server closes it: it follows the server's `Keep-Alive: timeout=N` only when that is
 * shorter than the agent's `timeout` option, which is not set (it would also time the connections in use, such as a
 * quiet SSE stream). A request sent on a connection as the server closes it fails with ECONNRESET (CI saw it with 39
 * conformance clients starting at once on two cores); closing idle connections first avoids that race, and the retry
 * in `request` covers what is left of it.
 */
const IDLE_LIMIT_MS = 4_000;

/** How much sooner than the server's announced keep-alive timeout this side closes an idle connection: 1 s, as Node's agent does. */
const CLOSE_BEFORE_SERVER_MS = 1_000;

/**
 * How long a connection may stay idle after a response whose `Keep-Alive` header is `keepAlive`: the server's
 * `timeout=N` less CLOSE_BEFORE_SERVER_MS, at most IDLE_LIMIT_MS (a longer hint saves only a reconnection after
 * seconds of quiet, and it may come from a server behind a proxy that closes sooner). 0: the connection is not kept.
 */
function idleLimitMs(keepAlive: string | undefined): number {
  const announced = keepAlive === undefined ? undefined : /(?:^|[,;])\s*timeout=(\d+)/i.exec(keepAlive)?.[1];
  if (announced === undefined) return IDLE_LIMIT_MS;
  return Math.max(0, Math.min(IDLE_LIMIT_MS, Number(announced) * 1000 - CLOSE_BEFORE_SERVER_MS));
}

/** The response that ended on a connection being freed; `_httpMessage` is the request, as Node's own keepSocketAlive reads it. */
function lastResponse(socket: net.Socket): http.IncomingMessage | undefined {
  return (socket as net.Socket & { _httpMessage?: { res?: http.IncomingMessage } | null })._httpMessage?.res;
}

/**
 * Arms the idle timer of a connection going back to the pool; false: close it instead. When the timer runs out,
 * Node's agent destroys the connection (its `timeout` listener destroys a socket it finds in the free list).
 */
function keepIdle(socket: net.Socket): boolean {
  // Node joins repeated headers other than a few (set-cookie) into one string.
  const limit = idleLimitMs(lastResponse(socket)?.headers['keep-alive'] as string | undefined);
  if (limit === 0) return false;
  socket.setTimeout(limit);
  return true;
}

/**
 * Stops the idle timer of a pooled connection given to a new request: Node's reuseSocket and setRequestSocket leave
 * it running, and a response that stays quiet longer (an SSE stream waiting for events) would see it fire. Node 20
 * only destroys a timed-out socket that is in the free list, but the socket and response still emit 'timeout'.
 */
function stopIdleTimer(socket: net.Socket): void {
  socket.setTimeout(0);
}

/**
 * Node's agent (http's, or https's, which extends it) with the idle limit above. The parent's keepSocketAlive still
 * turns on TCP keep-alive and unrefs the socket; its own refusal (a hint of 1 s or less) is one that keepIdle makes too.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- TypeScript's mixin form: a constructor of `any[]`.
function idleLimited<Agent extends new (...args: any[]) => http.Agent>(Base: Agent) {
  return class IdleLimitedAgent extends Base {
    override keepSocketAlive(socket: net.Socket): boolean {
      super.keepSocketAlive(socket);
      return keepIdle(socket);
    }

    override reuseSocket(socket: net.Socket, request: http.ClientRequest): void {
      super.reuseSocket(socket, request);
      stopIdleTimer(socket);
    }
  };
}

const agents = {
  'http:': new (idleLimited(http.Agent))({ keepAlive: true, maxFreeSockets: IDLE_CONNECTIONS_KEPT }),
  'https:': new (idleLimited(https.Agent))({ keepAlive: true, maxFreeSockets: IDLE_CONNECTIONS_KEPT }),
} as const;

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

type FetchInput = Parameters<typeof fetch>[0];

/**
 * The last string URL asked for, parsed, with the request options Node derives from it: a transport posts every
 * message to the same URL, and `new URL` plus `http.request`'s own conversion of it were a share of each call's CPU.
 */
let lastTarget: { input: string; url: URL; options: http.RequestOptions } | undefined;

function targetOf(input: string): { url: URL; options: http.RequestOptions } {
  if (lastTarget?.input !== input) {
    const url = new URL(input);
    lastTarget = { input, url, options: urlToHttpOptions(url) };
  }
  return lastTarget;
}

export const nodeHttpFetch: typeof fetch = (input: FetchInput, init: RequestInit = {}): Promise<Response> => {
  const target = typeof input === 'string' ? targetOf(input) : undefined;
  const url = target ? target.url : input instanceof URL ? input : undefined;
  const body = init.body;
  if (
    url === undefined ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    (init.redirect !== 'manual' && init.redirect !== 'error') ||
    (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof URLSearchParams))
  ) {
    return fetch(input, init);
  }
  const options = target?.options ?? urlToHttpOptions(url);
  if (body instanceof URLSearchParams)
    return request(url, options, { ...init, headers: withFormContentType(init.headers) }, body.toString());
  return request(url, options, init, body ?? undefined);
};

/**
 * A URLSearchParams body (the OAuth token and revocation requests of oauth4webapi) is sent as fetch sends it: the
 * form's text, with fetch's content type unless one was given.
 */
function withFormContentType(headers: RequestInit['headers']): http.OutgoingHttpHeaders {
  const plain = plainHeaders(headers);
  const named = Object.keys(plain).some((name) => name.toLowerCase() === 'content-type');
  return named ? plain : { ...plain, 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' };
}

/**
 * The errors of a kept-alive connection that the server closed as this side reused it: the server's keep-alive
 * timeout ran out (Node's default is 5 s) while the request was on its way, or while this process was too busy to
 * see the close. CI saw it with 39 conformance clients starting at once on two cores.
 */
const STALE_CONNECTION_ERRORS = new Set(['ECONNRESET', 'EPIPE']);

type RequestInitLike = Omit<RequestInit, 'headers'> & { headers?: RequestInit['headers'] | http.OutgoingHttpHeaders };

function request(
  url: URL,
  target: http.RequestOptions,
  init: RequestInitLike,
  body: string | undefined,
  retried = false,
): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise<Response>((resolve, reject) => {
    const module = url.protocol === 'https:' ? https : http;
    // The retry gets a connection of its own (`agent: false`): the other idle connections the pool would give may be
    // closed as well.
    const agent = retried ? false : agents[url.protocol as 'http:' | 'https:'];
    // Node's own conversion of the URL, made once per URL (targetOf), with this request's method, headers and agent.
    const outgoing = module.request({
      ...target,
      method: init.method ?? 'GET',
      headers: plainHeaders(init.headers),
      agent,
    });
    let settled = false;
    const detach = signal ? whenAborted(signal, () => outgoing.destroy(abortReason(signal) as Error)) : () => undefined;
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      detach();
      if (settled) return;
      settled = true;
      if (!retried && !signal?.aborted && outgoing.reusedSocket && STALE_CONNECTION_ERRORS.has(error.code ?? '')) {
        // Sent again once, as Node's documentation advises (request.reusedSocket) and browsers do: no byte of a
        // response came, and a server that closes an idle connection has not read what came on it.
        resolve(request(url, target, init, body, true));
        return;
      }
      if (STALE_CONNECTION_ERRORS.has(error.code ?? ''))
        error.message += ` (${whichConnection(retried, outgoing.reusedSocket)})`;
      reject(signal?.aborted ? abortReason(signal) : new TypeError('fetch failed', { cause: error }));
    });
    outgoing.on('response', (incoming) => {
      settled = true;
      const status = incoming.statusCode ?? 0;
      if (init.redirect === 'error' && REDIRECT_STATUSES.has(status) && incoming.headers.location !== undefined) {
        detach();
        incoming.destroy();
        reject(new TypeError('fetch failed', { cause: new Error('unexpected redirect') }));
        return;
      }
      const headers = new Headers();
      const raw = incoming.rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
      if (NULL_BODY_STATUSES.has(status) || init.method === 'HEAD') {
        detach();
        incoming.resume();
        resolve(new Response(null, { status, statusText: incoming.statusMessage, headers }));
        return;
      }
      resolve(
        new Response(bodyStream(incoming, signal, detach), { status, statusText: incoming.statusMessage, headers }),
      );
    });
    outgoing.end(body);
  });
}

/**
 * Which connection a reset came on, for the error's message: a reset that the retry did not cover says whether the
 * server reset a fresh connection (it closed or refused the request) or the retry's as well.
 */
function whichConnection(retried: boolean, reused: boolean): string {
  if (retried) return 'on a new connection, after a reset of the reused one';
  return reused ? 'on a reused connection' : 'on a new connection';
}

/** The response body as a web stream; the socket pauses while the reader is behind. */
function bodyStream(
  incoming: http.IncomingMessage,
  signal: AbortSignal | undefined,
  detach: () => void,
): ReadableStream<Uint8Array> {
  let finished = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const fail = (error: unknown) => {
          if (finished) return;
          finished = true;
          detach();
          controller.error(signal?.aborted ? abortReason(signal) : new TypeError('terminated', { cause: error }));
        };
        incoming.on('data', (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
        });
        incoming.on('end', () => {
          if (finished) return;
          finished = true;
          detach();
          controller.close();
        });
        incoming.on('error', fail);
        incoming.on('close', () => {
          if (!incoming.complete) fail(new Error('the connection closed before the response ended'));
        });
      },
      pull() {
        incoming.resume();
      },
      cancel() {
        finished = true;
        detach();
        incoming.destroy();
      },
    },
    { highWaterMark: 1 },
  );
}

/** The requests waiting on each signal's abort (see whenAborted). */
const abortsBySignal = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Runs `abort` when `signal` aborts; the returned function forgets it. One listener per signal, whatever the number
 * of requests on it: a session's requests all carry the transport's closing signal, and a listener each made
 * thousands on one EventTarget during a burst of calls (MaxListenersExceededWarning on the host's console, and
 * addEventListener's cost per request in the CPU profile).
 */
function whenAborted(signal: AbortSignal, abort: () => void): () => void {
  let aborts = abortsBySignal.get(signal);
  if (!aborts) {
    const pending = new Set<() => void>();
    aborts = pending;
    abortsBySignal.set(signal, pending);
    signal.addEventListener(
      'abort',
      () => {
        abortsBySignal.delete(signal);
        for (const run of pending) run();
        pending.clear();
      },
      { once: true },
    );
  }
  const added = aborts;
  added.add(abort);
  return () => {
    added.delete(abort);
  };
}

function plainHeaders(headers: RequestInit['headers'] | http.OutgoingHttpHeaders): http.OutgoingHttpHeaders {
  if (headers === undefined) return {};
  if (Array.isArray(headers)) return Object.fromEntries(headers);
  if (headers instanceof Headers) {
    const plain: Record<string, string> = {};
    headers.forEach((value, name) => (plain[name] = value));
    return plain;
  }
  return headers as Record<string, string>;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
