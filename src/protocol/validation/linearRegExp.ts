import { parsePattern } from './regexParser';
import { compileProgram } from './regexVm';

/**
 * Regular expressions from servers (`pattern`, `patternProperties`, `propertyNames`) run on our own linear-time
 * engine (regexParser.ts, regexVm.ts: a Thompson NFA simulated state set by state set, no backtracking), so a
 * catastrophic pattern such as `^(a+)+$` cannot freeze the extension host the way a backtracking `RegExp` would.
 * JSON Schema patterns are ECMAScript regular expressions (with the `u` flag, as ajv compiles them): each pattern
 * is first checked with the native parser (parsing is linear; only matching backtracks), then parsed again by the
 * engine with ECMAScript's meanings (`\s`, `.`, `\b`, classes; `\p{...}` classes ask the native `RegExp` one code
 * point at a time). Lookbehinds run forward in linear time; what cannot (backreferences, lookahead) is reported
 * as an unsupported pattern, never thrown at the caller.
 */

export type CompiledPattern =
  /** `cost`: work per character of subject, in units of 8 engine instructions (1 or 2 for ordinary patterns). */
  { kind: 'linear'; cost: number; test(subject: string): boolean } | { kind: 'unsupported'; reason: string };

/** A server pattern longer than this is not compiled: the engine's program grows with it and no real schema needs it. */
const MAX_PATTERN_LENGTH = 10_000;

/**
 * Linear is not cheap when the program is huge: `(?:[a-z]{1000}){600}` unrolls to 600,000 instructions, each of
 * which may be alive at every character of the subject. A pattern whose repetitions expand past this many steps
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
 * Engine instructions per unit of matching cost. Ordinary patterns (`^[a-z0-9-]+$`: 5 instructions) cost 1 per
 * character; the states alive at a character are bounded by the program, so time per character grows with it
 * in the worst case, and big programs draw on the budget accordingly.
 */
const INSTRUCTIONS_PER_COST_UNIT = 8;

export function compileLinearPattern(pattern: string, budget?: CompileBudget): CompiledPattern {
  const cached = compiledPatterns.get(pattern);
  if (cached) return cached;
  const checked = checkPattern(pattern);
  if (checked.kind === 'unsupported') return remember(pattern, checked);
  if (budget) {
    // Not cached: the same pattern may fit in another schema's budget.
    if (checked.size > budget.remaining)
      return { kind: 'unsupported', reason: "the schema's patterns together exceed the compilation budget" };
    budget.remaining -= checked.size;
  }
  return remember(pattern, compile(pattern));
}

function remember(pattern: string, compiled: CompiledPattern): CompiledPattern {
  if (compiledPatterns.size >= MAX_CACHED_PATTERNS) compiledPatterns.clear();
  compiledPatterns.set(pattern, compiled);
  return compiled;
}

function checkPattern(pattern: string): { kind: 'checked'; size: number } | { kind: 'unsupported'; reason: string } {
  if (pattern.length > MAX_PATTERN_LENGTH)
    return { kind: 'unsupported', reason: `it is longer than ${MAX_PATTERN_LENGTH} characters` };
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    return { kind: 'unsupported', reason: `it is not a valid regular expression (${(error as Error).message})` };
  }
  const size = estimatePatternSize(pattern);
  if (size > MAX_PATTERN_SIZE)
    return {
      kind: 'unsupported',
      reason: `its repetitions expand to about ${size} steps, more than ${MAX_PATTERN_SIZE}`,
    };
  return { kind: 'checked', size };
}

function compile(pattern: string): CompiledPattern {
  try {
    const parsed = parsePattern(pattern);
    if (parsed.kind === 'unsupported') return parsed;
    const compiled = compileProgram(parsed);
    if (compiled.kind === 'unsupported') return compiled;
    const program = compiled.program;
    return {
      kind: 'linear',
      cost: Math.max(1, Math.ceil(program.size / INSTRUCTIONS_PER_COST_UNIT)),
      test: (subject) => program.test(subject),
    };
  } catch (error) {
    // The parser trusts the native parser's verdict on syntax; anything it still trips on is a verdict, not a throw.
    return { kind: 'unsupported', reason: `the linear-time engine cannot evaluate it (${(error as Error).message})` };
  }
}

/**
 * About how many steps the pattern expands to once counted repetitions are unrolled (as the engine compiles them):
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
      i =
        (next === 'p' || next === 'P' || next === 'u') && pattern[i + 2] === '{' ? pattern.indexOf('}', i) + 1 : i + 2;
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
      // The whole quantifier, however long: `{000...0100000}` is 100,000 too.
      const quantifier = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i, pattern.indexOf('}', i) + 1));
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
