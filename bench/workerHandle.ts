/** The orchestrator's side of bench/worker.ts: start a column's process, ask it for samples, close it. */
import { fork, type ChildProcess } from 'node:child_process';
import type { FromWorker, ToWorker, WorkerSpec } from './worker';
import type { WorkloadId } from './workloads';

export interface Sample {
  wall: number;
  cpu: number;
}

export class WorkerHandle {
  private next: ((message: FromWorker) => void) | undefined;
  private exited: string | undefined;

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (message: FromWorker) => this.deliver(message));
    child.once('exit', (code, signal) => {
      this.exited = `the worker exited (${signal ?? code})`;
      this.deliver({ type: 'failed', error: this.exited });
    });
  }

  /** Starts a worker from the bundled script; rejects with the worker's reason if its client cannot start. */
  static async start(script: string, spec: WorkerSpec): Promise<WorkerHandle> {
    // Warnings are printed by the worker itself (bench/worker.ts: the SDK clients' MaxListenersExceededWarning, once
    // per socket, was thousands of lines between the tables).
    const child = fork(script, [JSON.stringify(spec)], {
      execArgv: ['--no-warnings'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const handle = new WorkerHandle(child);
    const first = await handle.reply();
    if (first.type !== 'ready') {
      handle.kill();
      throw new Error(first.type === 'failed' ? first.error : `unexpected ${first.type}`);
    }
    return handle;
  }

  async run(workload: WorkloadId): Promise<Sample> {
    const answer = this.ask({ type: 'run', workload });
    const message = await answer;
    switch (message.type) {
      case 'sample':
        return { wall: message.wall, cpu: message.cpu };
      case 'failed':
        throw new Error(message.error);
      case 'ready':
        throw new Error('the worker said ready twice');
    }
  }

  async close(): Promise<void> {
    if (this.exited !== undefined) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.send({ type: 'close' } satisfies ToWorker);
    const timer = setTimeout(() => this.kill(), 10_000);
    await gone;
    clearTimeout(timer);
  }

  private kill(): void {
    if (this.exited === undefined) this.child.kill('SIGKILL');
  }

  private ask(message: ToWorker): Promise<FromWorker> {
    if (this.exited !== undefined) return Promise.resolve({ type: 'failed', error: this.exited });
    const reply = this.reply();
    this.child.send(message);
    return reply;
  }

  private reply(): Promise<FromWorker> {
    return new Promise((resolve) => (this.next = resolve));
  }

  private deliver(message: FromWorker): void {
    const next = this.next;
    this.next = undefined;
    next?.(message);
  }
}
