/**
 * The watchdog: one small Node process per client process that ends every stdio server tree the client still
 * owns when the client dies, however it dies (SIGKILL, a crash, an extension host torn down). Nothing inside a
 * process can run after SIGKILL, so the guarantee needs a second process; one per client, not one per server,
 * keeps the cost at one process however many servers run.
 *
 * How it learns of the death: its stdin is a pipe whose only writer is the client. The kernel closes that end
 * when the client exits for any reason, so end-of-file means "the client is gone" (a change of parent pid is
 * checked too). It then sends SIGTERM to every tree it was told about, waits a moment, and SIGKILLs what is left.
 * It ignores SIGINT, SIGTERM and SIGHUP: a Ctrl+C or a signal sent to the client's whole process group must not
 * take the watchdog down before the servers; it exits by itself once the client is gone.
 *
 * It is not the servers' parent: the servers stay direct children of the client (their pipes, exit codes and pids
 * as before), and the watchdog holds none of their pipes. It is spawned once, lazily, and unreferenced so it never
 * keeps the client's event loop alive.
 *
 * Protocol on its stdin, one line each: `track <marker> <pid> <start time>` and `untrack <marker>` (the start
 * time, in clock ticks since boot, spares the tag check of older processes; see processTree.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { processTreeToolkit, treeStrategyFor, type ProcessTreeToolkit, type TreeStrategy } from './processTree';

/** How long the servers get between SIGTERM and SIGKILL once the client died. */
const WATCHDOG_GRACE_MS = 1000;
/**
 * How often the watchdog compares its parent pid with the one it started under. Only a fallback: the end of its stdin
 * already tells it of the client's death at once. Checked every second, it woke the watchdog 60 times a minute while
 * every server sat idle (issue 42: no timer of ours wakes more than once a minute); a client whose pipe somehow
 * stayed open is now noticed within a minute.
 */
const PARENT_CHECK_MS = 60_000;

/**
 * The watchdog's program. Self-contained like processTreeToolkit: its source text runs in the watchdog process,
 * with the Node modules passed in.
 */
function watchdogMain(
  toolkit: ProcessTreeToolkit,
  childProcess: Pick<typeof import('node:child_process'), 'spawnSync'>,
  strategy: TreeStrategy,
  graceMs: number,
  parentCheckMs: number,
): void {
  const tracked = new Map<string, { pid: number; startedAt: number | undefined }>();
  const parentAtStart = process.ppid;
  let ending = false;

  const each = (name: 'SIGTERM' | 'SIGKILL'): number => {
    let signalled = 0;
    for (const [marker, { pid, startedAt }] of tracked) {
      if (strategy === 'proc-scan') {
        signalled += (
          name === 'SIGTERM'
            ? toolkit.terminate(marker, undefined, startedAt)
            : toolkit.kill(marker, undefined, startedAt)
        ).length;
      } else if (strategy === 'windows') {
        childProcess.spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
      } else {
        try {
          process.kill(-pid, name);
          signalled++;
        } catch {
          // the group is gone
        }
      }
    }
    return signalled;
  };
  const remaining = (): number => {
    if (strategy !== 'proc-scan') return tracked.size;
    let count = 0;
    for (const [marker, { startedAt }] of tracked) count += toolkit.members(marker, undefined, startedAt).length;
    return count;
  };
  const clientGone = (): void => {
    if (ending) return;
    ending = true;
    if (tracked.size === 0 || each('SIGTERM') === 0) {
      each('SIGKILL');
      process.exit(0);
    }
    const deadline = Date.now() + graceMs;
    const poll = setInterval(() => {
      if (remaining() > 0 && Date.now() < deadline) return;
      clearInterval(poll);
      each('SIGKILL');
      process.exit(0);
    }, 50);
  };

  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(name, () => undefined);
  setInterval(() => {
    if (process.ppid !== parentAtStart) clientGone();
  }, parentCheckMs);

  let buffered = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) !== -1) {
      const [command, marker, pid, startedAt] = buffered.slice(0, newline).split(' ');
      buffered = buffered.slice(newline + 1);
      const start = Number(startedAt);
      if (command === 'track' && marker)
        tracked.set(marker, { pid: Number(pid), startedAt: Number.isFinite(start) ? start : undefined });
      else if (command === 'untrack' && marker) tracked.delete(marker);
    }
  });
  process.stdin.on('end', clientGone);
  process.stdin.on('error', clientGone);
}

/** The source the watchdog runs with `node -e`. `__name` stands in for the helper tsx adds to named functions. */
export function watchdogSource(platform: NodeJS.Platform = process.platform): string {
  return [
    '/* mcp-workbench watchdog: ends the stdio servers of its parent when the parent dies */',
    "'use strict';",
    'const __name = (fn) => fn;',
    `const toolkit = (${processTreeToolkit.toString()})(require('fs'));`,
    `(${watchdogMain.toString()})(toolkit, require('child_process'), ${JSON.stringify(treeStrategyFor(platform))}, ${WATCHDOG_GRACE_MS}, ${PARENT_CHECK_MS});`,
  ].join('\n');
}

type WatchdogState =
  | { kind: 'none' }
  | { kind: 'running'; child: ChildProcess; stdin: Socket; startedAt: number }
  /** It failed to start or died young: not retried, so a broken runtime does not spawn in a loop. */
  | { kind: 'failed'; reason: string };

/** The client's side of the watchdog: spawns it on first use and tells it which server trees to guard. */
class Watchdog {
  private state: WatchdogState = { kind: 'none' };
  private readonly trees = new Map<string, { pid: number; startedAt: number | undefined }>();

  /**
   * Guards a server tree from now on. Returns the watchdog's pid, or why there is none (the server then runs
   * without the guarantee for a dying client; stop() still ends its tree).
   */
  track(marker: string, pid: number, startedAt?: number): { pid: number } | { failed: string } {
    this.trees.set(marker, { pid, startedAt });
    const state = this.ensureRunning();
    if (state.kind === 'failed') return { failed: state.reason };
    state.stdin.write(trackLine(marker, pid, startedAt));
    return { pid: state.child.pid as number };
  }

  untrack(marker: string): void {
    if (!this.trees.delete(marker)) return;
    if (this.state.kind === 'running') this.state.stdin.write(`untrack ${marker}\n`);
  }

  /** The watchdog's pid while it runs (tests use it to check it is unreferenced and alive). */
  get pid(): number | undefined {
    return this.state.kind === 'running' ? this.state.child.pid : undefined;
  }

  private ensureRunning(): Exclude<WatchdogState, { kind: 'none' }> {
    if (this.state.kind !== 'none') return this.state;
    const env: NodeJS.ProcessEnv = { ...process.env, ELECTRON_RUN_AS_NODE: '1' }; // the extension host's execPath is Electron
    delete env.NODE_OPTIONS; // no --inspect port clash, no preloaded hooks in the watchdog
    let child: ChildProcess;
    try {
      child = spawn(process.execPath, ['-e', watchdogSource()], {
        stdio: ['pipe', 'ignore', 'ignore'],
        env,
        windowsHide: true,
      });
    } catch (error) {
      this.state = { kind: 'failed', reason: `cannot start the watchdog: ${(error as Error).message}` };
      return this.state;
    }
    const stdin = child.stdin as Socket;
    const running: WatchdogState = { kind: 'running', child, stdin, startedAt: Date.now() };
    this.state = running;
    child.unref();
    stdin.unref();
    stdin.on('error', () => undefined); // it died; 'exit' below decides what next
    child.once('error', (error) => this.onExit(running, `the watchdog failed: ${error.message}`));
    child.once('exit', (code, signal) => this.onExit(running, `the watchdog exited (${signal ?? `code ${code}`})`));
    return running;
  }

  /** It died while the client lives (killed by someone): restart it with every tree, unless it died young. */
  private onExit(previous: WatchdogState, reason: string): void {
    if (this.state !== previous || previous.kind !== 'running') return;
    if (Date.now() - previous.startedAt < 1000) {
      this.state = { kind: 'failed', reason };
      return;
    }
    this.state = { kind: 'none' };
    if (this.trees.size === 0) return;
    const state = this.ensureRunning();
    if (state.kind === 'running')
      for (const [marker, { pid, startedAt }] of this.trees) state.stdin.write(trackLine(marker, pid, startedAt));
  }
}

function trackLine(marker: string, pid: number, startedAt: number | undefined): string {
  return `track ${marker} ${pid}${startedAt === undefined ? '' : ` ${startedAt}`}\n`;
}

/** One watchdog per client process, shared by every stdio server it runs. */
export const serverWatchdog = new Watchdog();
