import type { ServerSession } from '../../protocol/client';
import type { Tool } from '../../protocol/types';

/** What the automatic restart after a crash is doing: waiting to restart, or given up until a manual start. */
export type CrashRecovery = { kind: 'restarting'; delayMs: number; attempt: number } | { kind: 'gave-up'; reason: string };

/**
 * The life of one configured server as the UI sees it. `error` keeps what the user needs to fix the problem
 * (message and the last stderr lines) until the next start attempt, and after a crash what recovery is doing.
 */
export type ServerState =
  | { kind: 'stopped'; /** Why it is stopped when that is not the user's doing (e.g. untrusted workspace). */ note?: string }
  | { kind: 'starting' }
  | { kind: 'running'; session: ServerSession; tools: readonly Tool[]; /** Process id, for stdio servers. */ pid?: number }
  | { kind: 'error'; message: string; stderrTail: readonly string[]; recovery?: CrashRecovery };

export type ServerStateKind = ServerState['kind'];

export function assertNever(value: never, what: string): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
