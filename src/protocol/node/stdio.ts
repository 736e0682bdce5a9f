import { spawn, type ChildProcessWithoutNullStreams, type SpawnOptionsWithoutStdio } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Writable } from 'node:stream';
import type { Disposable } from '../disposable';
import { Emitter } from '../disposable';
import { LocalError, type ErrorDetail } from '../errors';
import { SENT } from '../jsonrpc/sent';
import { LineSplitter, oversizedReason } from './lineSplitter';
import { inputLimits, type InputLimits } from '../limits/inputLimits';
import type { DiagnosticListener, Transport, TransportSink } from '../transports/transport';
import { ServerProcessTree, newTreeMarker, taggedLaunch, treeStrategyFor } from './processTree';
import { serverWatchdog } from './watchdog';

export interface StdioServerOptions {
  command: string;
  args?: string[];
  /** Added to the inherited environment; a null value removes the variable. */
  env?: Record<string, string | null>;
  cwd?: string;
  /** Caps on what the server may make this client hold: one stdout line is one message (maxMessageBytes). */
  limits?: Partial<InputLimits>;
  /** @deprecated the same cap as `limits.maxMessageBytes`, which wins when both are given. */
  maxMessageBytes?: number;
  /** How long to wait after closing stdin before SIGTERM, and after SIGTERM before SIGKILL. */
  shutdownGraceMs?: number;
  /** How many stderr lines to keep for the error shown when the server dies. */
  stderrTailLines?: number;
  /**
   * Pass the arguments to the Windows process unquoted: set when `args` is already a quoted cmd.exe command line
   * (see `windowsShimInvocation`). Ignored elsewhere.
   */
  windowsVerbatimArguments?: boolean;
}

/** The options `start` passes to `spawn`; exported so the Windows wiring can be tested on any platform. */
export function stdioSpawnOptions(
  options: Pick<StdioServerOptions, 'cwd' | 'windowsVerbatimArguments'>,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): SpawnOptionsWithoutStdio & { stdio: ['pipe', 'pipe', 'pipe'] } {
  return {
    cwd: options.cwd,
    env,
    shell: false,
    stdio: ['pipe', 'pipe', 'pipe'],
    // Linux finds the server's tree through /proc and must not pay for a new session (processTree.ts explains);
    // other POSIX systems put it in its own process group, so shutdown reaches grandchildren (npx → node → server).
    detached: treeStrategyFor(platform) === 'process-group',
    windowsHide: true,
    ...(options.windowsVerbatimArguments ? { windowsVerbatimArguments: true } : {}),
  };
}

/** How much of a burst is corked before it is written: one writev per slice, and the server is not kept waiting. */
const BURST_FLUSH_BYTES = 16 * 1024;

/**
 * What the end of a turn's burst is queued on: a microtask, as queueMicrotask would queue it, without the
 * AsyncResource and bound function Node's queueMicrotask makes for each (a sequential caller queues one per call).
 */
const TURN_END: Promise<void> = Promise.resolve();

interface RunningServer {
  child: ChildProcessWithoutNullStreams;
  tree: ServerProcessTree;
  exited: Promise<void>;
  closed: Promise<void>;
}

type StdioState =
  { kind: 'idle' } | ({ kind: 'running' } & RunningServer) | ({ kind: 'closing' } & RunningServer) | { kind: 'closed' };

/** Runs a local MCP server as a child process and exchanges newline-delimited JSON over its stdin/stdout. */
export class StdioTransport implements Transport {
  readonly kind = 'stdio' as const;
  private state: StdioState = { kind: 'idle' };
  private readonly diagnostics = new Emitter<string>();
  private readonly stderrLines = new Emitter<string>();
  private readonly stderrTail: string[] = [];
  private sink: TransportSink | undefined;
  private drainWait: Promise<void> | undefined;
  /** The stdin written to in this turn; the microtask that ends the turn's burst uncorks it if it was corked. */
  private burst: Writable | undefined;
  private corked = false;
  private corkedBytes = 0;

  constructor(private readonly options: StdioServerOptions) {}

  get pid(): number | undefined {
    return this.state.kind === 'running' || this.state.kind === 'closing' ? this.state.child.pid : undefined;
  }

  /** The last lines the server wrote to stderr, for error messages. */
  get recentStderr(): readonly string[] {
    return this.stderrTail;
  }

  onDiagnostic(listener: DiagnosticListener): Disposable {
    return this.diagnostics.event(listener);
  }

  /** Each line the server writes to stderr, as written (dev mode reads the port node's inspector announces there). */
  onStderrLine(listener: (line: string) => void): Disposable {
    return this.stderrLines.event(listener);
  }

  async start(sink: TransportSink): Promise<void> {
    if (this.state.kind !== 'idle') throw new LocalError('transport', 'stdio transport already started');
    this.sink = sink;
    const { command, args = [], cwd } = this.options;
    const env = buildEnvironment(process.env, this.options.env);
    // Inherited by everything the server starts: how its tree is found again, even after it daemonised.
    const marker = newTreeMarker();
    const childEnv = { ...env, [marker]: '1' };
    // On Linux, also through prlimit: a tag that outlives even a scrubbed environment and a lost parent.
    const launch = taggedLaunch(marker, command, args, childEnv, cwd);
    let child: ChildProcessWithoutNullStreams;
    try {
      child =
        'untagged' in launch
          ? spawn(command, args, stdioSpawnOptions(this.options, childEnv))
          : spawn(launch.command, launch.args, stdioSpawnOptions(this.options, childEnv));
    } catch (error) {
      // Node throws some spawn failures (ENOTDIR: a cwd that is a file) instead of emitting them.
      this.state = { kind: 'closed' };
      throw describeSpawnError(error as NodeJS.ErrnoException, command, cwd, env);
    }
    if ('untagged' in launch && treeStrategyFor(process.platform) === 'proc-scan') {
      this.diagnostics.fire(
        `the server's processes are not tagged (${launch.untagged}); a descendant that scrubs its environment and leaves its parent could outlive it`,
      );
    }
    const tree = new ServerProcessTree(treeStrategyFor(process.platform), marker, child);
    const exited = new Promise<void>((resolve) =>
      child.once('exit', () => {
        // What outlived the server's own process (a grandchild holding no pipe, a daemon) has no one left to serve.
        tree.kill();
        serverWatchdog.untrack(marker);
        resolve();
      }),
    );
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    this.state = { kind: 'running', child, tree, exited, closed };
    if (child.pid !== undefined) {
      // Told in the same turn as the spawn: a client killed from here on cannot leave this server behind.
      const watchdog = serverWatchdog.track(marker, child.pid, tree.startedAt);
      if ('failed' in watchdog)
        this.diagnostics.fire(`${watchdog.failed}; the server may outlive a client that is killed`);
    }

    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error: NodeJS.ErrnoException) => {
        serverWatchdog.untrack(marker);
        this.state = { kind: 'closed' };
        reject(describeSpawnError(error, command, cwd, env));
      });
    });

    const splitter = new LineSplitter(
      {
        line: (text) => this.onLine(text),
        // The first and last bytes let the reader find the id of a discarded response and fail its request at once.
        oversized: (bytes, limit, head, tail) => sink.onUnparsable(`${head}…${tail}`, oversizedReason(bytes, limit)),
      },
      inputLimits({ maxMessageBytes: this.options.maxMessageBytes, ...this.options.limits }).maxMessageBytes,
    );
    child.stdout.on('data', (chunk: Buffer) => splitter.push(chunk));
    child.stdout.on('end', () => splitter.end());
    this.captureStderr(child);
    child.stdin.on('error', (error) => this.diagnostics.fire(`stdin: ${error.message}`));
    child.on('error', (error) => this.diagnostics.fire(`process error: ${error.message}`));
    child.once('close', (code, signal) => this.onExit(code, signal));
    this.diagnostics.fire(`started ${command} ${args.join(' ')} (pid ${child.pid})`);
  }

  /** Not an async function: no promise of its own per message when the pipe takes it (the usual case). */
  send(message: object): Promise<void> {
    if (this.state.kind !== 'running') {
      return Promise.reject(
        new LocalError('connection-closed', 'the server process is not running', {
          detail: { kind: 'process-gone', how: 'not running' },
        }),
      );
    }
    const { stdin } = this.state.child;
    if (stdin.destroyed || !stdin.writable) {
      return Promise.reject(
        new LocalError('connection-closed', 'the server closed its input', {
          detail: { kind: 'process-gone', how: 'closed its input' },
        }),
      );
    }
    // JSON.stringify never emits a raw newline, so one message is exactly one line.
    const line = JSON.stringify(message) + '\n';
    // The first message of a turn goes straight to the pipe: a sequential caller's request is written without
    // waiting for the end of the turn. Messages after it in the same turn (a burst of concurrent calls) are corked
    // and go out in one writev when the turn ends: one syscall, not hundreds, and no allocation per message.
    if (this.burst === undefined) {
      this.burst = stdin;
      TURN_END.then(this.endBurst);
    } else if (!this.corked) {
      this.corked = true;
      stdin.cork();
    } else if ((this.corkedBytes += line.length) >= BURST_FLUSH_BYTES) {
      // A long burst goes out in slices: the server starts on the first calls while this side writes the rest.
      this.corkedBytes = 0;
      stdin.uncork();
      stdin.cork();
    }
    return stdin.write(line) ? SENT : this.waitForDrain(stdin);
  }

  private readonly endBurst = (): void => {
    const stdin = this.burst;
    this.burst = undefined;
    if (this.corked) {
      this.corked = false;
      this.corkedBytes = 0;
      stdin?.uncork();
    }
  };

  /** One shared wait per full pipe: many concurrent senders must not each add listeners (quadratic work). */
  private waitForDrain(stdin: NodeJS.WritableStream): Promise<void> {
    this.drainWait ??= new Promise<void>((resolve) => {
      const done = () => {
        stdin.off('drain', done);
        stdin.off('close', done);
        this.drainWait = undefined;
        resolve();
      };
      stdin.once('drain', done);
      stdin.once('close', done);
    });
    return this.drainWait;
  }

  async close(): Promise<void> {
    const state = this.state;
    if (state.kind === 'idle') {
      this.state = { kind: 'closed' };
      return;
    }
    if (state.kind === 'closed') return;
    if (state.kind === 'closing') {
      // A second close means "now": skip the remaining grace.
      state.tree.kill();
      await state.closed;
      await treeEnded(state.tree);
      return;
    }
    this.state = { ...state, kind: 'closing' };
    await stagedShutdown(state, this.options.shutdownGraceMs ?? 2000, (line) => this.diagnostics.fire(line));
    // 'close' follows once the pipes are drained; the tree kill above guarantees nobody holds them.
    await settledWithin(state.closed, 2000);
    await treeEnded(state.tree);
  }

  dispose(): void {
    void this.close();
  }

  private onLine(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.sink?.onUnparsable(text, `not JSON: ${(error as Error).message}`);
      return;
    }
    this.sink?.onMessage(value);
  }

  private captureStderr(child: ChildProcessWithoutNullStreams): void {
    const keep = this.options.stderrTailLines ?? 20;
    const splitter = new LineSplitter(
      {
        line: (text) => {
          this.stderrTail.push(text);
          if (this.stderrTail.length > keep) this.stderrTail.shift();
          this.diagnostics.fire(`stderr: ${text}`);
          this.stderrLines.fire(text);
        },
        oversized: (bytes) => this.diagnostics.fire(`stderr: (a line of ${bytes} bytes was discarded)`),
      },
      1024 * 1024,
    );
    child.stderr.on('data', (chunk: Buffer) => splitter.push(chunk));
    child.stderr.on('end', () => splitter.end());
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    const wasClosing = this.state.kind === 'closing';
    this.state = { kind: 'closed' };
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    this.diagnostics.fire(`process ${how}`);
    if (wasClosing) {
      this.sink?.onClose();
      return;
    }
    const launcher = this.stderrTail.length
      ? undefined
      : silentLauncher(this.options.command, this.options.args ?? [], code);
    const tail = this.stderrTail.length
      ? `; last stderr lines:\n${this.stderrTail.join('\n')}`
      : launcher
        ? launcherHint(launcher)
        : '';
    const detail: ErrorDetail = signal
      ? { kind: 'process-killed', signal }
      : { kind: 'process-exited', code, ...(launcher ? { silentLauncher: launcher } : {}) };
    this.sink?.onClose(new LocalError('connection-closed', `the server process ${how}${tail}`, { detail }));
  }
}

/**
 * What to add when a package launcher (npx, uvx, `pnpm dlx`…) failed with nothing on stderr: it most often could not
 * download or install the package, and says why only in its own log, so "exited with code 1" alone leaves the
 * person guessing. Undefined for anything else.
 */
export function silentLauncherHint(command: string, args: readonly string[], code: number | null): string | undefined {
  const launcher = silentLauncher(command, args, code);
  return launcher === undefined ? undefined : launcherHint(launcher);
}

function launcherHint(launcher: string): string {
  return `, with nothing on stderr: "${launcher}" may have failed to download or install the package; run the same command in a terminal to see why`;
}

/** The package launcher (npx, uvx, `pnpm dlx`…) that `command` runs when it failed with `code`; undefined for anything else. */
function silentLauncher(command: string, args: readonly string[], code: number | null): string | undefined {
  if (code === null || code === 0) return undefined;
  const program =
    command
      .split(/[\\/]/)
      .at(-1)
      ?.replace(/\.(cmd|exe|ps1)$/i, '')
      .toLowerCase() ?? '';
  const launcher = ['npx', 'pnpx', 'bunx', 'uvx'].includes(program)
    ? program
    : ['pnpm', 'yarn', 'bun'].includes(program) && args[0] === 'dlx'
      ? `${program} dlx`
      : undefined;
  return launcher;
}

/**
 * The inherited environment with the server's `env` applied. Names are case-insensitive on Windows: `{ "PATH": ... }`
 * replaces the inherited `Path` instead of adding a second variable that cmd.exe and the child might not read.
 */
export function buildEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  overrides: Record<string, string | null> | undefined,
  platform: NodeJS.Platform = process.platform,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const [name, value] of Object.entries(overrides ?? {})) {
    if (platform === 'win32') {
      for (const existing of Object.keys(env))
        if (existing !== name && existing.toUpperCase() === name.toUpperCase()) delete env[existing];
    }
    if (value === null) delete env[name];
    else env[name] = value;
  }
  return env;
}

function describeSpawnError(
  error: NodeJS.ErrnoException,
  command: string,
  cwd: string | undefined,
  env: NodeJS.ProcessEnv,
): LocalError {
  // A cwd that is missing fails the spawn with ENOENT too, which would otherwise read as a command not on PATH.
  const cwdProblem = cwd === undefined ? undefined : unusableCwd(cwd);
  if (cwd !== undefined && cwdProblem !== undefined) {
    return new LocalError('transport', `cannot start "${command}": cwd ${cwd} ${cwdProblem}`, {
      cause: error,
      detail: { kind: 'cwd-unusable', command, cwd, problem: cwdProblem },
    });
  }
  if (error.code === 'ENOENT') {
    const searched =
      path.isAbsolute(command) || command.includes('/') ? `the path ${command}` : `PATH=${env.PATH ?? ''}`;
    return new LocalError(
      'transport',
      `command not found: "${command}" (searched ${searched}${cwd ? `; cwd ${cwd}` : ''}). ` +
        'Use an absolute path, set "cwd", or add its folder to PATH through "env".',
      { cause: error },
    );
  }
  if (error.code === 'EACCES') {
    return new LocalError('transport', `permission denied running "${command}": is it executable?`, {
      cause: error,
      detail: { kind: 'permission-denied', command },
    });
  }
  return new LocalError('transport', `cannot start "${command}": ${error.message}`, { cause: error });
}

/** Why a server could not start in `cwd`, or undefined when it is a folder (looked at only after a spawn failed). */
function unusableCwd(cwd: string): 'is not a directory' | 'does not exist' | undefined {
  try {
    return fs.statSync(cwd).isDirectory() ? undefined : 'is not a directory';
  } catch {
    return 'does not exist';
  }
}

/**
 * Resolves once no process of the tree is alive (Linux: none is left in /proc but zombies), killing again what a
 * scan still finds: close() resolves only when the whole tree is gone, so a CLI that returns right after it leaves
 * nothing for its watchdog to find. Bounded: a process the kernel cannot end at once does not hold close() forever.
 */
async function treeEnded(tree: ServerProcessTree): Promise<void> {
  for (let round = 0; round < TREE_END_ROUNDS; round++) {
    if (tree.members().length === 0) return;
    tree.kill();
    await delay(TREE_END_POLL_MS);
  }
}

const TREE_END_ROUNDS = 40;
const TREE_END_POLL_MS = 25;

/**
 * The waits of close() keep the event loop alive (their timers are not unref'd): once the server's pipes are
 * closed nothing else may be left to hold a CLI's loop open, and an unref'd wait there let Node exit with code 0
 * in the middle of close(), before the caller printed its error. Each timer is cleared as soon as the wait ends.
 * Exported for test/unit/processes.test.ts, which loads this file in a child process to check exactly that.
 */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** True when `promise` settled within `ms`, false when the time ran out first; the timer never outlives the race. */
export function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = promise.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, timedOut]).finally(() => clearTimeout(timer));
}

/** Close stdin, then SIGTERM, then SIGKILL the whole tree, each after a grace period (MCP lifecycle, stdio shutdown). */
async function stagedShutdown(server: RunningServer, graceMs: number, note: (line: string) => void): Promise<void> {
  const { child, tree, exited } = server;
  const waitExit = (ms: number) => settledWithin(exited, ms);
  child.stdin.end();
  // `exited` resolves only after the tree was killed: what outlived the server's own process is gone too.
  if (await waitExit(graceMs)) return;
  note('server did not exit after stdin closed; sending SIGTERM');
  tree.terminate();
  if (await waitExit(graceMs)) return;
  note('server did not exit after SIGTERM; sending SIGKILL');
  tree.kill();
  await exited;
}
