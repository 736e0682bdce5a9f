/** Bounded polling, shared by the e2e harness and the suites inside the extension host. */

/**
 * Polls `probe` every `intervalMs` until it returns something other than undefined, and resolves with it; rejects
 * after `timeoutMs` naming `what`.
 */
export async function pollUntil<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs: number, intervalMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
