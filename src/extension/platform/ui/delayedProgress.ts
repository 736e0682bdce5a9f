/**
 * A progress notification that shows only for a call that takes a while, and never over the review panel. A call that
 * answers within `PROGRESS_DELAY_MS` shows none: a toast for a 22 ms call is noise that lingers after the answer (the
 * first-hour trial, 1.8). While the review panel asks the person something (a sampling request, an elicitation), the
 * toast is closed, as it sat over the panel's policy select; it comes back, with the last progress, when the panel is
 * done and the call still runs. No vscode import: it runs in unit tests (progressNotification.ts opens the toast).
 */

/** How long a call runs before its notification shows. */
export const PROGRESS_DELAY_MS = 500;

export interface ProgressUpdate {
  message?: string;
  /** Percent added since the last update (VS Code's `increment`). */
  increment?: number;
}

/** An open notification: it takes updates and closes once. */
export interface ProgressToast {
  report(update: ProgressUpdate): void;
  close(): void;
}

/** Whether something on screen asks the person now (the review panel), and when that changes. */
export interface AskingSignal {
  readonly asking: boolean;
  onDidChangeAsking(listener: () => void): { dispose(): void };
}

export interface DelayedProgressOptions {
  /** Opens the notification (again, after the panel asked). */
  open(): ProgressToast;
  quiet?: AskingSignal;
  delayMs?: number;
}

export interface DelayedProgress {
  report(update: ProgressUpdate): void;
  /** The call ended: no notification from now on, and the open one closes. */
  done(): void;
}

export function delayedProgress(options: DelayedProgressOptions): DelayedProgress {
  let due = false;
  let ended = false;
  let toast: ProgressToast | undefined;
  let message: string | undefined;
  let percent = 0;
  const update = () => {
    const asking = options.quiet?.asking ?? false;
    if (toast && (asking || ended)) {
      toast.close();
      toast = undefined;
    } else if (!toast && due && !asking && !ended) {
      toast = options.open();
      // A reopened toast starts empty: it is told where the call is.
      if (message !== undefined || percent > 0) toast.report({ message, increment: percent });
    }
  };
  const timer = setTimeout(() => {
    due = true;
    update();
  }, options.delayMs ?? PROGRESS_DELAY_MS);
  const listening = options.quiet?.onDidChangeAsking(update);
  return {
    report(next) {
      if (ended) return;
      if (next.message !== undefined) message = next.message;
      percent = Math.min(100, percent + (next.increment ?? 0));
      toast?.report(next);
    },
    done() {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      listening?.dispose();
      update();
    },
  };
}
