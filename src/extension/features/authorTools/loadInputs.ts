/**
 * What the Load Test… inputs accept, without vscode (unit-tested): the arguments as a JSON object, the concurrency as a
 * whole number in range, and the length as a duration (`10s`) or a number of calls (`500`).
 */

/** The most calls a load test keeps outstanding: past it, the editor's own host would be the bottleneck. */
export const MAX_CONCURRENCY = 1000;
/** The longest run the input accepts: a day. */
const MAX_DURATION_S = 24 * 3600;
const MAX_REQUESTS = 100_000_000;

/** A JSON object, or undefined for anything else (an array, a string, text that does not parse). */
export function parseArgsObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A whole number from 1 to `max` written in digits only, or undefined. */
export function wholeNumber(text: string, max: number): number | undefined {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value >= 1 && value <= max ? value : undefined;
}

/** How long the run lasts: `10s` (a duration, up to a day) or `500` (a number of calls), or undefined. */
export function parseEnd(text: string): { durationMs: number } | { requests: number } | undefined {
  const trimmed = text.trim();
  const seconds = /^(\d+(?:\.\d+)?)\s*s$/i.exec(trimmed);
  if (seconds) {
    const value = Number(seconds[1]);
    return value > 0 && value <= MAX_DURATION_S ? { durationMs: value * 1000 } : undefined;
  }
  const requests = wholeNumber(trimmed, MAX_REQUESTS);
  return requests === undefined ? undefined : { requests };
}
