import {
  CharMatchers,
  complementRanges,
  DIGIT_RANGES,
  LINE_TERMINATOR_RANGES,
  MAX_CODE_POINT,
  normalizeRanges,
  SPACE_RANGES,
  WORD_RANGES,
} from './regexCharSets';

/**
 * Parses an ECMAScript regular expression (`u` flag, no other flags) into a tree for the linear engine
 * (regexVm.ts). The pattern must already have passed the native parser (`new RegExp(pattern, 'u')`), so this
 * parser trusts its syntax; it reads code points, as the `u` flag does. The loop is iterative (a stack of open
 * groups), so nesting cannot overflow the call stack; what the engine cannot run in linear time (backreferences,
 * lookahead) and syntax newer than it knows come back as a reason, never as an exception.
 */

export type RegexNode =
  | { type: 'empty' }
  | { type: 'char'; matcher: number }
  | { type: 'sequence'; items: RegexNode[] }
  | { type: 'alternation'; items: RegexNode[] }
  | { type: 'repeat'; item: RegexNode; min: number; max: number }
  | { type: 'assertion'; kind: 'start' | 'end' | 'boundary' | 'nonBoundary' }
  /** `index` into {@link ParsedPattern.lookbehinds}; an inner lookbehind's index is lower than its outer's. */
  | { type: 'lookbehind'; index: number; negated: boolean };

export interface ParsedPattern {
  kind: 'parsed';
  root: RegexNode;
  /** The bodies of the lookbehinds, innermost first. */
  lookbehinds: RegexNode[];
  matchers: CharMatchers;
}

type ParseResult = ParsedPattern | { kind: 'unsupported'; reason: string };

/** Groups nested deeper than this are refused: the compiler recurses once per level (or three times). */
export const MAX_NESTING = 1_000;

interface Frame {
  kind: 'root' | 'group' | 'lookbehind';
  negated: boolean;
  alternatives: RegexNode[];
  items: RegexNode[];
}

class Unsupported {
  constructor(readonly reason: string) {}
}

const EMPTY: RegexNode = { type: 'empty' };
const SIMPLE_ESCAPES: Record<string, number> = { t: 0x09, n: 0x0a, v: 0x0b, f: 0x0c, r: 0x0d, '0': 0x00 };
const CLASS_ESCAPES: Record<string, readonly number[]> = {
  d: DIGIT_RANGES,
  D: complementRanges(DIGIT_RANGES),
  w: WORD_RANGES,
  W: complementRanges(WORD_RANGES),
  s: SPACE_RANGES,
  S: complementRanges(SPACE_RANGES),
};
const DOT_RANGES = complementRanges(LINE_TERMINATOR_RANGES);

export function parsePattern(pattern: string): ParseResult {
  try {
    return new Parser(pattern).parse();
  } catch (error) {
    if (error instanceof Unsupported) return { kind: 'unsupported', reason: error.reason };
    throw error;
  }
}

class Parser {
  private i = 0;
  private readonly matchers = new CharMatchers();
  private readonly lookbehinds: RegexNode[] = [];

  constructor(private readonly pattern: string) {}

  parse(): ParsedPattern {
    const frames: Frame[] = [{ kind: 'root', negated: false, alternatives: [], items: [] }];
    const p = this.pattern;
    while (this.i < p.length) {
      const frame = frames[frames.length - 1];
      const ch = p[this.i];
      switch (ch) {
        case '|':
          frame.alternatives.push(sequence(frame.items));
          frame.items = [];
          this.i += 1;
          break;
        case '(':
          frames.push(this.openGroup());
          if (frames.length > MAX_NESTING + 1)
            throw new Unsupported(
              `the linear-time engine does not support groups nested more than ${MAX_NESTING} deep`,
            );
          break;
        case ')': {
          if (frames.length < 2) throw new Unsupported('the linear-time engine could not read it (an unmatched ")")');
          frames.pop();
          frames[frames.length - 1].items.push(this.closeGroup(frame));
          this.i += 1;
          break;
        }
        case '*':
        case '+':
        case '?':
        case '{':
          this.quantify(frame.items);
          break;
        case '^':
        case '$':
          frame.items.push({ type: 'assertion', kind: ch === '^' ? 'start' : 'end' });
          this.i += 1;
          break;
        case '.':
          frame.items.push({ type: 'char', matcher: this.matchers.fromRanges('.', DOT_RANGES) });
          this.i += 1;
          break;
        case '[':
          frame.items.push({ type: 'char', matcher: this.readClass() });
          break;
        case '\\':
          frame.items.push(this.readEscape());
          break;
        default: {
          const code = p.codePointAt(this.i) as number;
          this.i += code > 0xffff ? 2 : 1;
          frame.items.push(this.literal(code));
        }
      }
    }
    if (frames.length !== 1) throw new Unsupported('the linear-time engine could not read it (an unclosed group)');
    const root = frames[0];
    return { kind: 'parsed', root: this.closeGroup(root), lookbehinds: this.lookbehinds, matchers: this.matchers };
  }

  private openGroup(): Frame {
    const p = this.pattern;
    const frame = (kind: Frame['kind'], length: number, negated = false): Frame => {
      this.i += length;
      return { kind, negated, alternatives: [], items: [] };
    };
    if (p[this.i + 1] !== '?') return frame('group', 1);
    const marker = p.slice(this.i + 2, this.i + 4);
    if (marker[0] === ':') return frame('group', 3);
    if (marker[0] === '=' || marker[0] === '!')
      throw new Unsupported('the linear-time engine does not support lookahead');
    if (marker === '<=' || marker === '<!') return frame('lookbehind', 4, marker === '<!');
    if (marker[0] === '<') {
      const close = p.indexOf('>', this.i);
      if (close < 0) throw new Unsupported('the linear-time engine could not read it (a group name without ">")');
      return frame('group', close + 1 - this.i);
    }
    throw new Unsupported(
      `the linear-time engine does not support the group syntax ${JSON.stringify(p.slice(this.i, this.i + 3))}`,
    );
  }

  private closeGroup(frame: Frame): RegexNode {
    const last = sequence(frame.items);
    const body: RegexNode =
      frame.alternatives.length === 0 ? last : { type: 'alternation', items: [...frame.alternatives, last] };
    if (frame.kind !== 'lookbehind') return body;
    this.lookbehinds.push(body);
    return { type: 'lookbehind', index: this.lookbehinds.length - 1, negated: frame.negated };
  }

  private quantify(items: RegexNode[]): void {
    const p = this.pattern;
    let min: number;
    let max: number;
    const ch = p[this.i];
    if (ch === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(this.i, p.indexOf('}', this.i) + 1));
      if (!match) throw new Unsupported('the linear-time engine could not read it (a "{" that is not a quantifier)');
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
      this.i += match[0].length;
    } else {
      min = ch === '+' ? 1 : 0;
      max = ch === '?' ? 1 : Infinity;
      this.i += 1;
    }
    if (p[this.i] === '?') this.i += 1; // lazy: the same strings match
    // The native parser has checked that an atom precedes (a group may hold only an assertion: `(?:$)*`).
    const item = items.pop();
    if (!item) throw new Unsupported('the linear-time engine could not read it (a quantifier without an atom)');
    items.push({ type: 'repeat', item, min, max });
  }

  private literal(code: number): RegexNode {
    return { type: 'char', matcher: this.matchers.fromRanges(`#${code}`, [code, code]) };
  }

  /** An escape outside a class: an assertion, a class escape, a property or one code point. */
  private readEscape(): RegexNode {
    const p = this.pattern;
    const start = this.i;
    const next = p[start + 1] ?? '';
    if (next === 'b' || next === 'B') {
      this.i += 2;
      return { type: 'assertion', kind: next === 'b' ? 'boundary' : 'nonBoundary' };
    }
    if (/[1-9]/.test(next) || next === 'k')
      throw new Unsupported('the linear-time engine does not support backreferences');
    const ranges = CLASS_ESCAPES[next];
    if (ranges) {
      this.i += 2;
      return { type: 'char', matcher: this.matchers.fromRanges(`\\${next}`, ranges) };
    }
    if (next === 'p' || next === 'P') {
      this.i = p.indexOf('}', start) + 1;
      return { type: 'char', matcher: this.matchers.fromNative(p.slice(start, this.i)) };
    }
    return this.literal(this.readCharacterEscape());
  }

  /** After `\`: an escape that stands for one code point (`\n`, `\cJ`, `\x41`, `\u{1F600}`, `\.`). */
  private readCharacterEscape(): number {
    const p = this.pattern;
    const start = this.i;
    const next = p[start + 1] ?? '';
    if (next in SIMPLE_ESCAPES) {
      this.i += 2;
      return SIMPLE_ESCAPES[next];
    }
    if (next === 'c') {
      this.i += 3;
      return p.charCodeAt(start + 2) % 32;
    }
    if (next === 'x') {
      this.i += 4;
      return parseInt(p.slice(start + 2, start + 4), 16);
    }
    if (next === 'u') return this.readUnicodeEscape();
    const code = p.codePointAt(start + 1);
    if (code === undefined) throw new Unsupported('the linear-time engine could not read it (a "\\" at the end)');
    if (/[a-zA-Z]/.test(next)) throw new Unsupported(`the linear-time engine does not support the escape \\${next}`);
    this.i += code > 0xffff ? 3 : 2;
    return code;
  }

  /** `\uXXXX`, a surrogate pair written as two such escapes, or `\u{X...}`. */
  private readUnicodeEscape(): number {
    const p = this.pattern;
    const start = this.i;
    if (p[start + 2] === '{') {
      const close = p.indexOf('}', start);
      this.i = close + 1;
      const code = parseInt(p.slice(start + 3, close), 16);
      if (!(code <= MAX_CODE_POINT))
        throw new Unsupported('the linear-time engine could not read it (a \\u{...} escape)');
      return code;
    }
    const high = parseInt(p.slice(start + 2, start + 6), 16);
    const low = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(p.slice(start + 6, start + 12));
    if (high >= 0xd800 && high <= 0xdbff && low) {
      this.i = start + 12;
      return (high - 0xd800) * 0x400 + (parseInt(low[1], 16) - 0xdc00) + 0x10000;
    }
    this.i = start + 6;
    return high;
  }

  /** `[...]` or `[^...]`: ranges, or the native matcher when the class uses a Unicode property. */
  private readClass(): number {
    const p = this.pattern;
    const start = this.i;
    const negated = p[start + 1] === '^';
    this.i = start + (negated ? 2 : 1);
    const ranges: number[] = [];
    let native = false;
    while (this.i < p.length && p[this.i] !== ']') {
      const from = this.readClassAtom();
      if (from === 'property') {
        native = true;
        continue;
      }
      if (typeof from !== 'number') {
        ranges.push(...from);
        continue;
      }
      if (p[this.i] === '-' && this.i + 1 < p.length && p[this.i + 1] !== ']') {
        this.i += 1;
        const to = this.readClassAtom();
        if (typeof to !== 'number')
          throw new Unsupported('the linear-time engine could not read it (a class range with a class escape)');
        ranges.push(from, to);
      } else {
        ranges.push(from, from);
      }
    }
    if (this.i >= p.length) throw new Unsupported('the linear-time engine could not read it (an unclosed class)');
    this.i += 1;
    const source = p.slice(start, this.i);
    if (native) return this.matchers.fromNative(source);
    return this.matchers.fromRanges(source, negated ? complementRanges(normalizeRanges(ranges)) : ranges);
  }

  /** One class member: a code point, the ranges of `\d`-like escapes, or 'property' for `\p{...}`. */
  private readClassAtom(): number | readonly number[] | 'property' {
    const p = this.pattern;
    if (p[this.i] !== '\\') {
      const code = p.codePointAt(this.i) as number;
      this.i += code > 0xffff ? 2 : 1;
      return code;
    }
    const next = p[this.i + 1] ?? '';
    if (next === 'b') {
      this.i += 2;
      return 0x08;
    }
    if (next === '-') {
      this.i += 2;
      return 0x2d;
    }
    const ranges = CLASS_ESCAPES[next];
    if (ranges) {
      this.i += 2;
      return ranges;
    }
    if (next === 'p' || next === 'P') {
      this.i = p.indexOf('}', this.i) + 1;
      return 'property';
    }
    if (/[1-9]/.test(next) || next === 'k' || next === 'B')
      throw new Unsupported(`the linear-time engine does not support \\${next} in a class`);
    return this.readCharacterEscape();
  }
}

function sequence(items: RegexNode[]): RegexNode {
  if (items.length === 0) return EMPTY;
  return items.length === 1 ? items[0] : { type: 'sequence', items };
}
