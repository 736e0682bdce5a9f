import { errorMessage } from '../../../protocol/errors';

// What the controller reads of a launch without loading the launcher: serverLauncher.ts, and with it the client and
// its transports, is imported (`await import`) by the first start, not when the extension loads (esbuild.js).

/** A start that failed, with what the controller needs to word it and to decide on a restart. */
export class LaunchFailure extends Error {
  override readonly name = 'LaunchFailure';
  constructor(
    override readonly cause: unknown,
    /** The server was launched (a crash for automatic restarts); failures before are configuration problems. */
    readonly launched: boolean,
    /** A silent start found that the server requires signing in. */
    readonly signInNeeded: boolean,
  ) {
    super(errorMessage(cause));
  }
}

/** Thrown by a launch whose start the person declined at the first-start confirmation. */
export class LaunchDeclinedError extends Error {
  override readonly name = 'LaunchDeclinedError';
}

/** Names only for a short list: a line naming 50,000 tools costs memory and makes the log unreadable. */
const TOOL_NAMES_LOGGED = 20;

export function toolCountSummary(tools: readonly { name: string }[]): string {
  if (tools.length === 0) return '0 (none)';
  if (tools.length > TOOL_NAMES_LOGGED) return `${tools.length}`;
  return `${tools.length} (${tools.map((tool) => tool.name).join(', ')})`;
}
