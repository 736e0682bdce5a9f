/**
 * Server text (stderr lines, names) reaches a terminal: control characters other than tab are shown escaped so a
 * server cannot move the cursor, recolour or rewrite what the person reads.
 */
export function printable(text: string): string {
  return text.replace(
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
