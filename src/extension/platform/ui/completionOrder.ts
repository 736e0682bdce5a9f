/**
 * The rows of a completion pick, in order. What the person typed is always a row ("use this value"), so free text
 * stays possible; but when exactly one suggestion continues what was typed ("E" → "Engineering"), that suggestion
 * comes first and Enter takes it: the person typed the start of it, and a later argument's completions may depend
 * on the exact value. No vscode import: it runs in unit tests.
 */
type CompletionRow = { kind: 'typed'; value: string } | { kind: 'suggested'; value: string };

export function completionRows(typed: string, suggestions: readonly string[]): CompletionRow[] {
  const suggested = suggestions.map((value): CompletionRow => ({ kind: 'suggested', value }));
  if (typed === '' || suggestions.includes(typed)) return suggested;
  const own: CompletionRow = { kind: 'typed', value: typed };
  const continuing = suggestions.filter((value) => value.toLowerCase().startsWith(typed.toLowerCase()));
  return continuing.length === 1
    ? [...suggested, own].sort((a, b) => rank(a, continuing[0]) - rank(b, continuing[0]))
    : [own, ...suggested];
}

/**
 * The row Enter takes, which the pick highlights: the first of `completionRows`, except that a suggestion equal to the
 * typed text is that suggestion. It has to be set as the pick's active row: VS Code's quick pick sorts the rows by how
 * well their labels match the typed text, so the typed "E" (an exact match) was drawn and highlighted above
 * "Engineering", and Enter took "E" (the first-hour trial, 2.17).
 */
export function enterRow(typed: string, suggestions: readonly string[]): CompletionRow | undefined {
  if (suggestions.includes(typed)) return { kind: 'suggested', value: typed };
  return completionRows(typed, suggestions)[0];
}

/** The one continuing suggestion first, then the typed text, then the other suggestions in the server's order. */
function rank(row: CompletionRow, continuing: string): number {
  if (row.kind === 'suggested' && row.value === continuing) return 0;
  return row.kind === 'typed' ? 1 : 2;
}
