/**
 * Processes as Linux's /proc shows them, for tests that must prove what is (still) running: shared by the e2e
 * harness, the integration route, and the suites inside the extension host (bundled with them).
 */
import * as fs from 'node:fs';

interface ProcStat {
  /** One letter: R, S, D, Z (zombie), X (dead), ... */
  state: string;
  ppid: number;
  pgrp: number;
}

/** /proc/<pid>/stat, or undefined when the process is gone (or /proc is not there). */
function readStat(pid: number | string): ProcStat | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Format: pid (comm) state ppid pgrp ...; comm may contain spaces and parentheses.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: rest[0] ?? '', ppid: Number(rest[1]), pgrp: Number(rest[2]) };
}

function isZombie(stat: ProcStat): boolean {
  return stat.state === 'Z' || stat.state === 'X';
}

/** Every live (non-zombie) process as [pid, stat]. */
function liveProcesses(): [number, ProcStat][] {
  if (!fs.existsSync('/proc')) return [];
  const found: [number, ProcStat][] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(entry);
    if (stat && !isZombie(stat)) found.push([Number(entry), stat]);
  }
  return found;
}

/** True while a process `pid` exists, a zombie included (signal 0 succeeds). */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** True while `pid` runs: it exists and is not a zombie waiting to be reaped (dead for our purposes). */
export function isRunning(pid: number): boolean {
  if (!pidExists(pid)) return false;
  const stat = readStat(pid);
  return stat !== undefined && !isZombie(stat);
}

/** Every live process (pid) whose process group id is `pgid`. */
export function processesInGroup(pgid: number): number[] {
  return liveProcesses()
    .filter(([, stat]) => stat.pgrp === pgid)
    .map(([pid]) => pid);
}

/** Every live descendant of `pid` (children, grandchildren, ...). */
export function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const [child, stat] of liveProcesses()) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), child]);
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const child of children.get(parent) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** Live (non-zombie) processes whose command line contains every one of `needles`. */
export function processesMatching(...needles: string[]): number[] {
  const found: number[] = [];
  for (const [pid] of liveProcesses()) {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (needles.every((needle) => cmdline.includes(needle))) found.push(pid);
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** Sends `signal` to `pid` (a negative pid: its process group); a process that is already gone is fine. */
export function signalQuietly(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: already gone.
  }
}
