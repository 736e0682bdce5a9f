/** Bounded polling, shared by the e2e harness and the suites inside the extension host. */

/**
 * The least time any wait gives its condition before it fails. A shorter bound is a guess at how fast a loaded
 * two-core machine is (the VS Code suites share it with the unit tests and the conformance suite), and a wrong guess
 * is a flaky test; a longer one costs time only when the test fails anyway.
 */
export const MIN_WAIT_MS = 30_000;

/**
 * Polls `probe` every `intervalMs` until it returns something other than undefined, and resolves with it; rejects
 * after `timeoutMs` (at least MIN_WAIT_MS) naming `what`.
 */
export async function pollUntil<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  requestedTimeoutMs: number,
  intervalMs: number,
): Promise<T> {
  const timeoutMs = Math.max(requestedTimeoutMs, MIN_WAIT_MS);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
