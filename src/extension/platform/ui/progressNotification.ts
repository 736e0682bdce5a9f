import * as vscode from 'vscode';
import { delayedProgress, type AskingSignal, type DelayedProgress, type ProgressToast } from './delayedProgress';

/**
 * A cancellable progress notification for a call that has no page of its own to show progress on, shown only once the
 * call takes a while and not while the review panel asks (delayedProgress.ts). Cancel in the toast calls `cancel`.
 */
export function callProgressNotification(title: string, cancel: () => void, quiet?: AskingSignal): DelayedProgress {
  return delayedProgress({ open: () => openToast(title, cancel), quiet });
}

function openToast(title: string, cancel: () => void): ProgressToast {
  let close: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (close = resolve));
  let progress: vscode.Progress<{ message?: string; increment?: number }> | undefined;
  const early: { message?: string; increment?: number }[] = [];
  void vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    (shown, token) => {
      progress = shown;
      for (const update of early.splice(0)) shown.report(update);
      const subscription = token.onCancellationRequested(cancel);
      return closed.finally(() => subscription.dispose());
    },
  );
  return {
    report: (update) => (progress ? progress.report(update) : early.push(update)),
    close,
  };
}
