/**
 * Finding and ending every process a stdio server started, however it started them.
 *
 * Why not a process group: the old way was `detached: true`, which calls setsid(). On Linux every session gets
 * its own scheduler autogroup, and a server in another autogroup than its client roughly doubled request latency
 * (2,000 sequential calls: 810 ms with setsid, 469 ms without; here `npm run bench` measured 505 ms against 188 ms,
 * see its "own session" column). The alternatives: Node cannot call setpgid() (a group without a new session);
 * util-linux ships `setsid` but no setpgid tool; `setpriv --pdeathsig` reaches only the direct child; a shell or
 * perl wrapper is not allowed and would be a second interpreter per launch; cgroups need systemd or privileges.
 * So on Linux the server stays in the client's session and group, and its tree is found through /proc instead,
 * by three things every member has (any one suffices):
 *   - a unique marker variable in its environment (`MCP_WORKBENCH_TREE_<hex>=1`); children inherit it, so a
 *     process carrying it belongs to the server even after it daemonised (setsid, double fork, reparented to init),
 *     which a process group kill missed;
 *   - a parent link: every descendant of a member (by parent pid) belongs too, so a child started with a scrubbed
 *     environment is still found while it is attached;
 *   - a tag in a resource limit, for a process that did both (scrubbed its environment and left its parent, as a
 *     double-forking daemon helper started with `env {}` does): the server is launched through util-linux
 *     `prlimit --rttime=<tag>: -- <server>`, which sets the soft RLIMIT_RTTIME to a number unique to this launch
 *     and execs the server in its place (same pid, no process left in between, about a millisecond). Resource
 *     limits are inherited through fork, exec and setsid and survive environment scrubbing and reparenting; only a
 *     process that changes that one limit itself loses it. RLIMIT_RTTIME bounds the CPU time a real-time-scheduled
 *     process may use without blocking; the tag is above 10^15 µs (31 years), and ordinary processes are not
 *     real-time scheduled at all, so it changes nothing for them. `/proc/<pid>/limits` shows it to the scan.
 *     Cost, measured here: the prlimit exec adds about 0.6 ms to a launch (spawnSync of /bin/true: 2.4 ms direct,
 *     3.0 ms through prlimit); the scan reads the limits only of processes younger than the server (none older
 *     can carry its tag), so it costs what the marker-only scan did (about 2 ms for 71 processes; reading every
 *     process's limits made it 3.3 ms). Nothing runs between scans: no polling, in the host or the watchdog.
 * Killing stops (SIGSTOP) the members, rescans until no new member appears (a stopped process cannot fork), then
 * SIGKILLs them all: a forking tree cannot outrun it. Other POSIX systems keep the process group (their schedulers
 * have no autogroups); Windows uses `taskkill /T`.
 *
 * Evaluated and not used: the watchdog observing the tree continuously (recording pid and start time while a
 * process is still attached) cannot see a grandchild whose parent exits within one polling interval of forking
 * it (the orphan fixture does it in milliseconds), and costs a /proc scan per interval; a cgroup needs systemd's
 * D-Bus (`systemd-run --user --scope`, missing in containers and CI) or write access to cgroupfs; a PID namespace
 * (`unshare --user --pid`) needs unprivileged user namespaces, which Ubuntu 24.04 restricts; a child subreaper
 * needs prctl(), which Node does not offer.
 *
 * What is left out, honestly: a process that scrubbed its environment, left its parent AND reset its own
 * RLIMIT_RTTIME (only a deliberate evader does all three); a server launched untagged (no `prlimit` in /usr/bin or
 * /bin, as on Alpine/busybox; a command found only through a relative PATH entry; a hard RLIMIT_RTTIME below the
 * tag), where the first two means apply as before; and processes the server has someone else start (a D-Bus
 * activated service, `systemd-run --user`, a tab in an already-running browser), which are not its descendants.
 *
 * `processTreeToolkit` must stay self-contained (no imports, no outer variables, Node modules passed in): the
 * watchdog (watchdog.ts) runs its source text in a separate Node process.
 */
import type { ChildProcess } from 'node:child_process';
import * as childProcess from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface ProcessTreeToolkit {
  /** The RLIMIT_RTTIME soft limit that tags the tree of `marker` (derived from it, so the watchdog needs no more). */
  tagOf(marker: string): number | undefined;
  /** When the process started, in clock ticks since boot (field 22 of /proc/<pid>/stat), if it is alive. */
  startTimeOf(pid: number): number | undefined;
  /**
   * Live processes of the tree: those whose environment carries `marker` or whose RLIMIT_RTTIME carries its tag,
   * all their descendants, and all descendants of `rootPid` (pass it only while that process is known not to have
   * been reaped). Never this process. `startedAt` (the server's start time) spares the tag check of every process
   * that started before the server: none of them can carry its tag.
   */
  members(marker: string, rootPid?: number, startedAt?: number): number[];
  /** SIGTERM to every member; returns the processes signalled. */
  terminate(marker: string, rootPid?: number, startedAt?: number): SignalledProcess[];
  /** Stops every member, rescans until nothing new appears, then SIGKILLs them; returns the processes killed. */
  kill(marker: string, rootPid?: number, startedAt?: number): SignalledProcess[];
}

/** A process a signal was sent to, with its start time (clock ticks since boot), so a reused pid is not mistaken for it. */
export interface SignalledProcess {
  pid: number;
  startTime: number;
}

export function processTreeToolkit(nodeFs: Pick<typeof fs, 'readdirSync' | 'readFileSync'>): ProcessTreeToolkit {
  /** "pid (comm) state ppid ...": comm may contain spaces and parentheses, so the fields are read after the last ')'. */
  function statFields(stat: string): string[] {
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  }

  function startTimeOf(pid: number): number | undefined {
    try {
      const fields = statFields(nodeFs.readFileSync(`/proc/${pid}/stat`, 'latin1'));
      return fields[0] === 'Z' || fields[0] === 'X' ? undefined : Number(fields[19]);
    } catch {
      return undefined; // gone
    }
  }

  /** Parent pid and start time of every live process (zombies are already dead and cannot be signalled). */
  function liveProcesses(): Map<number, { parent: number; startTime: number }> {
    const processes = new Map<number, { parent: number; startTime: number }>();
    for (const name of nodeFs.readdirSync('/proc')) {
      const pid = Number(name);
      if (!Number.isInteger(pid) || pid <= 0) continue;
      let stat: string;
      try {
        stat = nodeFs.readFileSync(`/proc/${name}/stat`, 'latin1');
      } catch {
        continue; // exited meanwhile
      }
      const fields = statFields(stat);
      if (fields[0] === 'Z' || fields[0] === 'X') continue;
      processes.set(pid, { parent: Number(fields[1]), startTime: Number(fields[19]) });
    }
    return processes;
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

  function tagOf(marker: string): number | undefined {
    // The marker ends in 24 random hex digits; 12 of them (48 bits) keep the tag an exact integer below 2^53.
    const random = /([0-9a-f]{12})$/.exec(marker);
    return random ? 1e15 + parseInt(random[1], 16) : undefined;
  }

  function carriesTag(pid: number, tag: string): boolean {
    let limits: string;
    try {
      limits = nodeFs.readFileSync(`/proc/${pid}/limits`, 'latin1');
    } catch {
      return false; // gone
    }
    // "Max realtime timeout      <soft>     <hard>     us"
    const at = limits.indexOf('Max realtime timeout');
    if (at === -1) return false;
    const soft = limits
      .slice(at + 'Max realtime timeout'.length, limits.indexOf('\n', at))
      .trim()
      .split(/\s+/)[0];
    return soft === tag;
  }

  /** The members with their start times (see `members`). */
  function scan(marker: string, rootPid?: number, startedAt?: number): Map<number, number> {
    const processes = liveProcesses();
    const children = new Map<number, number[]>();
    for (const [pid, { parent }] of processes) {
      const siblings = children.get(parent);
      if (siblings) siblings.push(pid);
      else children.set(parent, [pid]);
    }
    const needle = Buffer.from(`${marker}=`);
    const found = new Map<number, number>();
    const pending: number[] = [];
    const tag = tagOf(marker);
    const tagText = tag === undefined ? undefined : String(tag);
    for (const [pid, { startTime }] of processes) {
      // Reading /proc/<pid>/limits doubled the cost of a scan; a process older than the server cannot carry its tag.
      const olderThanServer = startedAt !== undefined && startTime < startedAt;
      if (carriesMarker(pid, needle) || (tagText !== undefined && !olderThanServer && carriesTag(pid, tagText)))
        pending.push(pid);
    }
    if (rootPid !== undefined && processes.has(rootPid)) pending.push(rootPid);
    while (pending.length > 0) {
      const pid = pending.pop() as number;
      if (found.has(pid) || pid === process.pid) continue;
      found.set(pid, (processes.get(pid) as { startTime: number }).startTime);
      for (const child of children.get(pid) ?? []) pending.push(child);
    }
    return found;
  }

  function members(marker: string, rootPid?: number, startedAt?: number): number[] {
    return [...scan(marker, rootPid, startedAt).keys()];
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
    tagOf,
    startTimeOf,
    members,
    terminate(marker, rootPid, startedAt) {
      const signalled: SignalledProcess[] = [];
      for (const [pid, startTime] of scan(marker, rootPid, startedAt))
        if (signal(pid, 'SIGTERM')) signalled.push({ pid, startTime });
      return signalled;
    },
    kill(marker, rootPid, startedAt) {
      const stopped = new Map<number, number>();
      // Bounded: each round stops every member it sees, so only children forked during the previous scan remain.
      for (let round = 0; round < 50; round++) {
        const fresh = [...scan(marker, rootPid, startedAt)].filter(([pid]) => !stopped.has(pid));
        if (fresh.length === 0) break;
        for (const [pid, startTime] of fresh) if (signal(pid, 'SIGSTOP')) stopped.set(pid, startTime);
      }
      const killed: SignalledProcess[] = [];
      for (const [pid, startTime] of stopped) if (signal(pid, 'SIGKILL')) killed.push({ pid, startTime });
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

/** What to spawn so the server's whole tree carries the tag of `marker` (see the header comment). */
interface TaggedLaunch {
  command: string;
  args: string[];
}

/** util-linux's prlimit at a fixed place: never searched on the server's PATH, which a workspace may set. */
const PRLIMIT_PATHS = ['/usr/bin/prlimit', '/bin/prlimit'];
let prlimitAvailability: { path: string } | { missing: string } | undefined;

/** Where prlimit is, provided this process may give its children the tag (a hard RTTIME limit above it). */
function prlimitForTagging(): { path: string } | { missing: string } {
  if (prlimitAvailability) return prlimitAvailability;
  const found = PRLIMIT_PATHS.find((candidate) => isExecutableFile(candidate));
  if (!found) return (prlimitAvailability = { missing: `no prlimit in ${PRLIMIT_PATHS.join(' or ')}` });
  let hard = '';
  try {
    const limits = fs.readFileSync('/proc/self/limits', 'latin1');
    const at = limits.indexOf('Max realtime timeout');
    hard =
      limits
        .slice(at + 'Max realtime timeout'.length, limits.indexOf('\n', at))
        .trim()
        .split(/\s+/)[1] ?? '';
  } catch {
    // no /proc: leave hard empty
  }
  // Tags lie in [1e15, 1e15 + 2^48); a finite hard limit above that would do, but none is set in practice.
  if (hard !== 'unlimited' && !(Number(hard) >= 1e15 + 2 ** 48)) {
    return (prlimitAvailability = { missing: `the hard RLIMIT_RTTIME is ${hard || 'unknown'}` });
  }
  return (prlimitAvailability = { path: found });
}

function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The executable `spawn` would run, found the way execvp does (a path relative to the server's cwd, otherwise
 * the absolute PATH entries of the server's environment), or undefined: the server is then spawned untagged, so
 * Node itself reports a missing command (through prlimit it would only be an exit code).
 */
function resolveExecutable(command: string, env: NodeJS.ProcessEnv, cwd: string | undefined): string | undefined {
  if (command.includes('/')) {
    const file = path.resolve(cwd ?? process.cwd(), command);
    return isExecutableFile(file) ? file : undefined;
  }
  for (const directory of (env.PATH ?? '').split(':')) {
    if (!path.isAbsolute(directory)) continue;
    const file = path.join(directory, command);
    if (isExecutableFile(file)) return file;
  }
  return undefined;
}

/**
 * The launch that tags the server's tree on Linux: `prlimit --rttime=<tag>: -- <resolved command> <args>`, or why
 * the server runs untagged (it is then found by marker and parent links only).
 */
export function taggedLaunch(
  marker: string,
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string | undefined,
  platform: NodeJS.Platform = process.platform,
): TaggedLaunch | { untagged: string } {
  if (treeStrategyFor(platform) !== 'proc-scan') return { untagged: 'trees are tagged on Linux only' };
  const prlimit = prlimitForTagging();
  if ('missing' in prlimit) return { untagged: prlimit.missing };
  const tag = toolkit().tagOf(marker);
  if (tag === undefined) return { untagged: `the marker ${marker} carries no tag` };
  const executable = resolveExecutable(command, env, cwd);
  if (executable === undefined) return { untagged: `${command} was not found as an executable file` };
  // prlimit execvp()s the path it is given: an absolute one, so it searches nothing again.
  return { command: prlimit.path, args: [`--rttime=${tag}:`, '--', executable, ...args] };
}

let sharedToolkit: ProcessTreeToolkit | undefined;
function toolkit(): ProcessTreeToolkit {
  sharedToolkit ??= processTreeToolkit(fs);
  return sharedToolkit;
}

/** The process tree of one running stdio server, as seen from the client that spawned it. */
export class ServerProcessTree {
  /** The server's start time (clock ticks since boot), read right after the spawn; Linux only. */
  readonly startedAt: number | undefined;

  constructor(
    readonly strategy: TreeStrategy,
    readonly marker: string,
    private readonly child: ChildProcess,
  ) {
    this.startedAt = strategy === 'proc-scan' && child.pid !== undefined ? toolkit().startTimeOf(child.pid) : undefined;
  }

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
    return this.strategy === 'proc-scan' ? toolkit().members(this.marker, this.livePid, this.startedAt) : [];
  }

  private signal(name: 'SIGTERM' | 'SIGKILL'): void {
    const strategy = this.strategy;
    switch (strategy) {
      case 'proc-scan':
        noteEnded(
          name === 'SIGTERM'
            ? toolkit().terminate(this.marker, this.livePid, this.startedAt)
            : toolkit().kill(this.marker, this.livePid, this.startedAt),
        );
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
          childProcess
            .spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true })
            .on('error', () => undefined);
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

/**
 * Processes of server trees this client signalled, until they have left the process table (pid → start time).
 *
 * Why: a process that dies stays in the table as a zombie until its parent reaps it. A grandchild whose parent (the
 * server) died first is reparented to PID 1 (or a subreaper), and an init that reaps lazily leaves it there: measured
 * here, 1–1.3 s after the CLI had ended the whole tree, `kill(pid, 0)` still found the grandchild (the "lives 1–2 s
 * longer" of issue 39). Node cannot become a subreaper (no prctl), so the CLI waits for the reaping instead
 * (`endedProcessesReaped`) before it exits. Bounded: pruned of gone entries whenever it grows past its cap.
 */
const endedProcesses = new Map<number, number>();
const MAX_ENDED_PROCESSES = 1_000;

function noteEnded(signalled: readonly SignalledProcess[]): void {
  for (const { pid, startTime } of signalled) endedProcesses.set(pid, startTime);
  if (endedProcesses.size <= MAX_ENDED_PROCESSES) return;
  for (const [pid, startTime] of endedProcesses) if (!inProcessTable(pid, startTime)) endedProcesses.delete(pid);
  // Still over (an init that never reaps): forget the oldest rather than grow without bound.
  for (const pid of endedProcesses.keys()) {
    if (endedProcesses.size <= MAX_ENDED_PROCESSES) break;
    endedProcesses.delete(pid);
  }
}

/** True while the process is in the table, running or a zombie, and is the one that was signalled (same start). */
function inProcessTable(pid: number, startTime: number): boolean {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return false; // reaped
  }
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]) === startTime;
}

/**
 * Resolves once every process of a server tree this client ended has left the process table (reaped, not only
 * dead), or when `timeoutMs` ran out; returns the pids still there. For a process that is about to exit (the CLI):
 * afterwards no pid of a tree it ran names anything. An init that never reaps costs at most `timeoutMs`.
 * Other platforms than Linux keep no list and resolve at once.
 */
export async function endedProcessesReaped(timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const [pid, startTime] of endedProcesses) if (!inProcessTable(pid, startTime)) endedProcesses.delete(pid);
    if (endedProcesses.size === 0 || Date.now() >= deadline) return [...endedProcesses.keys()];
    // Not unref'd: the caller waits on this, and nothing else may be left to hold its event loop.
    await new Promise((resolve) => setTimeout(resolve, REAP_POLL_MS));
  }
}

const REAP_POLL_MS = 20;
