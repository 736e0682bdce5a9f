import type { SignInOutcome } from '../../../protocol/auth/oauthAuthorizer';

/** One interactive sign-in the person agreed to, from the consent until its tokens are stored or it failed. */
export interface SignInAttempt {
  readonly serverName: string;
  /** Epoch ms of the consent. */
  readonly startedAt: number;
  /** Settles when the sign-in ends, whatever became of the start that asked for it. */
  readonly outcome: Promise<SignInOutcome>;
}

/**
 * The interactive sign-ins in progress, by server name. A start may give up while the person is still at the
 * authorization server (its request deadline ran out); the sign-in goes on, and what the person finishes later is
 * not lost: Sign In's feedback (signInServer.ts) words the failure as the unfinished sign-in it is, and offers to
 * start the server once the sign-in completes. One instance per extension host: every SignInService and the Sign
 * In command see the same attempts.
 */
export class SignInAttempts {
  private readonly attempts = new Map<string, SignInAttempt & { settle(outcome: SignInOutcome): void }>();

  /** Records the attempt `serverName` begins now; the returned function ends it. */
  begin(serverName: string): (outcome: SignInOutcome) => void {
    let settle!: (outcome: SignInOutcome) => void;
    const outcome = new Promise<SignInOutcome>((resolve) => (settle = resolve));
    const attempt = { serverName, startedAt: Date.now(), outcome, settle };
    this.attempts.get(serverName)?.settle({ kind: 'failed', error: new Error('replaced by a newer sign-in') });
    this.attempts.set(serverName, attempt);
    return (result) => {
      if (this.attempts.get(serverName) === attempt) this.attempts.delete(serverName);
      attempt.settle(result);
    };
  }

  /** The sign-in still in progress for `serverName`, if any. */
  current(serverName: string): SignInAttempt | undefined {
    return this.attempts.get(serverName);
  }
}

export const signInAttempts = new SignInAttempts();
