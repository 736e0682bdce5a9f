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
  /** `cost`: work per character of subject, in units of 8 RE2 instructions (1 or 2 for ordinary patterns). */
  | { kind: 'linear'; cost: number; test(subject: string): boolean }
  | { kind: 'unsupported'; reason: string };

/** A server pattern longer than this is not compiled: RE2's program grows with it and no real schema needs it. */
export const MAX_PATTERN_LENGTH = 10_000;

/**
 * Linear is not cheap when the program is huge: `(?:[a-z]{1000}){600}` is 600,000 RE2 instructions, takes
 * seconds to compile and seconds per 10 KB of subject. A pattern whose repetitions expand past this many steps
 * (see {@link estimatePatternSize}) is not compiled.
 */
export const MAX_PATTERN_SIZE = 10_000;

/** Pattern-compilation work one schema may cause, in the units of {@link estimatePatternSize}. */
export interface CompileBudget {
  remaining: number;
}

/** Compiled patterns by source: tools of one server tend to repeat the same few patterns. */
const compiledPatterns = new Map<string, CompiledPattern>();
const MAX_CACHED_PATTERNS = 1_000;

/**
 * RE2 instructions per unit of matching cost. Ordinary patterns (`^[a-z0-9-]+$`: 6 instructions) cost 1 per
 * character; when RE2JS falls back from its DFA to the NFA, time per character grows with the program (700
 * instructions measured at ~20 µs per character), so big programs draw on the budget accordingly.
 */
const INSTRUCTIONS_PER_COST_UNIT = 8;

export function compileLinearPattern(pattern: string, budget?: CompileBudget): CompiledPattern {
  const cached = compiledPatterns.get(pattern);
  if (cached) return cached;
  const checked = checkPattern(pattern);
  if (checked.kind === 'unsupported') return remember(pattern, checked);
  if (budget) {
    // Not cached: the same pattern may fit in another schema's budget.
    if (checked.size > budget.remaining) return { kind: 'unsupported', reason: "the schema's patterns together exceed the compilation budget" };
    budget.remaining -= checked.size;
  }
  return remember(pattern, compileRe2(checked.source));
}

function remember(pattern: string, compiled: CompiledPattern): CompiledPattern {
  if (compiledPatterns.size >= MAX_CACHED_PATTERNS) compiledPatterns.clear();
  compiledPatterns.set(pattern, compiled);
  return compiled;
}

function checkPattern(pattern: string): { kind: 'checked'; source: string; size: number } | { kind: 'unsupported'; reason: string } {
  if (pattern.length > MAX_PATTERN_LENGTH) return { kind: 'unsupported', reason: `it is longer than ${MAX_PATTERN_LENGTH} characters` };
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    return { kind: 'unsupported', reason: `it is not a valid regular expression (${(error as Error).message})` };
  }
  const size = estimatePatternSize(pattern);
  if (size > MAX_PATTERN_SIZE) return { kind: 'unsupported', reason: `its repetitions expand to about ${size} steps, more than ${MAX_PATTERN_SIZE}` };
  const translated = translateToRe2(pattern);
  if (translated.kind === 'unsupported') return translated;
  return { kind: 'checked', source: translated.source, size };
}

function compileRe2(source: string): CompiledPattern {
  try {
    // LOOKBEHINDS: RE2JS evaluates captureless lookbehinds in linear time.
    const compiled = RE2JS.compile(source, RE2JS.LOOKBEHINDS);
    const instructions = (compiled.re2().prog as { numInst(): number }).numInst();
    return { kind: 'linear', cost: Math.max(1, Math.ceil(instructions / INSTRUCTIONS_PER_COST_UNIT)), test: (subject) => compiled.test(subject) };
  } catch (error) {
    return { kind: 'unsupported', reason: `the linear-time engine cannot evaluate it (${(error as Error).message})` };
  }
}

/**
 * About how many steps the pattern expands to once counted repetitions are unrolled (as RE2 compiles them):
 * each atom, class or group counts 1, and `{n,m}` multiplies what it repeats by m. Only an estimate, for
 * refusing `(?:[a-z]{1000}){600}`-shaped patterns before compiling them; the pattern is already valid syntax.
 */
export function estimatePatternSize(pattern: string): number {
  const frames: { size: number; last: number }[] = [{ size: 0, last: 0 }];
  const top = () => frames[frames.length - 1];
  const atom = (size: number) => {
    top().size += size;
    top().last = size;
  };
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i];
    if (ch === '\\') {
      const next = pattern[i + 1];
      i = (next === 'p' || next === 'P' || next === 'u') && pattern[i + 2] === '{' ? pattern.indexOf('}', i) + 1 : i + 2;
      atom(1);
    } else if (ch === '[') {
      i = endOfClass(pattern, i);
      atom(1);
    } else if (ch === '(') {
      frames.push({ size: 1, last: 0 });
      i += 1;
    } else if (ch === ')') {
      const group = frames.length > 1 ? (frames.pop() as { size: number }) : { size: 1 };
      atom(group.size);
      i += 1;
    } else if (ch === '{') {
      const quantifier = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i, i + 40));
      if (quantifier) {
        const low = Number(quantifier[1]);
        const high = quantifier[2] === undefined ? low : quantifier[3] === '' ? low + 1 : Number(quantifier[3]);
        const times = Math.max(1, high);
        top().size += top().last * (times - 1);
        top().last *= times;
        i += quantifier[0].length;
      } else {
        atom(1);
        i += 1;
      }
    } else {
      atom(1);
      i += 1;
    }
  }
  return frames.reduce((sum, frame) => sum + frame.size, 0);
}

/** Index after the `]` that closes the class opened at `start` (in JavaScript the first unescaped `]`). */
function endOfClass(pattern: string, start: number): number {
  let i = start + 1;
  while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
  return i + 1;
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
