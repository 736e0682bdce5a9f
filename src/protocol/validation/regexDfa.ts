import { WORD_TABLE } from './regexCharSets';

/**
 * A lazily built DFA over the linear engine's NFA (regexVm.ts), for programs without lookbehinds. A DFA state
 * stands for a set of NFA states alive at a position; its transitions are computed by one NFA step the first time
 * they are taken and then cached, so an ordinary pattern costs one table lookup per ASCII character. The cache is
 * bounded: past {@link MAX_STATES} states it is emptied and built again, and a subject that empties it twice
 * finishes on the NFA simulation (one step per character, still linear) from where the DFA was.
 *
 * A transition depends on the character consumed and, when the program has `\b`/`\B`, on whether the next
 * character is a word character; the step onto the subject's last character (where `$` holds) is never cached.
 */

/** What the DFA needs of the NFA program. */
export interface NfaSteps {
  readonly size: number;
  /** The program contains `\b` or `\B`. */
  readonly hasBoundary: boolean;
  /** The program can only start at position 0, so no states means no match. */
  readonly anchored: boolean;
  /** The states alive at position 0 of `subject` into `out`: their count, or -1 for a match there. */
  begin(subject: string, out: Int32Array): number;
  /** One step from `states`, consuming `code` and landing at `after`: the count of states in `out`, or -1 for a match. */
  step(states: Int32Array, count: number, code: number, after: number, atBoundary: boolean, out: Int32Array): number;
  /** The rest of the test without the DFA: from `position`, where `states` are alive. */
  resume(subject: string, position: number, states: Int32Array): boolean;
}

const UNKNOWN = -1;
const MATCHED = -2;
const DEAD = -3;
/** DFA states kept per program; with `\b` a state's ASCII transitions take 512 bytes. */
const MAX_STATES = 128;
/** Non-ASCII transitions cached per DFA state. */
const MAX_WIDE_TRANSITIONS = 64;

export class LazyDfa {
  private readonly width: number;
  private table = new Int16Array(0);
  private sets: Int32Array[] = [];
  private wide: Map<number, number>[] = [];
  private buckets = new Map<number, number[]>();
  private resets = 0;
  private readonly scratch: Int32Array;

  constructor(private readonly nfa: NfaSteps) {
    this.width = nfa.hasBoundary ? 256 : 128;
    this.scratch = new Int32Array(nfa.size);
  }

  test(subject: string): boolean {
    const { nfa, width } = this;
    const length = subject.length;
    const begun = nfa.begin(subject, this.scratch);
    if (begun < 0) return true;
    if (length === 0 || (begun === 0 && nfa.anchored)) return false;
    const resetsBefore = this.resets;
    let state = this.intern(begun);
    let position = 0;
    for (;;) {
      const unit = subject.charCodeAt(position);
      let column = -1;
      if (unit < 128 && position + 1 < length) {
        column = width === 256 ? (unit << 1) | wordUnit(subject.charCodeAt(position + 1)) : unit;
        const target = this.table[state * width + column];
        if (target >= 0) {
          state = target;
          position += 1;
          continue;
        }
        if (target === MATCHED) return true;
        if (target === DEAD) return false;
      }
      const code = subject.codePointAt(position) as number;
      const after = position + (code > 0xffff ? 2 : 1);
      const followingUnit = after < length ? subject.charCodeAt(after) : -1;
      const wideKey = code * 2 + wordUnit(followingUnit);
      if (column < 0 && after < length) {
        const known = this.wide[state].get(wideKey);
        if (known !== undefined) {
          if (known < 0) return known === MATCHED;
          state = known;
          position = after;
          continue;
        }
      }
      const states = this.sets[state];
      const following = after < length ? (subject.codePointAt(after) as number) : -1;
      const count = nfa.step(states, states.length, code, after, wordCode(code) !== wordCode(following), this.scratch);
      if (after >= length) return count < 0;
      let target: number;
      if (count < 0) target = MATCHED;
      else if (count === 0 && nfa.anchored) target = DEAD;
      else {
        const resets = this.resets;
        target = this.intern(count);
        if (this.resets !== resets) {
          // The cache was emptied: `state` is gone, so the transition is not recorded. Twice: this subject
          // needs more states than the cache keeps, and the simulation is faster than building them.
          if (this.resets - resetsBefore >= 2) return nfa.resume(subject, after, this.sets[target]);
          state = target;
          position = after;
          continue;
        }
      }
      if (column >= 0) this.table[state * width + column] = target;
      else if (this.wide[state].size < MAX_WIDE_TRANSITIONS) this.wide[state].set(wideKey, target);
      if (target < 0) return target === MATCHED;
      state = target;
      position = after;
    }
  }

  /** The DFA state for the first `count` NFA states in the scratch list (in any order), added if new. */
  private intern(count: number): number {
    const states = this.scratch.slice(0, count).sort();
    let hash = count;
    for (let i = 0; i < count; i++) hash = (Math.imul(hash, 31) + states[i]) | 0;
    const bucket = this.buckets.get(hash);
    if (bucket) {
      for (const candidate of bucket) if (sameStates(this.sets[candidate], states)) return candidate;
    }
    if (this.sets.length >= MAX_STATES) this.reset();
    const id = this.sets.length;
    this.sets.push(states);
    this.wide.push(new Map());
    const list = this.buckets.get(hash);
    if (list) list.push(id);
    else this.buckets.set(hash, [id]);
    if (this.table.length < (id + 1) * this.width) {
      const grown = new Int16Array(Math.min(MAX_STATES, Math.max(8, (id + 1) * 2)) * this.width).fill(UNKNOWN);
      grown.set(this.table);
      this.table = grown;
    }
    return id;
  }

  private reset(): void {
    this.resets++;
    this.sets = [];
    this.wide = [];
    this.buckets = new Map();
    this.table.fill(UNKNOWN);
  }
}

function sameStates(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function wordUnit(unit: number): number {
  return unit >= 0 && unit < 128 ? WORD_TABLE[unit] : 0;
}

function wordCode(code: number): boolean {
  return code >= 0 && code < 128 && WORD_TABLE[code] === 1;
}
