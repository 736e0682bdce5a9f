import type { Disposable } from '../disposable';
import type { RequiredUrlElicitation } from '../eras/era';
import type { ElicitationHandler } from '../host';
import type { PersonWaits } from '../jsonrpc/personWaits';

const DEFAULT_URL_ELICITATION_TIMEOUT_MS = 10 * 60_000;

/**
 * URL elicitations a request needs before the server serves it (handshake era, error -32042). They go through the
 * same consent flow as elicitation/create; the person only agrees to open the page, and the server says with
 * notifications/elicitation/complete when the out-of-band step is done.
 */
export class UrlElicitations implements Disposable {
  private readonly pending = new Map<string, (completed: boolean) => void>();

  constructor(
    private readonly serverName: string,
    private readonly elicitation: ElicitationHandler | undefined,
    private readonly personWaits: PersonWaits,
    private readonly timeoutMs = DEFAULT_URL_ELICITATION_TIMEOUT_MS,
  ) {}

  /** The server says an out-of-band step is done (unknown ids are ignored). */
  completed(elicitationId: string): void {
    this.pending.get(elicitationId)?.(true);
  }

  /** True when the person accepted every one and the server completed each; false leaves the original error standing. */
  async completeAll(
    elicitations: readonly RequiredUrlElicitation[],
    signal: AbortSignal | undefined,
  ): Promise<boolean> {
    const elicitation = this.elicitation;
    if (!elicitation?.modes.includes('url')) return false;
    const context = { serverName: this.serverName, signal: signal ?? new AbortController().signal };
    for (const item of elicitations) {
      const message = item.message ?? `${this.serverName} needs you to open a URL`;
      const completed = this.waitForComplete(item.elicitationId, context.signal);
      // The person reads and decides: the connection's deadlines wait meanwhile.
      const answer = await this.personWaits.during(() =>
        elicitation.elicit({ mode: 'url', message, url: item.url, elicitationId: item.elicitationId }, context),
      );
      if (answer.action !== 'accept') {
        completed.cancel();
        return false;
      }
      if (!(await completed.done)) return false;
    }
    return true;
  }

  dispose(): void {
    for (const settle of [...this.pending.values()]) settle(false);
    this.pending.clear();
  }

  private waitForComplete(elicitationId: string, signal: AbortSignal): { done: Promise<boolean>; cancel(): void } {
    let finish!: (completed: boolean) => void;
    const done = new Promise<boolean>((resolve) => (finish = resolve));
    const timer = setTimeout(() => settle(false), this.timeoutMs);
    const onAbort = () => settle(false);
    const settle = (completed: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      this.pending.delete(elicitationId);
      finish(completed);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    this.pending.set(elicitationId, settle);
    return { done, cancel: () => settle(false) };
  }
}
