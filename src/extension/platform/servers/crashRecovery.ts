import type * as vscode from 'vscode';
import { RestartPolicy, type GiveUp, type RestartDecision } from '../../../workbench/lifecycle/restartPolicy';
import type { CrashRecovery } from './serverState';

/**
 * Crash recovery of one server: the restart policy (exponential backoff, give up after too many crashes) and the
 * one scheduled restart. The controller reports what happened; this decides and schedules, and says so in the log.
 */
export class CrashRestarts {
  private readonly policy: RestartPolicy;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly log: Pick<vscode.LogOutputChannel, 'warn' | 'error'>,
    /** Starts the server again (a restart, not a person's start: crash recovery carries on). */
    private readonly restart: () => void,
    /** Tells the person that automatic restarts stopped (a background event, so no caller can report it). */
    private readonly gaveUp: (giveUp: GiveUp) => void,
    policy: RestartPolicy | undefined,
  ) {
    this.policy = policy ?? new RestartPolicy();
  }

  /** A start from outside (the person, auto-start, a config change): the person has taken over. */
  reset(): void {
    this.cancel();
    this.policy.reset();
  }

  /** The server came up: a later crash counts from here. */
  started(now: number): void {
    this.policy.recordStarted(now);
  }

  /** A server that was launched failed to start; undefined when it has not run since the last manual start. */
  startFailed(now: number): CrashRecovery | undefined {
    const decision = this.policy.recordStartFailure(now);
    return decision ? this.carryOut(decision) : undefined;
  }

  /** The running server went away on its own. */
  crashed(now: number): CrashRecovery {
    return this.carryOut(this.policy.recordCrash(now));
  }

  /** No scheduled restart runs (a stop, a start from outside, the controller's end). */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private carryOut(decision: RestartDecision): CrashRecovery {
    switch (decision.kind) {
      case 'give-up':
        this.log.error(`Not restarting: ${decision.reason}`);
        this.gaveUp(decision.giveUp);
        return { kind: 'gave-up', reason: decision.reason };
      case 'restart':
        this.log.warn(`Restarting in ${decision.delayMs} ms (crash ${decision.attempt})`);
        this.cancel();
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.restart();
        }, decision.delayMs);
        return { kind: 'restarting', delayMs: decision.delayMs, attempt: decision.attempt };
      default: {
        const exhaustive: never = decision;
        return exhaustive;
      }
    }
  }
}
