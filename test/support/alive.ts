import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';

/**
 * True while `pid` names a running process, on any platform. A zombie (ended, not yet reaped: an orphaned
 * grandchild waits for PID 1, which in a container is not always a reaping init) counts as gone, which signal 0
 * alone cannot tell: Linux reads the state from /proc, other POSIX systems from `ps`, Windows has no zombies.
 */
export function isProcessAlive(pid: number, platform: NodeJS.Platform = process.platform): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
    // EPERM: it exists but belongs to someone else; its state is still worth reading.
  }
  if (platform === 'win32') return true;
  return !/^[ZX]/.test(platform === 'linux' ? linuxState(pid) : psState(pid));
}

/** The state letter of /proc/<pid>/stat ('X' when the process is gone meanwhile). */
function linuxState(pid: number): string {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return 'X';
  }
}

/** The state column of `ps` for the process ('X' when ps no longer lists it). */
function psState(pid: number): string {
  const ps = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' });
  if (ps.error) throw ps.error;
  return ps.stdout.trim() || 'X';
}
