/**
 * What the Streamable HTTP columns share: a fixture server process of their own, for one client, which prints
 * `listening <url>` once it listens (bench/fixtures/modern-server.mjs --transport http,
 * bench/fixtures/handshake-http-server.mjs), and a column base that closes the client before that server.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { serverArgs, type BenchClient, type ServerCommand } from './clients';

/** An HTTP fixture server process of its own, for one client; `start()` answers its URL once it listens. */
export class HttpServerProcess {
  private child: ChildProcessByStdio<null, Readable, null> | undefined;
  private stopping = false;

  constructor(private readonly server: ServerCommand) {}

  async start(): Promise<string> {
    const child = spawn(process.execPath, serverArgs(this.server), { stdio: ['ignore', 'pipe', 'inherit'] });
    this.child = child;
    return new Promise<string>((resolve, reject) => {
      let seen = '';
      child.once('error', reject);
      child.once('exit', (code, signal) => {
        reject(new Error(`the HTTP fixture server exited (${signal ?? code}) before listening`));
        // Its clients see only reset connections: say why on the bench's stderr.
        if (!this.stopping) process.stderr.write(`  ${this.server.script} exited (${signal ?? code}) while in use\n`);
      });
      child.stdout.on('data', (chunk: Buffer) => {
        seen += chunk.toString('utf8');
        const match = /listening (\S+)/.exec(seen);
        if (match) resolve(match[1]);
      });
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    this.stopping = true;
    child.kill('SIGTERM');
    await exited;
  }
}

/**
 * A column whose fixture server is a process of its own over HTTP (started by the subclass when HTTP is
 * measured): no big resource, and the client closes before the server.
 */
export abstract class HttpFixtureClient<C extends { close(): Promise<void> }> implements BenchClient {
  abstract readonly label: string;
  protected client: C | undefined;
  protected readonly httpServer: HttpServerProcess;

  constructor(httpServer: ServerCommand) {
    this.httpServer = new HttpServerProcess(httpServer);
  }

  abstract start(): Promise<void>;
  abstract echo(text: string): Promise<string>;

  readBig(): Promise<number> {
    return Promise.reject(new Error('this fixture has no big resource'));
  }

  async close(): Promise<void> {
    try {
      await this.client?.close();
    } finally {
      await this.httpServer.stop(); // also when the client failed to start or to close: the server must not outlive it
    }
  }
}
