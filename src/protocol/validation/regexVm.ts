import { CharMatchers, WORD_TABLE } from './regexCharSets';
import { LazyDfa, type NfaSteps } from './regexDfa';
import type { ParsedPattern, RegexNode } from './regexParser';

/**
 * The linear regex engine's compiler and matcher. A parsed pattern (regexParser.ts) becomes a Thompson NFA
 * program; `test` simulates it one code point at a time with a set of states (a Pike VM without captures), so the
 * time is O(subject length × program size) whatever the pattern: there is no backtracking. Each step keeps the
 * states in a typed array, deduplicated with a generation counter, and allocates nothing. Programs without
 * lookbehinds go through a lazily built DFA (regexDfa.ts) that caches these steps.
 *
 * Lookbehinds (`(?<=x)`, `(?<!x)`) run forward too: each is a program of its own, started at every position,
 * that records the positions where its body ends a match; the assertion compares the current position with it.
 * An inner lookbehind gets a lower number than its outer, and the programs advance in that order, the main
 * program last, so every position's answer is known before anything asks for it.
 */

const CHAR = 0;
const SPLIT = 1;
const JUMP = 2;
const START = 3;
const END = 4;
const BOUNDARY = 5;
const NON_BOUNDARY = 6;
const BEHIND = 7;
const NOT_BEHIND = 8;
const BEHIND_MATCH = 9;
const MATCH = 10;

/** A program longer than this is refused; estimatePatternSize keeps real ones far below it. */
const MAX_INSTRUCTIONS = 100_000;

class TooBig {}

type CompileResult = { kind: 'compiled'; program: LinearProgram } | { kind: 'unsupported'; reason: string };

export function compileProgram(parsed: ParsedPattern): CompileResult {
  const builder = new Builder();
  const starts: number[] = [];
  try {
    parsed.lookbehinds.forEach((body, index) => {
      starts.push(builder.count);
      builder.emit(body);
      builder.push(BEHIND_MATCH, index);
    });
    starts.push(builder.count);
    builder.emit(parsed.root);
    builder.push(MATCH);
  } catch (error) {
    if (error instanceof TooBig)
      return {
        kind: 'unsupported',
        reason: `the linear-time engine's program for it would exceed ${MAX_INSTRUCTIONS} instructions`,
      };
    throw error;
  }
  return { kind: 'compiled', program: new LinearProgram(builder, starts, parsed.matchers) };
}

class Builder {
  readonly op: number[] = [];
  readonly arg: number[] = [];
  readonly alt: number[] = [];

  get count(): number {
    return this.op.length;
  }

  push(op: number, arg = 0, alt = 0): number {
    if (this.op.length >= MAX_INSTRUCTIONS) throw new TooBig();
    this.op.push(op);
    this.arg.push(arg);
    this.alt.push(alt);
    return this.op.length - 1;
  }

  /** Emits `node`; control falls through to the instruction after it. Recursion is bounded by MAX_NESTING. */
  emit(node: RegexNode): void {
    switch (node.type) {
      case 'empty':
        return;
      case 'char':
        this.push(CHAR, node.matcher);
        return;
      case 'assertion':
        this.push({ start: START, end: END, boundary: BOUNDARY, nonBoundary: NON_BOUNDARY }[node.kind]);
        return;
      case 'lookbehind':
        this.push(node.negated ? NOT_BEHIND : BEHIND, node.index);
        return;
      case 'sequence':
        for (const item of node.items) this.emit(item);
        return;
      case 'alternation': {
        const jumps: number[] = [];
        node.items.forEach((item, index) => {
          if (index === node.items.length - 1) return this.emit(item);
          const split = this.push(SPLIT, this.count + 1);
          this.emit(item);
          jumps.push(this.push(JUMP));
          this.alt[split] = this.count;
        });
        for (const jump of jumps) this.arg[jump] = this.count;
        return;
      }
      case 'repeat':
        return this.emitRepeat(node.item, node.min, node.max);
      default: {
        const exhaustive: never = node;
        throw new Error(`unknown regex node ${JSON.stringify(exhaustive)}`);
      }
    }
  }

  /** `{min,max}` unrolled: min copies, then a loop (max infinite) or nested optional copies. */
  private emitRepeat(item: RegexNode, min: number, max: number): void {
    if (min > MAX_INSTRUCTIONS || (max !== Infinity && max > MAX_INSTRUCTIONS)) throw new TooBig();
    if (max === Infinity) {
      for (let i = 1; i < min; i++) this.emit(item);
      const loop = this.count;
      if (min === 0) {
        const split = this.push(SPLIT, loop + 1);
        this.emit(item);
        this.push(JUMP, loop);
        this.alt[split] = this.count;
      } else {
        this.emit(item);
        this.push(SPLIT, loop, this.count + 1);
      }
      return;
    }
    for (let i = 0; i < min; i++) this.emit(item);
    const splits: number[] = [];
    for (let i = min; i < max; i++) {
      splits.push(this.push(SPLIT, this.count + 1));
      this.emit(item);
    }
    for (const split of splits) this.alt[split] = this.count;
  }
}

/**
 * A compiled pattern. `test` reuses the program's arrays, so a program is not re-entrant; nothing it calls can
 * call back into it (the native matchers of `\p{...}` are plain `RegExp`s).
 */
class LinearProgram implements NfaSteps {
  /** Instructions, the work per character is bounded by. */
  readonly size: number;
  readonly hasBoundary: boolean;
  private readonly op: Uint8Array;
  private readonly arg: Int32Array;
  private readonly alt: Int32Array;
  private readonly ascii: Uint8Array;
  /** Where each lookbehind program starts, then the main program (last). */
  private readonly starts: Int32Array;
  private readonly mainStart: number;
  private readonly lookbehindCount: number;
  /** The main program cannot start anywhere but at position 0 (every way through it begins with `^`). */
  readonly anchored: boolean;
  private readonly dfa: LazyDfa | undefined;

  private readonly mark: Int32Array;
  private generation = 0;
  private readonly stack: Int32Array;
  private current: Int32Array;
  private next: Int32Array;
  /** Per lookbehind: where its states end in the list (the lookbehinds' states come first, in order). */
  private currentEnds: Int32Array;
  private nextEnds: Int32Array;
  /** Per lookbehind: the last position where its body ended a match. */
  private readonly behindAt: Int32Array;
  private length = 0;

  constructor(
    builder: Builder,
    starts: number[],
    private readonly matchers: CharMatchers,
  ) {
    this.size = builder.count;
    this.op = Uint8Array.from(builder.op);
    this.arg = Int32Array.from(builder.arg);
    this.alt = Int32Array.from(builder.alt);
    this.ascii = matchers.ascii;
    this.starts = Int32Array.from(starts);
    this.lookbehindCount = starts.length - 1;
    this.mainStart = starts[starts.length - 1];
    this.mark = new Int32Array(this.size).fill(-1);
    this.stack = new Int32Array(this.size);
    this.current = new Int32Array(this.size);
    this.next = new Int32Array(this.size);
    this.currentEnds = new Int32Array(this.lookbehindCount);
    this.nextEnds = new Int32Array(this.lookbehindCount);
    this.behindAt = new Int32Array(this.lookbehindCount);
    const unanchored = this.firstStates();
    this.anchored = unanchored.states.length === 0 && !unanchored.matchesEmpty;
    this.hasBoundary = this.op.some((op) => op === BOUNDARY || op === NON_BOUNDARY);
    if (this.lookbehindCount === 0) this.dfa = new LazyDfa(this);
  }

  /** Whether the pattern matches somewhere in `subject`, like `RegExp.prototype.test` with the `u` flag. */
  test(subject: string): boolean {
    return this.dfa ? this.dfa.test(subject) : this.simulate(subject);
  }

  /** For the DFA: the main program's states at position 0 of `subject` (there are no lookbehinds). */
  begin(subject: string, out: Int32Array): number {
    this.length = subject.length;
    this.nextGeneration();
    const code = subject.length > 0 ? (subject.codePointAt(0) as number) : -1;
    return this.addState(out, 0, this.mainStart, 0, isWord(code));
  }

  /** For the DFA: one step of the main program (there are no lookbehinds), the start added unless anchored. */
  step(states: Int32Array, count: number, code: number, after: number, atBoundary: boolean, out: Int32Array): number {
    const { op, arg, ascii, matchers, mark } = this;
    this.nextGeneration();
    const generation = this.generation;
    let nextCount = 0;
    for (let state = 0; state < count; state++) {
      const pc = states[state];
      if (code < 128 ? ascii[(arg[pc] << 7) | code] === 1 : matchers.matchesWide(arg[pc], code)) {
        const target = pc + 1;
        if (op[target] !== CHAR) {
          nextCount = this.addState(out, nextCount, target, after, atBoundary);
          if (nextCount < 0) return -1;
        } else if (mark[target] !== generation) {
          mark[target] = generation;
          out[nextCount++] = target;
        }
      }
    }
    return this.anchored ? nextCount : this.addState(out, nextCount, this.mainStart, after, atBoundary);
  }

  /** For the DFA, when its cache keeps overflowing: the simulation from `position`, where `states` are alive. */
  resume(subject: string, position: number, states: Int32Array): boolean {
    return this.simulate(subject, { position, states });
  }

  /**
   * The state-set simulation of the main program and its lookbehinds, level by level, from the start of `subject`
   * or (for a program without lookbehinds) from a position where the given main program's states are alive.
   */
  private simulate(subject: string, from?: { position: number; states: Int32Array }): boolean {
    const length = subject.length;
    this.length = length;
    this.behindAt.fill(-1);
    const { op, ascii, arg, matchers, mark, starts, mainStart, lookbehindCount, anchored } = this;
    let current = this.current;
    let next = this.next;
    let currentEnds = this.currentEnds;
    let nextEnds = this.nextEnds;
    let position = from ? from.position : 0;
    let code = position < length ? (subject.codePointAt(position) as number) : -1;
    // Surrogates are not word characters, so the code unit before is enough.
    let previousWord = position > 0 && isWord(subject.charCodeAt(position - 1));
    let count = 0;
    this.nextGeneration();
    if (from) {
      for (const pc of from.states) {
        mark[pc] = this.generation;
        current[count++] = pc;
      }
    }
    for (let level = 0; level < lookbehindCount; level++) {
      count = this.addState(current, count, starts[level], 0, isWord(code));
      currentEnds[level] = count;
    }
    for (;;) {
      const behindEnd = lookbehindCount > 0 ? currentEnds[lookbehindCount - 1] : 0;
      if (position === 0 || !anchored) {
        count = this.addState(current, count, mainStart, position, previousWord !== isWord(code));
        if (count < 0) return true;
      } else if (count === behindEnd) {
        return false;
      }
      if (position >= length) return false;
      const after = position + (code > 0xffff ? 2 : 1);
      const following = after < length ? (subject.codePointAt(after) as number) : -1;
      const word = isWord(code);
      const boundary = word !== isWord(following);
      this.nextGeneration();
      const generation = this.generation;
      let nextCount = 0;
      let state = 0;
      for (let level = 0; level <= lookbehindCount; level++) {
        const end = level < lookbehindCount ? currentEnds[level] : count;
        for (; state < end; state++) {
          const pc = current[state];
          const matcher = arg[pc];
          if (code < 128 ? ascii[(matcher << 7) | code] === 1 : matchers.matchesWide(matcher, code)) {
            const target = pc + 1;
            if (op[target] !== CHAR) {
              nextCount = this.addState(next, nextCount, target, after, boundary);
              if (nextCount < 0) return true;
            } else if (mark[target] !== generation) {
              mark[target] = generation;
              next[nextCount++] = target;
            }
          }
        }
        if (level < lookbehindCount) {
          nextCount = this.addState(next, nextCount, starts[level], after, boundary);
          nextEnds[level] = nextCount;
        }
      }
      const list = current;
      current = next;
      next = list;
      const ends = currentEnds;
      currentEnds = nextEnds;
      nextEnds = ends;
      count = nextCount;
      position = after;
      code = following;
      previousWord = word;
    }
  }

  private nextGeneration(): void {
    if (this.generation === 0x7fffffff) {
      this.mark.fill(-1);
      this.generation = 0;
    }
    this.generation++;
  }

  /**
   * Adds the states reachable from `start` at `position` without consuming a character (the epsilon closure)
   * to `list`; returns the new count, or -1 when the main program's MATCH is reached.
   */
  private addState(list: Int32Array, count: number, start: number, position: number, atBoundary: boolean): number {
    const { op, arg, alt, mark, stack, behindAt } = this;
    const generation = this.generation;
    if (mark[start] === generation) return count;
    mark[start] = generation;
    stack[0] = start;
    let top = 1;
    while (top > 0) {
      const pc = stack[--top];
      let to = -1;
      switch (op[pc]) {
        case CHAR:
          list[count++] = pc;
          continue;
        case MATCH:
          return -1;
        case SPLIT: {
          const other = alt[pc];
          if (mark[other] !== generation) {
            mark[other] = generation;
            stack[top++] = other;
          }
          to = arg[pc];
          break;
        }
        case JUMP:
          to = arg[pc];
          break;
        case START:
          if (position === 0) to = pc + 1;
          break;
        case END:
          if (position === this.length) to = pc + 1;
          break;
        case BOUNDARY:
          if (atBoundary) to = pc + 1;
          break;
        case NON_BOUNDARY:
          if (!atBoundary) to = pc + 1;
          break;
        case BEHIND:
          if (behindAt[arg[pc]] === position) to = pc + 1;
          break;
        case NOT_BEHIND:
          if (behindAt[arg[pc]] !== position) to = pc + 1;
          break;
        case BEHIND_MATCH:
          behindAt[arg[pc]] = position;
          break;
      }
      if (to >= 0 && mark[to] !== generation) {
        mark[to] = generation;
        stack[top++] = to;
      }
    }
    return count;
  }

  /**
   * The CHAR states the main program can start with away from position 0, and whether it can match there without
   * consuming anything, when every assertion but `^` is taken to hold.
   */
  private firstStates(): { states: number[]; matchesEmpty: boolean } {
    const seen = new Uint8Array(this.size);
    const pending = [this.mainStart];
    const states: number[] = [];
    let matchesEmpty = false;
    while (pending.length > 0) {
      const pc = pending.pop() as number;
      if (seen[pc]) continue;
      seen[pc] = 1;
      const op = this.op[pc];
      if (op === CHAR) states.push(pc);
      else if (op === MATCH) matchesEmpty = true;
      else if (op === SPLIT) pending.push(this.arg[pc], this.alt[pc]);
      else if (op === JUMP) pending.push(this.arg[pc]);
      else if (op !== START) pending.push(pc + 1);
    }
    return { states, matchesEmpty };
  }
}

function isWord(code: number): boolean {
  return code >= 0 && code < 128 && WORD_TABLE[code] === 1;
}
