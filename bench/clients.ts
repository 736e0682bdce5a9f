/**
 * The clients the benchmark compares, behind one small interface. Each one spawns its own copy of a fixture
 * server given as a node script and its arguments: bench/fixtures/server.mjs (v1 SDK) or
 * test/fixtures/bench/raw-server.mjs (hand-written newline JSON) for the handshake era, and for the 2026-07-28 rows
 * bench/fixtures/modern-server.mjs (v2 SDK, modern-only) over stdio or HTTP; the handshake era over HTTP is in
 * bench/handshakeHttpClients.ts. Script paths come from the caller: this file runs bundled from a temporary
 * folder (bench/worker.ts), where __dirname says nothing about the repo.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as SdkV2 from '@modelcontextprotocol/client';
import * as SdkV2Stdio from '@modelcontextprotocol/client/stdio';
import type { McpClient } from '../src/protocol/client';
import { HttpFixtureClient } from './httpFixture';

export const BIG_URI = 'bench://big';

/** A fixture server: `node <script> <args>`. */
export interface ServerCommand {
  readonly script: string;
  readonly args?: readonly string[];
}

/**
 * Every column's server runs with --no-warnings: the fixtures write thousands of responses at once, and Node's
 * MaxListenersExceededWarning for their stdout (once per process) filled the bench's output between the tables.
 */
export function serverArgs(server: ServerCommand): string[] {
  return ['--no-warnings', server.script, ...(server.args ?? [])];
}

/** Generous limits: the benchmark measures time, it does not want timeouts to fire. */
export const REQUEST_TIMEOUT_MS = 10 * 60_000;

export interface BenchClient {
  readonly label: string;
  start(): Promise<void>;
  /** Calls the `echo` tool and returns the text it answered with. */
  echo(text: string): Promise<string>;
  /** Reads `bench://big` and returns the length of its text. */
  readBig(): Promise<number>;
  close(): Promise<void>;
}

function serverEnv(bigBytes: number): Record<string, string> {
  return { BENCH_BIG_BYTES: String(bigBytes) };
}

export function firstText(content: unknown): string {
  if (!Array.isArray(content)) throw new Error('result has no content array');
  const first: unknown = content[0];
  if (typeof first !== 'object' || first === null || (first as { type?: unknown }).type !== 'text')
    throw new Error('first content item is not text');
  const text = (first as { text?: unknown }).text;
  if (typeof text !== 'string') throw new Error('text content without text');
  return text;
}

function bigTextLength(contents: unknown): number {
  if (!Array.isArray(contents) || contents.length !== 1)
    throw new Error('resources/read did not return exactly one content');
  const text = (contents[0] as { text?: unknown }).text;
  if (typeof text !== 'string') throw new Error('resources/read content has no text');
  return text.length;
}

export type OursModule = typeof import('./oursEntry');

/**
 * (a) This project's client: McpClient over StdioTransport. With `ownSession`, the server is started through
 * util-linux `setsid` (which calls setsid() and execs the server in place), putting it in its own session as the
 * old `detached: true` spawn did: that column shows what a separate scheduler autogroup costs.
 */
export class OursClient implements BenchClient {
  readonly label: string;
  private readonly client: McpClient;

  constructor(bigBytes: number, ours: OursModule, server: ServerCommand, ownSession = false) {
    this.label = ownSession ? 'ours, server in own session (old detached spawn)' : 'ours (McpClient)';
    const command = ownSession
      ? { command: 'setsid', args: [process.execPath, ...serverArgs(server)] }
      : { command: process.execPath, args: serverArgs(server) };
    this.client = new ours.McpClient({
      serverName: 'bench',
      transport: new ours.StdioTransport({ ...command, env: serverEnv(bigBytes) }),
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      maxTotalTimeoutMs: REQUEST_TIMEOUT_MS,
      initializeTimeoutMs: REQUEST_TIMEOUT_MS,
    });
  }

  async start(): Promise<void> {
    await this.client.connect();
  }

  async echo(text: string): Promise<string> {
    const { result } = await this.client.callTool('echo', { text });
    return firstText(result.content);
  }

  async readBig(): Promise<number> {
    return bigTextLength((await this.client.readResource(BIG_URI)).contents);
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** (b) The official SDK client: Client over StdioClientTransport, optionally with a raised read-buffer limit. */
export class SdkClient implements BenchClient {
  readonly label: string;
  private readonly client = new Client({ name: 'bench-sdk', version: '1.0.0' });
  private readonly transport: StdioClientTransport;

  constructor(bigBytes: number, server: ServerCommand, maxBufferSize?: number) {
    this.label =
      maxBufferSize === undefined
        ? 'SDK 1.32.2 (default)'
        : `SDK 1.32.2 (maxBufferSize ${Math.round(maxBufferSize / 2 ** 20)} MiB)`;
    this.transport = new StdioClientTransport({
      command: process.execPath,
      args: serverArgs(server),
      env: { ...(process.env as Record<string, string>), ...serverEnv(bigBytes) },
      stderr: 'inherit',
      ...(maxBufferSize === undefined ? {} : { maxBufferSize }),
    });
  }

  async start(): Promise<void> {
    await this.client.connect(this.transport, { timeout: REQUEST_TIMEOUT_MS });
  }

  async echo(text: string): Promise<string> {
    const result = await this.client.callTool({ name: 'echo', arguments: { text } }, undefined, {
      timeout: REQUEST_TIMEOUT_MS,
    });
    return firstText(result.content);
  }

  async readBig(): Promise<number> {
    const result = await this.client.readResource({ uri: BIG_URI }, { timeout: REQUEST_TIMEOUT_MS });
    return bigTextLength(result.contents);
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

interface Waiter {
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
}

/**
 * (c) The floor: spawn the server, write request lines, read response lines, match them by id. No validation,
 * no timers, no cancellation; one Buffer.concat per line and one JSON.parse per message. The era's part is two
 * hooks: how a session opens and what a request's params carry (the 2026-07-28 loop: bench/rawClients.ts).
 */
export abstract class RawLineClient implements BenchClient {
  abstract readonly label: string;
  private child: ChildProcessByStdio<Writable, Readable, null> | undefined;
  private readonly waiters = new Map<number, Waiter>();
  private nextId = 1;
  private pieces: Buffer[] = [];

  constructor(
    private readonly bigBytes: number,
    private readonly server: ServerCommand,
  ) {}

  async start(): Promise<void> {
    const child = spawn(process.execPath, serverArgs(this.server), {
      env: { ...process.env, ...serverEnv(this.bigBytes) },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', reject);
    });
    child.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    child.once('exit', (code, signal) => {
      const error = new Error(`server exited (${signal ?? code})`);
      for (const waiter of this.waiters.values()) waiter.reject(error);
      this.waiters.clear();
    });
    await this.open();
  }

  /** How the era opens a session. */
  protected abstract open(): Promise<void>;

  /** What the era adds to a request's params. */
  protected shape(params: Record<string, unknown>): Record<string, unknown> {
    return params;
  }

  async echo(text: string): Promise<string> {
    return firstText((await this.request('tools/call', { name: 'echo', arguments: { text } })).content);
  }

  async readBig(): Promise<number> {
    return bigTextLength((await this.request('resources/read', { uri: BIG_URI })).contents);
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  }

  protected request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiters.set(id, { resolve, reject });
      this.write({ jsonrpc: '2.0', id, method, params: this.shape(params) });
    });
  }

  protected write(message: object): void {
    this.child?.stdin.write(`${JSON.stringify(message)}\n`);
  }

  private onData(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      const tail = chunk.subarray(start, newline);
      const line = this.pieces.length === 0 ? tail : Buffer.concat([...this.pieces, tail]);
      this.pieces = [];
      start = newline + 1;
      if (line.length > 0) this.onLine(line.toString('utf8'));
    }
    if (start < chunk.length) this.pieces.push(chunk.subarray(start));
  }

  private onLine(line: string): void {
    const message = JSON.parse(line) as {
      id?: unknown;
      result?: Record<string, unknown>;
      error?: { message?: string };
    };
    if (typeof message.id !== 'number') return; // notifications and server requests: not part of these workloads
    const waiter = this.waiters.get(message.id);
    if (!waiter) return;
    this.waiters.delete(message.id);
    if (message.result !== undefined) waiter.resolve(message.result);
    else waiter.reject(new Error(`server error: ${message.error?.message ?? JSON.stringify(message)}`));
  }
}

/** The handshake era's floor: `initialize`, then `notifications/initialized`, then plain requests. */
export class RawClient extends RawLineClient {
  readonly label = 'raw newline-JSON';

  protected async open(): Promise<void> {
    await this.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'bench-raw', version: '1.0.0' },
    });
    this.write({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }
}

/**
 * (d) The official v2 SDK client (@modelcontextprotocol/client 2.4.0) with its default version negotiation, against
 * a handshake-era server: what an application on the newer SDK pays today.
 */
export class SdkV2Client implements BenchClient {
  readonly label = 'SDK 2.4.0 Client';
  private readonly client = new SdkV2.Client({ name: 'bench-sdk-v2', version: '1.0.0' });
  private readonly transport: SdkV2Stdio.StdioClientTransport;

  constructor(bigBytes: number, server: ServerCommand) {
    this.transport = new SdkV2Stdio.StdioClientTransport({
      command: process.execPath,
      args: serverArgs(server),
      env: { ...(process.env as Record<string, string>), ...serverEnv(bigBytes) },
      stderr: 'inherit',
    });
  }

  async start(): Promise<void> {
    await this.client.connect(this.transport, { timeout: REQUEST_TIMEOUT_MS });
  }

  async echo(text: string): Promise<string> {
    const result = await this.client.callTool({ name: 'echo', arguments: { text } }, { timeout: REQUEST_TIMEOUT_MS });
    return firstText(result.content);
  }

  async readBig(): Promise<number> {
    const result = await this.client.readResource({ uri: BIG_URI }, { timeout: REQUEST_TIMEOUT_MS });
    return bigTextLength(result.contents);
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

// ---- the 2026-07-28 era: a modern-only server (bench/fixtures/modern-server.mjs) over stdio or HTTP ----------

export type ModernTransport = 'stdio' | 'http';

/** The modern fixture's arguments for a transport. */
function modernServer(script: string, transport: ModernTransport): ServerCommand {
  return { script, args: ['--transport', transport] };
}

/** This project's client pinned to the 2026-07-28 era, over StdioTransport or the Streamable HTTP transport. */
export class OursModernClient extends HttpFixtureClient<McpClient> {
  readonly label: string;

  constructor(
    private readonly ours: OursModule,
    private readonly transport: ModernTransport,
    private readonly script: string,
  ) {
    super(modernServer(script, 'http'));
    this.label = `ours (McpClient, 2026-07-28, ${transport})`;
  }

  async start(): Promise<void> {
    const transport =
      this.transport === 'stdio'
        ? new this.ours.StdioTransport({
            command: process.execPath,
            args: serverArgs(modernServer(this.script, 'stdio')),
          })
        : // As the extension and the CLI make it: with the host's fetch (chooseHttpFetch), not the transport's default.
          this.ours.createHttpTransport({
            url: await this.httpServer.start(),
            mode: 'streamable-http',
            fetch: this.ours.chooseHttpFetch({ env: process.env }).fetch,
          });
    this.client = new this.ours.McpClient({
      serverName: 'bench-modern',
      transport,
      era: '2026-07-28',
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      maxTotalTimeoutMs: REQUEST_TIMEOUT_MS,
      initializeTimeoutMs: REQUEST_TIMEOUT_MS,
    });
    await this.client.connect();
  }

  async echo(text: string): Promise<string> {
    const { result } = await (this.client as McpClient).callTool('echo', { text });
    return firstText(result.content);
  }
}

/** The official v2 SDK client (@modelcontextprotocol/client 2.4.0) pinned to 2026-07-28, over its stdio or Streamable HTTP transport. */
export class SdkV2ModernClient extends HttpFixtureClient<SdkV2.Client> {
  readonly label: string;

  constructor(
    private readonly transport: ModernTransport,
    private readonly script: string,
  ) {
    super(modernServer(script, 'http'));
    this.label = `SDK 2.4.0 Client (pin 2026-07-28, ${transport})`;
  }

  async start(): Promise<void> {
    const client = new SdkV2.Client(
      { name: 'bench-sdk-v2', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const transport =
      this.transport === 'stdio'
        ? new SdkV2Stdio.StdioClientTransport({
            command: process.execPath,
            args: serverArgs(modernServer(this.script, 'stdio')),
            stderr: 'inherit',
          })
        : new SdkV2.StreamableHTTPClientTransport(new URL(await this.httpServer.start()));
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
    this.client = client;
  }

  async echo(text: string): Promise<string> {
    const result = await (this.client as SdkV2.Client).callTool(
      { name: 'echo', arguments: { text } },
      { timeout: REQUEST_TIMEOUT_MS },
    );
    return firstText(result.content);
  }
}
