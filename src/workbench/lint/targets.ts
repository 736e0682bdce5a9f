/** How much of a server's text a finding quotes: a 1 MB name or $ref is not worth printing. */
export const QUOTE_CHARS = 120;

export type LintTargetKind = 'tool' | 'prompt' | 'template';

/**
 * What a finding is about, as its `target` says it (`tool:<name>`, …). On its own: the Servers view looks findings up
 * by it from start-up, before the rules load with a server's first lint.
 */
export function targetOf(kind: LintTargetKind, name: string): string {
  return `${kind}:${name.length > QUOTE_CHARS ? `${name.slice(0, QUOTE_CHARS)}…` : name}`;
}
