/** Summaries that show their spread: a median with the range it came from. */

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** "412 [398–431]": median and min–max of wall ms. */
export function showTimes(values: readonly number[]): string {
  if (values.length === 0) return 'n/a';
  if (values.length === 1) return values[0].toFixed(0);
  return `${median(values).toFixed(0)} [${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}]`;
}

/**
 * Ratios of paired samples (same repetition, so the same moment of the machine's load): a[i] / b[i] for every i
 * both have. Undefined when there is no pair.
 */
export function pairedRatios(a: readonly (number | undefined)[], b: readonly (number | undefined)[]): number[] {
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x !== undefined && y !== undefined && y > 0) ratios.push(x / y);
  }
  return ratios;
}

/** "0.91x [0.85–0.97]": median and min–max of per-repetition ratios. */
export function showRatios(ratios: readonly number[]): string {
  if (ratios.length === 0) return 'n/a';
  if (ratios.length === 1) return `${ratios[0].toFixed(2)}x`;
  return `${median(ratios).toFixed(2)}x [${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}]`;
}

/** The column order of repetition `rep`: rotated by one each time, so no column always follows the same one. */
export function rotated<T>(items: readonly T[], rep: number): T[] {
  const shift = items.length === 0 ? 0 : rep % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}
