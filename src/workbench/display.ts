/**
 * Helpers for showing server-sent text. Names, descriptions and results can be 100 MB long; the UI shows a
 * bounded prefix and says how much was left out, so nothing looks complete that is not.
 */

/**
 * Keeps at most `max` UTF-16 code units of `text` (never splitting a surrogate pair) and appends a marker with
 * the number of characters left out. Text within the limit is returned unchanged.
 */
export function truncateForDisplay(text: string, max: number): string {
  const limit = Math.max(0, Math.floor(max));
  if (text.length <= limit) return text;
  let cut = limit;
  const last = text.charCodeAt(cut - 1);
  if (cut > 0 && last >= 0xd800 && last <= 0xdbff) cut -= 1;
  const omitted = text.length - cut;
  return `${text.slice(0, cut)}… (${omitted.toLocaleString('en-US')} more ${omitted === 1 ? 'character' : 'characters'})`;
}
