import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Gateway, type GatewayOptions } from '../../gateway/gateway';

export interface StartGatewayOptions extends GatewayOptions {
  /** The port on 127.0.0.1 (0 or absent: one the system picks). */
  port?: number;
  /**
   * The secret to require (64 hex digits), when a host re-opens a gateway it served before (the extension after the
   * server restarted): agents configured with the header keep working. Absent: a new one.
   */
  secret?: string;
}

/** A gateway listening: what an agent is configured with, and how it ends. */
export interface RunningGateway {
  /** `http://127.0.0.1:<port>/mcp` */
  readonly url: string;
  /** The headers every request must carry: `Authorization: Bearer <secret>`. Never put them in the URL or a log. */
  readonly headers: Readonly<Record<string, string>>;
  readonly address: AddressInfo;
  readonly gateway: Gateway;
  /** Ends every agent session, the listener and every socket it accepted. */
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost'];

/**
 * Starts a gateway on 127.0.0.1. Every request passes, in order: its Host names this listener on a loopback name and
 * its Origin, when present, is a loopback origin (else 403: a web page reaching the port through DNS rebinding is
 * refused); it carries the gateway's secret (else 401: anything else on the machine is refused); it is not a
 * preflight (OPTIONS: 405, and no CORS header is ever sent, so a browser page cannot read an answer); its body fits
 * under the cap (413). Only then does the gateway see it.
 */
export async function startGateway(options: StartGatewayOptions): Promise<RunningGateway> {
  const gateway = new Gateway(options);
  // 256 bits from the system's CSPRNG, per gateway: the URL stays shareable, the header is the key.
  const secret =
    options.secret !== undefined && /^[0-9a-f]{64}$/.test(options.secret)
      ? options.secret
      : randomBytes(32).toString('hex');
  const expected = Buffer.from(`Bearer ${secret}`);
  const sockets = new Set<Socket>();
  let port = 0;

  const server = http.createServer((req, res) => {
    void serve(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  // Node ends an idle keep-alive connection after 5 s; a client that sends on it at that moment (its own timer late
  // on a loaded machine) gets "other side closed" and a lost request, as the bench's 100 agents did. Agents come back
  // in bursts, so idle connections are kept longer; close() still ends every one of them.
  server.keepAliveTimeout = 30_000;
  server.on('connection', (socket) => {
    // Each answer is written whole; Nagle would hold a second segment of it until the agent's delayed ACK (~40 ms).
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!hostAllowed(req.headers.host, port) || !originAllowed(req.headers.origin)) return refuse(res, 403);
    if (!authorized(req.headers.authorization, expected)) return refuse(res, 401);
    if (req.method === 'OPTIONS') return refuse(res, 405);
    const body = await readBody(req, options.maxBodyBytes);
    if (body === undefined) {
      refuse(res, 413);
      req.destroy();
      return;
    }
    const parsed = parseJson(body);
    let streaming = false;
    // A direct call of a 2025 session answers with its session's id; a 2026-07-28 agent's has none.
    const sessionId = single(req.headers['mcp-session-id']);
    const session = sessionId === undefined ? {} : { 'mcp-session-id': sessionId };
    const direct = gateway.serveDirect(req.method, (name) => single(req.headers[name]), parsed, {
      event: (message) => {
        if (res.writableEnded || res.destroyed) return;
        if (!streaming) {
          streaming = true;
          res.writeHead(200, {
            'content-type': 'text/event-stream',
            'cache-control': 'no-cache',
            ...session,
          });
        }
        res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
      },
      end: (message) => {
        if (res.writableEnded || res.destroyed) return;
        if (streaming) {
          res.end(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
          return;
        }
        // Headers and body in one write (one segment), the length known: nothing waits on a chunked terminator.
        const payload = Buffer.from(JSON.stringify(message));
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': String(payload.length),
          ...session,
        });
        res.end(payload);
      },
    });
    if (direct) {
      // The agent went away before its answer: the upstream request is cancelled.
      res.on('close', () => {
        if (!res.writableFinished) direct.cancel();
      });
      await direct.done;
      return;
    }
    const abort = new AbortController();
    // The agent went away before its answer was complete (its cancel, in the 2026-07-28 era). An answer sent in full
    // aborts nothing: an abort costs an AbortError and its listeners on every request (seen in the gateway's profile).
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string') headers.set(name, value);
      else if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    const request = new Request(`http://127.0.0.1:${port}${req.url ?? '/'}`, {
      method: req.method,
      headers,
      body:
        body.length > 0 && req.method !== 'GET' && req.method !== 'HEAD' ? (body as unknown as BodyInit) : undefined,
      signal: abort.signal,
    });
    const response = await gateway.fetch(request, parsed);
    const outHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => (outHeaders[name] = value));
    res.writeHead(response.status, outHeaders);
    if (!response.body) {
      res.end();
      return;
    }
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
      }
    } catch {
      // The agent went away mid-stream.
    }
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  port = address.port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    headers: { Authorization: `Bearer ${secret}` },
    address,
    gateway,
    close: () =>
      (closing ??= (async () => {
        await gateway.close();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
        await closed;
      })()),
  };
}

/** A refusal says nothing but its status: no body, no CORS header, no hint of what would have passed. */
function refuse(res: http.ServerResponse, status: number): void {
  res.writeHead(status, { 'content-length': '0' }).end();
}

/** Host is this listener on 127.0.0.1 or localhost; any other name is a page reached through DNS rebinding. */
export function hostAllowed(host: string | undefined, port: number): boolean {
  return host !== undefined && LOOPBACK_HOSTS.some((name) => host.toLowerCase() === `${name}:${port}`);
}

/** No Origin (not a browser) or a loopback one; a browser page elsewhere is refused. */
export function originAllowed(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    const url = new URL(origin);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname.toLowerCase())
    );
  } catch {
    return false;
  }
}

/** The secret compared in constant time (equal lengths are compared; a different length is refused at once). */
export function authorized(header: string | undefined, expected: Buffer): boolean {
  if (header === undefined) return false;
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The body, or undefined once it passes `maxBytes` (reading stops there). */
function readBody(req: http.IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve(undefined);
  // Events rather than an async iterator: the iterator's objects and promises were a visible share of a small call's
  // time in the gateway's profile.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        stop();
        resolve(undefined);
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.once('error', reject);
    req.once('close', () => {
      if (!req.complete) reject(new Error('the agent closed the request before its body ended'));
    });
  });
}

/** A header Node joined into one string (or the first of a repeated one). */
function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function parseJson(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    // Not JSON: the SDK answers it with its parse error.
    return undefined;
  }
}
