/**
 * What of a result goes on screen at once. A result is the server's: a 20 MB text or a 5,000-level structure must
 * neither take seconds to draw nor overflow the stack (JSON.stringify recurses: 5,000 levels are enough to throw
 * "Maximum call stack size exceeded" in the extension host). Text is split into a first screen and the rest (drawn on
 * demand); JSON is printed without recursion, down to a depth and up to a length, saying where it stopped. No vscode
 * import: it runs in unit tests.
 */

/** Characters of one text block drawn at once; the rest waits for "Show more". */
export const FIRST_SCREEN_CHARS = 50_000;
/** Characters each "Show more" adds. */
export const SHOW_MORE_CHARS = 1_000_000;
/** Levels of a JSON value printed; deeper values are replaced by a marker. */
const MAX_JSON_DEPTH = 64;
/** Characters of printed JSON; the rest is cut with a note. */
const MAX_JSON_CHARS = 2_000_000;

interface SplitText {
  first: string;
  /** The rest, empty when the whole text fits on the first screen. */
  rest: string;
}

/** Splits at the limit, never inside a surrogate pair (half an emoji would draw as a replacement character). */
export function splitForFirstScreen(text: string, limit = FIRST_SCREEN_CHARS): SplitText {
  if (text.length <= limit) return { first: text, rest: '' };
  const cut = isHighSurrogate(text.charCodeAt(limit - 1)) ? limit - 1 : limit;
  return { first: text.slice(0, cut), rest: text.slice(cut) };
}

interface PrintedJson {
  text: string;
  /** Values below this many levels were replaced by {@link DEPTH_MARKER}. */
  cutAtDepth?: number;
  /** The text stopped at this many characters. */
  cutAtChars?: number;
}

export const DEPTH_MARKER = '…';

type Frame =
  | { kind: 'array'; items: readonly unknown[]; index: number; depth: number }
  | { kind: 'object'; entries: [string, unknown][]; index: number; depth: number };

/** JSON.stringify(value, null, 2) for what it prints, with an explicit stack instead of recursion, and both caps. */
export function printJson(value: unknown, limits: { maxDepth?: number; maxChars?: number } = {}): PrintedJson {
  const maxDepth = limits.maxDepth ?? MAX_JSON_DEPTH;
  const maxChars = limits.maxChars ?? MAX_JSON_CHARS;
  const parts: string[] = [];
  let length = 0;
  let cutAtDepth: number | undefined;
  const out = (text: string) => {
    parts.push(text);
    length += text.length;
  };
  const stack: Frame[] = [];
  const open = (item: unknown, depth: number) => {
    if (item === null || typeof item !== 'object') {
      out(primitive(item));
      return;
    }
    if (depth >= maxDepth) {
      cutAtDepth = maxDepth;
      out(JSON.stringify(DEPTH_MARKER));
      return;
    }
    if (Array.isArray(item)) {
      if (item.length === 0) return out('[]');
      out('[');
      stack.push({ kind: 'array', items: item, index: 0, depth });
      return;
    }
    const entries = Object.entries(item as Record<string, unknown>).filter(
      ([, v]) => v !== undefined && typeof v !== 'function',
    );
    if (entries.length === 0) return out('{}');
    out('{');
    stack.push({ kind: 'object', entries, index: 0, depth });
  };
  open(value, 0);
  while (stack.length > 0) {
    if (length > maxChars) {
      const text = parts.join('').slice(0, maxChars);
      return { text, cutAtChars: maxChars, ...(cutAtDepth !== undefined ? { cutAtDepth } : {}) };
    }
    const frame = stack[stack.length - 1];
    const size = frame.kind === 'array' ? frame.items.length : frame.entries.length;
    if (frame.index >= size) {
      stack.pop();
      out(`\n${indent(frame.depth)}${frame.kind === 'array' ? ']' : '}'}`);
      continue;
    }
    if (frame.index > 0) out(',');
    out(`\n${indent(frame.depth + 1)}`);
    let item: unknown;
    if (frame.kind === 'array') item = frame.items[frame.index];
    else {
      const [key, entryValue] = frame.entries[frame.index];
      out(`${JSON.stringify(key)}: `);
      item = entryValue;
    }
    frame.index += 1;
    open(item, frame.depth + 1);
  }
  const text = parts.join('');
  if (text.length > maxChars)
    return { text: text.slice(0, maxChars), cutAtChars: maxChars, ...(cutAtDepth !== undefined ? { cutAtDepth } : {}) };
  return { text, ...(cutAtDepth !== undefined ? { cutAtDepth } : {}) };
}

function primitive(value: unknown): string {
  // As JSON.stringify: undefined, functions and symbols in arrays print as null; bigint cannot come from JSON.
  const printed = typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
  return printed === undefined ? 'null' : printed;
}

function indent(depth: number): string {
  return '  '.repeat(depth);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
