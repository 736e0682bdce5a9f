/**
 * Finding and ending every process a stdio server started, however it started them.
 *
 * Why not a process group: the old way was `detached: true`, which calls setsid(). On Linux every session gets
 * its own scheduler autogroup, and a server in another autogroup than its client roughly doubled request latency
 * (2,000 sequential calls: 810 ms with setsid, 469 ms without; here `npm run bench` measured 505 ms against 188 ms,
 * see its "own session" column). The alternatives: Node cannot call setpgid() (a group without a new session);
 * util-linux ships `setsid` but no setpgid tool; `setpriv --pdeathsig` reaches only the direct child; a shell or
 * perl wrapper is not allowed and would be a second interpreter per launch; cgroups need systemd or privileges.
 * So on Linux the server stays in the client's session and group, and its tree is found through /proc instead:
 *   - every server gets a unique marker variable in its environment (`MCP_WORKBENCH_TREE_<hex>=1`); children
 *     inherit it, so a process carrying it belongs to the server even after it daemonised (setsid, double fork,
 *     reparented to init), which a process group kill missed;
 *   - every descendant of a marked process (by parent pid) belongs too, so a child started with a scrubbed
 *     environment is still found while it is attached.
 * Killing stops (SIGSTOP) the members, rescans until no new member appears (a stopped process cannot fork), then
 * SIGKILLs them all: a forking tree cannot outrun it. Other POSIX systems keep the process group (their schedulers
 * have no autogroups); Windows uses `taskkill /T`. What is left out: a process that both scrubbed its environment
 * and left its parent is not found (nor was it by a group kill once it called setsid).
 *
 * `processTreeToolkit` must stay self-contained (no imports, no outer variables, Node modules passed in): the
 * watchdog (watchdog.ts) runs its source text in a separate Node process.
 */
import type { ChildProcess } from 'node:child_process';
import * as childProcess from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';

export interface ProcessTreeToolkit {
  /**
   * Live processes of the tree: those whose environment carries `marker`, all their descendants, and all
   * descendants of `rootPid` (pass it only while that process is known not to have been reaped). Never this process.
   */
  members(marker: string, rootPid?: number): number[];
  /** SIGTERM to every member; returns how many were signalled. */
  terminate(marker: string, rootPid?: number): number;
  /** Stops every member, rescans until nothing new appears, then SIGKILLs them; returns how many were killed. */
  kill(marker: string, rootPid?: number): number;
}

export function processTreeToolkit(nodeFs: Pick<typeof fs, 'readdirSync' | 'readFileSync'>): ProcessTreeToolkit {
  /** Parent pid of every live process (zombies are already dead and cannot be signalled). */
  function parentsOfLiveProcesses(): Map<number, number> {
    const parents = new Map<number, number>();
    for (const name of nodeFs.readdirSync('/proc')) {
      const pid = Number(name);
      if (!Number.isInteger(pid) || pid <= 0) continue;
      let stat: string;
      try {
        stat = nodeFs.readFileSync(`/proc/${name}/stat`, 'latin1');
      } catch {
        continue; // exited meanwhile
      }
      // "pid (comm) state ppid ...": comm may contain spaces and parentheses, so read after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z' || fields[0] === 'X') continue;
      parents.set(pid, Number(fields[1]));
    }
    return parents;
  }

  function carriesMarker(pid: number, needle: Buffer): boolean {
    let environment: Buffer;
    try {
      environment = nodeFs.readFileSync(`/proc/${pid}/environ`);
    } catch {
      return false; // another user's process, or gone
    }
    for (let at = environment.indexOf(needle); at !== -1; at = environment.indexOf(needle, at + 1)) {
      if (at === 0 || environment[at - 1] === 0) return true;
    }
    return false;
  }

  function members(marker: string, rootPid?: number): number[] {
    const parents = parentsOfLiveProcesses();
    const children = new Map<number, number[]>();
    for (const [pid, parent] of parents) {
      const siblings = children.get(parent);
      if (siblings) siblings.push(pid);
      else children.set(parent, [pid]);
    }
    const needle = Buffer.from(`${marker}=`);
    const found = new Set<number>();
    const pending: number[] = [];
    for (const pid of parents.keys()) if (carriesMarker(pid, needle)) pending.push(pid);
    if (rootPid !== undefined && parents.has(rootPid)) pending.push(rootPid);
    while (pending.length > 0) {
      const pid = pending.pop() as number;
      if (found.has(pid) || pid === process.pid) continue;
      found.add(pid);
      for (const child of children.get(pid) ?? []) pending.push(child);
    }
    return [...found];
  }

  function signal(pid: number, name: NodeJS.Signals): boolean {
    try {
      process.kill(pid, name);
      return true;
    } catch {
      return false; // gone meanwhile
    }
  }

  return {
    members,
    terminate(marker, rootPid) {
      let signalled = 0;
      for (const pid of members(marker, rootPid)) if (signal(pid, 'SIGTERM')) signalled++;
      return signalled;
    },
    kill(marker, rootPid) {
      const stopped = new Set<number>();
      // Bounded: each round stops every member it sees, so only children forked during the previous scan remain.
      for (let round = 0; round < 50; round++) {
        const fresh = members(marker, rootPid).filter((pid) => !stopped.has(pid));
        if (fresh.length === 0) break;
        for (const pid of fresh) if (signal(pid, 'SIGSTOP')) stopped.add(pid);
      }
      let killed = 0;
      for (const pid of stopped) if (signal(pid, 'SIGKILL')) killed++;
      return killed;
    },
  };
}

/** How a server's process tree is found and ended on this platform (see the header comment). */
export type TreeStrategy = 'proc-scan' | 'process-group' | 'windows';

export function treeStrategyFor(platform: NodeJS.Platform): TreeStrategy {
  switch (platform) {
    case 'linux':
    case 'android':
      return 'proc-scan';
    case 'win32':
      return 'windows';
    default:
      return 'process-group';
  }
}

/** A fresh marker variable name for one server launch. */
export function newTreeMarker(): string {
  return `MCP_WORKBENCH_TREE_${randomBytes(12).toString('hex')}`;
}

let sharedToolkit: ProcessTreeToolkit | undefined;
function toolkit(): ProcessTreeToolkit {
  sharedToolkit ??= processTreeToolkit(fs);
  return sharedToolkit;
}

/** The process tree of one running stdio server, as seen from the client that spawned it. */
export class ServerProcessTree {
  constructor(
    readonly strategy: TreeStrategy,
    readonly marker: string,
    private readonly child: ChildProcess,
  ) {}

  /** The server's own process, only while Node has not reaped it (so its pid cannot have been reused). */
  private get livePid(): number | undefined {
    const { child } = this;
    return child.pid !== undefined && child.exitCode === null && child.signalCode === null ? child.pid : undefined;
  }

  /** Asks every process of the tree to end. */
  terminate(): void {
    this.signal('SIGTERM');
  }

  /** Ends every process of the tree now; also the way to reap what outlived the server's own process. */
  kill(): void {
    this.signal('SIGKILL');
  }

  /** Processes of the tree still alive; only knowable on Linux (empty elsewhere). */
  members(): number[] {
    return this.strategy === 'proc-scan' ? toolkit().members(this.marker, this.livePid) : [];
  }

  private signal(name: 'SIGTERM' | 'SIGKILL'): void {
    const strategy = this.strategy;
    switch (strategy) {
      case 'proc-scan':
        if (name === 'SIGTERM') toolkit().terminate(this.marker, this.livePid);
        else toolkit().kill(this.marker, this.livePid);
        return;
      case 'process-group': {
        if (this.child.pid === undefined) return;
        try {
          process.kill(-this.child.pid, name); // the group outlives its leader while members remain
        } catch {
          if (this.livePid !== undefined) this.child.kill(name);
        }
        return;
      }
      case 'windows': {
        const pid = this.livePid;
        if (pid === undefined) return;
        if (name === 'SIGKILL') {
          // /T reaches the children (npx → node → server); Windows has no signal a console server could ignore.
          childProcess.spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => undefined);
        }
        this.child.kill(name);
        return;
      }
      default: {
        const exhaustive: never = strategy;
        throw new Error(`unknown tree strategy ${String(exhaustive)}`);
      }
    }
  }
}
