/**
 * Sets of code points for the linear regex engine (see regexParser.ts and regexVm.ts), with ECMAScript's meanings
 * under the `u` flag: `\d`, `\w` and `\s`, `.`, classes and their ranges. A set is a sorted list of disjoint
 * inclusive ranges, flattened to [from, to, from, to, ...]. Unicode property escapes (`\p{...}`, `\P{...}`) are
 * not re-implemented: a class that uses one is asked of the native `RegExp`, one code point at a time (see
 * {@link CharMatchers.fromNative}).
 */

export const MAX_CODE_POINT = 0x10ffff;

export const DIGIT_RANGES: readonly number[] = [0x30, 0x39];
export const WORD_RANGES: readonly number[] = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
/** ECMAScript's WhiteSpace and LineTerminator code points: what `\s` matches. */
export const SPACE_RANGES: readonly number[] = [
  0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f,
  0x3000, 0x3000, 0xfeff, 0xfeff,
];
/** The line terminators `.` does not match (without the `s` flag): \n, \r, U+2028 and U+2029. */
export const LINE_TERMINATOR_RANGES: readonly number[] = [0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029];

/** `\w` membership for `\b`: ASCII only, as in ECMAScript without the `i` flag. */
export const WORD_TABLE: Uint8Array = (() => {
  const table = new Uint8Array(128);
  for (let i = 0; i < WORD_RANGES.length; i += 2) table.fill(1, WORD_RANGES[i], WORD_RANGES[i + 1] + 1);
  return table;
})();

/** Sorts and merges [from, to] pairs (adjacent ones too). */
export function normalizeRanges(ranges: readonly number[]): number[] {
  const pairs: [number, number][] = [];
  for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i], ranges[i + 1]]);
  pairs.sort((a, b) => a[0] - b[0]);
  const result: number[] = [];
  for (const [from, to] of pairs) {
    const last = result.length - 1;
    if (last > 0 && from <= result[last] + 1) result[last] = Math.max(result[last], to);
    else result.push(from, to);
  }
  return result;
}

/** Every code point not in the (normalized) ranges. */
export function complementRanges(ranges: readonly number[]): number[] {
  const result: number[] = [];
  let next = 0;
  for (let i = 0; i < ranges.length; i += 2) {
    if (ranges[i] > next) result.push(next, ranges[i] - 1);
    next = ranges[i + 1] + 1;
  }
  if (next <= MAX_CODE_POINT) result.push(next, MAX_CODE_POINT);
  return result;
}

/** Code points whose membership a native matcher remembers (direct-mapped by the low bits). */
const NATIVE_CACHE_SIZE = 256;

/**
 * The engine's character tests, by index. `ascii` holds a row of 128 flags per matcher (the fast path: index
 * `matcher * 128 + codePoint`); {@link matchesWide} answers for code points from 128 up. Matchers are shared by
 * source text, so `[a-z]{100}` has one.
 */
export class CharMatchers {
  private readonly indexes = new Map<string, number>();
  private readonly rows: Uint8Array[] = [];
  /** Per matcher: normalized ranges for code points >= 128, or undefined for a native matcher. */
  private readonly wideRanges: (Int32Array | undefined)[] = [];
  private readonly natives: (NativeMatcher | undefined)[] = [];
  private flat: Uint8Array | undefined;

  get count(): number {
    return this.rows.length;
  }

  /** All matchers' ASCII rows, one after another. */
  get ascii(): Uint8Array {
    if (!this.flat || this.flat.length !== this.rows.length * 128) {
      this.flat = new Uint8Array(this.rows.length * 128);
      this.rows.forEach((row, index) => this.flat?.set(row, index * 128));
    }
    return this.flat;
  }

  /** A matcher for the code points in `ranges` (any order; they are normalized here). */
  fromRanges(key: string, ranges: readonly number[]): number {
    const known = this.indexes.get(key);
    if (known !== undefined) return known;
    const normalized = normalizeRanges(ranges);
    const row = new Uint8Array(128);
    const wide: number[] = [];
    for (let i = 0; i < normalized.length; i += 2) {
      const from = normalized[i];
      const to = normalized[i + 1];
      if (from < 128) row.fill(1, from, Math.min(to, 127) + 1);
      if (to >= 128) wide.push(Math.max(from, 128), to);
    }
    return this.add(key, row, Int32Array.from(wide), undefined);
  }

  /**
   * A matcher that asks the native `RegExp` whether one code point matches `source`, a single class or escape
   * atom (`\p{L}`, `[\p{L}\d_]`): anchored and applied to one code point, it cannot backtrack.
   */
  fromNative(source: string): number {
    const known = this.indexes.get(source);
    if (known !== undefined) return known;
    const native = new NativeMatcher(new RegExp(`^(?:${source})$`, 'u'));
    const row = new Uint8Array(128);
    for (let code = 0; code < 128; code++) row[code] = native.test(code) ? 1 : 0;
    return this.add(source, row, undefined, native);
  }

  /** Whether matcher `index` matches `codePoint` (any code point; the VM uses `ascii` for those below 128). */
  matches(index: number, codePoint: number): boolean {
    return codePoint < 128 ? this.rows[index][codePoint] === 1 : this.matchesWide(index, codePoint);
  }

  /** Whether matcher `index` matches `codePoint`, which is at least 128. */
  matchesWide(index: number, codePoint: number): boolean {
    const ranges = this.wideRanges[index];
    if (ranges === undefined) return (this.natives[index] as NativeMatcher).test(codePoint);
    let low = 0;
    let high = (ranges.length >> 1) - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (codePoint < ranges[middle * 2]) high = middle - 1;
      else if (codePoint > ranges[middle * 2 + 1]) low = middle + 1;
      else return true;
    }
    return false;
  }

  private add(key: string, row: Uint8Array, wide: Int32Array | undefined, native: NativeMatcher | undefined): number {
    const index = this.rows.length;
    this.indexes.set(key, index);
    this.rows.push(row);
    this.wideRanges.push(wide);
    this.natives.push(native);
    return index;
  }
}

class NativeMatcher {
  private readonly keys = new Int32Array(NATIVE_CACHE_SIZE).fill(-1);
  private readonly answers = new Uint8Array(NATIVE_CACHE_SIZE);

  constructor(private readonly expression: RegExp) {}

  test(codePoint: number): boolean {
    const slot = codePoint & (NATIVE_CACHE_SIZE - 1);
    if (this.keys[slot] === codePoint) return this.answers[slot] === 1;
    const answer = this.expression.test(String.fromCodePoint(codePoint));
    this.keys[slot] = codePoint;
    this.answers[slot] = answer ? 1 : 0;
    return answer;
  }
}
