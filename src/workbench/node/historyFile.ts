import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { HistoryLog } from '../history/historyLog';
import { parseHistory, serializeHistory } from '../history/historySnapshot';

/**
 * Keeps a HistoryLog in a file, so History survives a window reload (VS Code reloads the window when a second folder
 * is added, for one). Writes come a moment after the last change (a burst of calls is one write), one at a time,
 * through a temporary file and a rename so a crash never leaves half a file, readable by this user only. A file
 * larger than the log's own budget could hold is not read.
 */
export class HistoryFile {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;
  private disposed = false;
  private readonly subscription: { dispose(): void };

  constructor(
    private readonly log: HistoryLog,
    readonly file: string,
    private readonly report: (message: string) => void,
    private readonly delayMs = 1000,
  ) {
    this.subscription = log.onDidChange(() => this.changed());
  }

  /** Puts the file's entries back into the log (older than anything recorded meanwhile). */
  async load(): Promise<void> {
    let text: string;
    try {
      const { size } = await fs.stat(this.file);
      // Results are bounded by the log's budget; twice that covers the operations, outcomes and JSON around them.
      const bound = 2 * this.log.limits.maxTotalResultChars + 4 * 1024 * 1024;
      if (size > bound) {
        this.report(`History from the last window not restored: ${this.file} is ${size} bytes, over ${bound}`);
        return;
      }
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.report(`History from the last window not restored: ${(error as Error).message}`);
      return;
    }
    const { entries, problem } = parseHistory(text);
    if (problem) this.report(`History from the last window: ${problem} (${this.file})`);
    this.log.restore(entries);
  }

  /** Writes what is pending now (at deactivation) and resolves when the file is on disk. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.dirty) this.writing = this.writing.then(() => this.write());
    await this.writing;
  }

  async dispose(): Promise<void> {
    this.subscription.dispose();
    await this.flush();
    this.disposed = true;
  }

  private changed(): void {
    if (this.disposed) return;
    this.dirty = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.writing = this.writing.then(() => this.write());
    }, this.delayMs);
  }

  private async write(): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    const temporary = `${this.file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await fs.mkdir(path.dirname(this.file), { recursive: true });
      await fs.writeFile(temporary, serializeHistory(this.log.entries()), { mode: 0o600 });
      await fs.rename(temporary, this.file);
    } catch (error) {
      await fs.rm(temporary, { force: true }).catch(() => undefined);
      this.report(`History could not be kept for the next window: ${(error as Error).message}`);
    }
  }
}
