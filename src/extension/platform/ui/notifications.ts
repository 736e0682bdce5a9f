import * as vscode from 'vscode';

export type NotificationSeverity = 'info' | 'warning' | 'error';

export interface ShownNotification {
  severity: NotificationSeverity;
  message: string;
  actions: readonly string[];
}

/** Answers a notification instead of the person (test hooks only): the action's label, or undefined to dismiss. */
export type NotificationAnswerer = (notification: ShownNotification) => string | undefined;

/**
 * The extension's notifications go through here so the integration tests can see what a person would see (how many,
 * their first line) and press an action. Only the test build records or answers: in every other build `notify` never
 * reads it (MCP_WORKBENCH_TEST_BUILD is the literal `false`), so the minifier drops it with the test hooks.
 */
class NotificationRecorder {
  private recorded: ShownNotification[] | undefined;
  answerer: NotificationAnswerer | undefined;

  /** Starts recording (test hooks); every call clears what was recorded so far. */
  startRecording(): void {
    this.recorded = [];
  }

  get shown(): readonly ShownNotification[] {
    return this.recorded ?? [];
  }

  record(notification: ShownNotification): void {
    this.recorded?.push(notification);
  }
}

// Pure: in a build without the test hooks nothing reads it, and the minifier drops the class with it.
export const notificationRecorder = /* @__PURE__ */ new NotificationRecorder();

/** Shows a notification (non-modal) and resolves with the chosen action. */
export function notify(
  severity: NotificationSeverity,
  message: string,
  ...actions: string[]
): Thenable<string | undefined> {
  if (MCP_WORKBENCH_TEST_BUILD) {
    const notification: ShownNotification = { severity, message, actions };
    notificationRecorder.record(notification);
    const answerer = notificationRecorder.answerer;
    if (answerer) return Promise.resolve(answerer(notification));
  }
  switch (severity) {
    case 'info':
      return vscode.window.showInformationMessage(message, ...actions);
    case 'warning':
      return vscode.window.showWarningMessage(message, ...actions);
    case 'error':
      return vscode.window.showErrorMessage(message, ...actions);
    default: {
      const exhaustive: never = severity;
      throw new Error(`unknown notification severity ${String(exhaustive)}`);
    }
  }
}
