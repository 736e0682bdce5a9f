import * as vscode from 'vscode';
import type { ServerSession } from '../../../protocol/client';
import type { ErrorDetail } from '../../../protocol/errors';
import type { Tool } from '../../../protocol/types';

/** What the automatic restart after a crash is doing: waiting to restart, or given up until a manual start. */
export type CrashRecovery =
  { kind: 'restarting'; delayMs: number; attempt: number } | { kind: 'gave-up'; reason: string };

/**
 * The life of one configured server as the UI sees it. `error` keeps what the user needs to fix the problem
 * (message and the last stderr lines) until the next start attempt, and after a crash what recovery is doing.
 */
export type ServerState =
  | {
      kind: 'stopped';
      /** Why it is stopped when that is not the user's doing (e.g. untrusted workspace), in words. */
      note?: string;
      /** The same as a fact, so the note can be withdrawn when the cause goes away (trust granted). */
      cause?: 'workspace-untrusted' | 'declined';
    }
  | {
      kind: 'starting';
      /** The start waits for the person's answer to the first-start consent, not for the server (the row says so). */
      waitingFor?: 'consent';
    }
  /** An HTTP server answered that it needs OAuth sign-in and no usable token is stored: Sign In applies. */
  | { kind: 'signInRequired' }
  | {
      kind: 'running';
      session: ServerSession;
      tools: readonly Tool[];
      /** Process id, for stdio servers. */ pid?: number;
    }
  /** `message`: the error's English (masked), for the log; `detail`: what it is about, to word it for a person (coreErrors.ts). */
  | { kind: 'error'; message: string; detail?: ErrorDetail; stderrTail: readonly string[]; recovery?: CrashRecovery };

export type ServerStateKind = ServerState['kind'];

/** The questions every feature asks of a state, answered in one place (`ServerState.canStart(controller.state)`). */
export const ServerState = {
  /** Nothing runs or is on its way: Start applies, and expanding the server in the tree starts it. */
  canStart: (state: ServerState): boolean =>
    state.kind === 'stopped' || state.kind === 'error' || state.kind === 'signInRequired',
  /** A connection exists or is being made: Stop has something to end. */
  isActive: (state: ServerState): boolean => state.kind === 'starting' || state.kind === 'running',
  /** Restart applies to anything but a server the user stopped (a failed one restarts too). */
  canRestart: (state: ServerState): boolean => state.kind !== 'stopped',
  isRunning: (state: ServerState): state is Extract<ServerState, { kind: 'running' }> => state.kind === 'running',
  /** The short word the tree and the server picker show ("running", or why it is stopped). */
  label(state: ServerState): string {
    switch (state.kind) {
      case 'stopped':
        return state.note ?? vscode.l10n.t('stopped');
      case 'starting':
        return state.waitingFor === 'consent' ? vscode.l10n.t('waiting for your answer') : vscode.l10n.t('starting');
      case 'running':
        return vscode.l10n.t('running');
      case 'error':
        return vscode.l10n.t('error');
      case 'signInRequired':
        return vscode.l10n.t('Sign in required');
      default:
        return assertNever(state, 'server state');
    }
  },
} as const;

export function assertNever(value: never, what: string): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
