/**
 * The floors of the workloads bench/clients.ts's RawClient does not cover: a loop that writes and parses only what
 * the era requires, with no validation, no timers, no cancellation, so "ours/raw" says what this client adds.
 *   - RawModernStdioClient: the 2026-07-28 era over stdio (no `initialize`; every request carries the reserved
 *     `_meta` keys: protocol version, client capabilities, client info);
 *   - RawHttpClient: Streamable HTTP over node:http with a keep-alive agent, either era: the handshake one opens a
 *     session with `initialize` and names it in `Mcp-Session-Id`; the 2026-07-28 one sends the `_meta` keys and
 *     mirrors the revision, method and name into `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`. A response is
 *     read as JSON, or as SSE when the server answers with an event stream (the first `data:` line is the answer).
 */
import * as http from 'node:http';
import { RawLineClient, firstText, type ServerCommand } from './clients';
import { HttpFixtureClient } from './httpFixture';

const MODERN = '2026-07-28';
const HANDSHAKE = '2025-11-25';
const CLIENT_INFO = { name: 'bench-raw', version: '1.0.0' };

/** The reserved `_meta` of a 2026-07-28 request (what the era requires of every request). */
export function modernMeta(): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
  };
}

/** The 2026-07-28 era over stdio: newline JSON, `_meta` on every request, no handshake. */
export class RawModernStdioClient extends RawLineClient {
  readonly label = 'raw newline-JSON, 2026-07-28';

  constructor(script: string) {
    super(0, { script, args: ['--transport', 'stdio'] });
  }

  protected override async open(): Promise<void> {
    // Nothing to open: a 2026-07-28 session is its requests.
  }

  protected override shape(params: Record<string, unknown>): Record<string, unknown> {
    return { ...params, _meta: modernMeta() };
  }
}

function readBody(response: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
    response.once('end', () => resolve(text));
    response.once('error', reject);
  });
}

/** The JSON-RPC answer in a body: the body itself, or the first SSE `data:` line of an event stream. */
interface RpcAnswer {
  result?: Record<string, unknown>;
  error?: unknown;
}

function answerOf(body: string, contentType: string | undefined): RpcAnswer {
  if (contentType?.startsWith('text/event-stream')) {
    const start = body.indexOf('data: ');
    if (start === -1) throw new Error('an event stream with no data');
    const end = body.indexOf('\n', start);
    return JSON.parse(body.slice(start + 6, end === -1 ? undefined : end)) as RpcAnswer;
  }
  return JSON.parse(body) as RpcAnswer;
}

/** Streamable HTTP, one POST per request over a keep-alive agent, in the handshake era or 2026-07-28. */
export class RawHttpClient extends HttpFixtureClient<{ close(): Promise<void> }> {
  readonly label: string;
  private readonly agent = new http.Agent({ keepAlive: true });
  private url: URL | undefined;
  private sessionId: string | undefined;
  private nextId = 1;

  constructor(
    private readonly era: 'handshake' | 'modern',
    server: ServerCommand,
  ) {
    super(server);
    this.label = `raw HTTP, ${era === 'modern' ? MODERN : HANDSHAKE}`;
    this.client = { close: async () => this.agent.destroy() };
  }

  async start(): Promise<void> {
    this.url = new URL(await this.httpServer.start());
    if (this.era === 'handshake') {
      await this.post({
        jsonrpc: '2.0',
        id: this.nextId++,
        method: 'initialize',
        params: { protocolVersion: HANDSHAKE, capabilities: {}, clientInfo: CLIENT_INFO },
      });
      await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    }
  }

  async echo(text: string): Promise<string> {
    const params =
      this.era === 'modern'
        ? { name: 'echo', arguments: { text }, _meta: modernMeta() }
        : { name: 'echo', arguments: { text } };
    const answer = await this.post({ jsonrpc: '2.0', id: this.nextId++, method: 'tools/call', params });
    if (!answer?.result) throw new Error(`server error: ${JSON.stringify(answer?.error)}`);
    return firstText(answer.result.content);
  }

  private post(message: {
    jsonrpc: '2.0';
    id?: number;
    method: string;
    params?: Record<string, unknown>;
  }): Promise<RpcAnswer | undefined> {
    const url = this.url as URL;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    if (this.era === 'modern') {
      headers['mcp-protocol-version'] = MODERN;
      headers['mcp-method'] = message.method;
      const name = message.params?.name;
      if (typeof name === 'string') headers['mcp-name'] = name;
    } else if (this.sessionId !== undefined) {
      headers['mcp-protocol-version'] = HANDSHAKE;
      headers['mcp-session-id'] = this.sessionId;
    }
    const body = JSON.stringify(message);
    return new Promise((resolve, reject) => {
      const request = http.request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers, agent: this.agent },
        (response) => {
          const session = response.headers['mcp-session-id'];
          if (typeof session === 'string') this.sessionId = session;
          readBody(response).then((text) => {
            if ((response.statusCode ?? 0) >= 300) reject(new Error(`HTTP ${response.statusCode}: ${text}`));
            else resolve(text === '' ? undefined : answerOf(text, response.headers['content-type']));
          }, reject);
        },
      );
      request.once('error', reject);
      request.end(body);
    });
  }
}
