/**
 * Splits a command line typed by the user into command and arguments without a shell: double and single quotes
 * group words, and a backslash escapes a quote, a space or another backslash. Any other backslash is kept as typed,
 * so Windows paths like `C:\tools\server.exe` survive. Nothing is expanded: the result goes to `args` verbatim.
 */
export function splitCommandLine(text: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    const next = text[index + 1];
    if (
      char === '\\' &&
      next !== undefined &&
      (next === '"' || next === "'" || next === '\\' || (!quote && /\s/.test(next)))
    ) {
      // Inside single quotes a backslash is literal, as in a POSIX shell.
      if (quote !== "'") {
        current += next;
        index++;
        inWord = true;
        continue;
      }
    }
    if (quote) {
      if (char === quote) quote = undefined;
      else current += char;
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += char;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} quote`);
  if (inWord) words.push(current);
  return words;
}

/** Parses `Name: value` header lines (one per line or separated by `;`), for the HTTP branch of Add Server. */
export function parseHeaderLines(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const part of text.split(/[\n;]/)) {
    const line = part.trim();
    if (!line) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`"${line}" is not "Name: value"`);
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}
