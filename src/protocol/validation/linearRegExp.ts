import { RE2JS } from 're2js';

/**
 * Regular expressions from servers (`pattern`, `patternProperties`, `propertyNames`) run on RE2JS, a pure
 * JavaScript port of RE2 whose matching time is linear in the input, so a catastrophic pattern such as
 * `^(a+)+$` cannot freeze the extension host the way a backtracking `RegExp` would. JSON Schema patterns are
 * ECMAScript regular expressions (with the `u` flag, as ajv compiles them), so each pattern is first checked
 * with the native parser (parsing is linear; only matching backtracks) and then translated to RE2 syntax with
 * ECMAScript's meaning kept where the two differ (`\s`, `.`, `\u` escapes, `[^]`). What RE2 cannot express
 * (backreferences, lookahead) is reported as an {@link UnsupportedPattern}, never thrown at the caller.
 */

export type CompiledPattern =
  | { kind: 'linear'; test(subject: string): boolean }
  | { kind: 'unsupported'; reason: string };

/** A server pattern longer than this is not compiled: RE2's program grows with it and no real schema needs it. */
export const MAX_PATTERN_LENGTH = 10_000;

/** Compiled patterns by source: tools of one server tend to repeat the same few patterns. */
const compiledPatterns = new Map<string, CompiledPattern>();
const MAX_CACHED_PATTERNS = 1_000;

export function compileLinearPattern(pattern: string): CompiledPattern {
  const cached = compiledPatterns.get(pattern);
  if (cached) return cached;
  const compiled = compileUncached(pattern);
  if (compiledPatterns.size >= MAX_CACHED_PATTERNS) compiledPatterns.clear();
  compiledPatterns.set(pattern, compiled);
  return compiled;
}

function compileUncached(pattern: string): CompiledPattern {
  if (pattern.length > MAX_PATTERN_LENGTH) return { kind: 'unsupported', reason: `it is longer than ${MAX_PATTERN_LENGTH} characters` };
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    return { kind: 'unsupported', reason: `it is not a valid regular expression (${(error as Error).message})` };
  }
  const translated = translateToRe2(pattern);
  if (translated.kind === 'unsupported') return translated;
  try {
    // LOOKBEHINDS: RE2JS evaluates captureless lookbehinds in linear time.
    const compiled = RE2JS.compile(translated.source, RE2JS.LOOKBEHINDS);
    return { kind: 'linear', test: (subject) => compiled.test(subject) };
  } catch (error) {
    return { kind: 'unsupported', reason: `the linear-time engine cannot evaluate it (${(error as Error).message})` };
  }
}

type Translation = { kind: 'translated'; source: string } | { kind: 'unsupported'; reason: string };

/** ECMAScript's WhiteSpace and LineTerminator code points: what `\s` matches in JavaScript (RE2's `\s` is ASCII only). */
const JS_SPACE_RANGES: readonly [number, number][] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const MAX_CODE_POINT = 0x10ffff;

const SPACE_CLASS_BODY = classBody(JS_SPACE_RANGES);
const NON_SPACE_CLASS_BODY = classBody(complement(JS_SPACE_RANGES));
/** `.` in JavaScript matches anything but line terminators; RE2's `.` excludes only `\n`. */
const JS_DOT = '[^\\n\\r\\x{2028}\\x{2029}]';
const ANYTHING_BODY = '\\x{0}-\\x{10FFFF}';

function translateToRe2(pattern: string): Translation {
  let out = '';
  let inClass = false;
  let i = 0;
  const unsupported = (what: string): Translation => ({ kind: 'unsupported', reason: `the linear-time engine does not support ${what}` });
  while (i < pattern.length) {
    const ch = pattern[i];
    if (ch === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || next === 'k') return unsupported('backreferences');
      if (next === '0') {
        out += '\\x{0}';
        i += 2;
      } else if (next === 'u') {
        const escape = readUnicodeEscape(pattern, i);
        out += `\\x{${escape.codePoint.toString(16)}}`;
        i = escape.end;
      } else if (next === 'c') {
        out += `\\x{${(pattern.charCodeAt(i + 2) % 32).toString(16)}}`;
        i += 3;
      } else if (next === 's' || next === 'S') {
        const body = next === 's' ? SPACE_CLASS_BODY : NON_SPACE_CLASS_BODY;
        out += inClass ? body : `[${body}]`;
        i += 2;
      } else if (next === 'b' && inClass) {
        out += '\\x{8}'; // [\b] is a backspace in JavaScript
        i += 2;
      } else if (next === 'p' || next === 'P') {
        const close = pattern.indexOf('}', i);
        const property = pattern.slice(i + 3, close);
        // RE2 names scripts and general categories directly: \p{Greek}, \p{Lu}.
        const value = property.replace(/^(?:Script|sc|General_Category|gc)=/, '');
        if (value.includes('=')) return unsupported(`the Unicode property \\${next}{${property}}`);
        out += `\\${next}{${value}}`;
        i = close + 1;
      } else {
        // \d \w \b \B \n \t \xHH and escaped syntax characters mean the same in both.
        out += `\\${next}`;
        i += 2;
      }
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      // A `[` inside a class is literal in JavaScript but may open a POSIX class ([:alpha:]) in RE2.
      out += ch === '[' ? '\\[' : ch;
      i += 1;
      continue;
    }
    if (ch === '[') {
      if (pattern.startsWith('[^]', i)) {
        out += `[${ANYTHING_BODY}]`;
        i += 3;
      } else if (pattern.startsWith('[]', i)) {
        out += `[^${ANYTHING_BODY}]`;
        i += 2;
      } else {
        inClass = true;
        const negated = pattern[i + 1] === '^';
        out += negated ? '[^' : '[';
        i += negated ? 2 : 1;
        // A leading `]` closes an empty class in JavaScript but is a literal in RE2; the native parser has
        // already rejected `[]...]` shapes that could reach here, so only `[^]`/`[]` need care (above).
      }
      continue;
    }
    if (ch === '(' && pattern[i + 1] === '?') {
      if (pattern[i + 2] === '=' || pattern[i + 2] === '!') return unsupported('lookahead');
    }
    out += ch === '.' ? JS_DOT : ch;
    i += 1;
  }
  return { kind: 'translated', source: out };
}

/** `\uXXXX`, a surrogate pair written as two such escapes, or `\u{X...}`; the native parser has validated the syntax. */
function readUnicodeEscape(pattern: string, start: number): { codePoint: number; end: number } {
  if (pattern[start + 2] === '{') {
    const close = pattern.indexOf('}', start);
    return { codePoint: parseInt(pattern.slice(start + 3, close), 16), end: close + 1 };
  }
  const high = parseInt(pattern.slice(start + 2, start + 6), 16);
  const lowEscape = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(pattern.slice(start + 6, start + 12));
  if (high >= 0xd800 && high <= 0xdbff && lowEscape) {
    const low = parseInt(lowEscape[1], 16);
    return { codePoint: (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000, end: start + 12 };
  }
  return { codePoint: high, end: start + 6 };
}

function complement(ranges: readonly [number, number][]): [number, number][] {
  const result: [number, number][] = [];
  let next = 0;
  for (const [from, to] of ranges) {
    if (from > next) result.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT]);
  return result;
}

function classBody(ranges: readonly [number, number][]): string {
  const hex = (code: number) => `\\x{${code.toString(16)}}`;
  return ranges.map(([from, to]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`)).join('');
}
