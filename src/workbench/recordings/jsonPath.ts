/**
 * The paths rules in a `*.mcptest.json` file name, a small JSONPath subset rooted at a step's answer
 * (`{"result": …}` or `{"error": …}`):
 *
 *   $.result.content[0].text      a key, then an array index
 *   $.result.tools[*].name        `[*]` or `.*`: any one key or index
 *   $..timestamp                  `..`: any number of levels (zero or more) before the next segment
 *   $["odd key"].x                a quoted key, for keys that are not plain names
 *
 * A pattern is matched incrementally while the comparison walks the answer (`advance` per level), so the work per
 * node is bounded by the pattern's length and no path string is built unless a difference is reported.
 */

export type PathSegment = string | number;

type PatternToken =
  { kind: 'key'; name: string } | { kind: 'index'; index: number } | { kind: 'any' } | { kind: 'descend' };

export interface PathPattern {
  readonly source: string;
  readonly tokens: readonly PatternToken[];
}

export class PathSyntaxError extends Error {
  override readonly name = 'PathSyntaxError';
}

const NAME = /^[A-Za-z_$][A-Za-z0-9_$-]*/;

/** Parses a rule's path; throws PathSyntaxError saying where it went wrong. */
export function parsePathPattern(source: string): PathPattern {
  if (!source.startsWith('$')) throw new PathSyntaxError(`a path starts with $, got ${JSON.stringify(source)}`);
  const tokens: PatternToken[] = [];
  let index = 1;
  while (index < source.length) {
    const rest = source.slice(index);
    if (rest.startsWith('..')) {
      if (tokens.at(-1)?.kind !== 'descend') tokens.push({ kind: 'descend' });
      index += 1; // leave one '.' (or a '[') to introduce the next segment
      if (source[index + 1] === '[') index += 1;
      else if (source[index + 1] === undefined || source[index + 1] === '.')
        throw new PathSyntaxError(`.. must be followed by a key, * or [...] at column ${index + 1} of ${source}`);
      continue;
    }
    if (rest.startsWith('.')) {
      const after = source.slice(index + 1);
      if (after.startsWith('*')) {
        tokens.push({ kind: 'any' });
        index += 2;
        continue;
      }
      const name = NAME.exec(after);
      if (!name)
        throw new PathSyntaxError(
          `expected a key after . at column ${index + 1} of ${source} (use ["…"] for other keys)`,
        );
      tokens.push({ kind: 'key', name: name[0] });
      index += 1 + name[0].length;
      continue;
    }
    if (rest.startsWith('[')) {
      const close = bracketEnd(source, index);
      const inner = source.slice(index + 1, close);
      if (inner === '*') tokens.push({ kind: 'any' });
      else if (/^(0|[1-9][0-9]*)$/.test(inner)) tokens.push({ kind: 'index', index: Number(inner) });
      else if (inner.startsWith('"')) {
        let key: unknown;
        try {
          key = JSON.parse(inner);
        } catch {
          throw new PathSyntaxError(`${inner} is not a JSON string at column ${index + 1} of ${source}`);
        }
        if (typeof key !== 'string')
          throw new PathSyntaxError(`${inner} is not a JSON string at column ${index + 1} of ${source}`);
        tokens.push({ kind: 'key', name: key });
      } else
        throw new PathSyntaxError(
          `[${inner}] at column ${index + 1} of ${source} must be an index, * or a "quoted key"`,
        );
      index = close + 1;
      continue;
    }
    throw new PathSyntaxError(`unexpected ${JSON.stringify(source[index])} at column ${index + 1} of ${source}`);
  }
  if (tokens.at(-1)?.kind === 'descend') throw new PathSyntaxError(`${source} ends with ..`);
  return { source, tokens };
}

/** The index of the `]` closing the bracket at `open`, skipping a quoted key. */
function bracketEnd(source: string, open: number): number {
  let index = open + 1;
  if (source[index] === '"') {
    index++;
    while (index < source.length && source[index] !== '"') index += source[index] === '\\' ? 2 : 1;
    index++;
  }
  const close = source.indexOf(']', index);
  if (close === -1) throw new PathSyntaxError(`unclosed [ at column ${open + 1} of ${source}`);
  return close;
}

/** Positions reached in a pattern: sorted, without duplicates; `tokens.length` means the path matched. */
export type MatchState = readonly number[];

/** The state at the root `$`. */
export function startState(pattern: PathPattern): MatchState {
  return closure(pattern, [0]);
}

/** The state after descending into `segment` (a key or an index). */
export function advance(pattern: PathPattern, state: MatchState, segment: PathSegment): MatchState {
  if (state.length === 0) return state;
  const next = new Set<number>();
  for (const position of state) {
    const token = pattern.tokens[position];
    if (token === undefined) continue;
    switch (token.kind) {
      case 'descend':
        next.add(position); // `..` swallows this level too
        break;
      case 'any':
        next.add(position + 1);
        break;
      case 'key':
        if (typeof segment === 'string' && segment === token.name) next.add(position + 1);
        break;
      case 'index':
        if (typeof segment === 'number' && segment === token.index) next.add(position + 1);
        break;
      default: {
        const exhaustive: never = token;
        return exhaustive;
      }
    }
  }
  return closure(pattern, [...next]);
}

export function isMatch(pattern: PathPattern, state: MatchState): boolean {
  return state.includes(pattern.tokens.length);
}

/** `..` may also match zero levels: a position before it reaches the position after it. */
function closure(pattern: PathPattern, positions: number[]): MatchState {
  const result = new Set(positions);
  for (const position of positions) {
    let at = position;
    while (pattern.tokens[at]?.kind === 'descend') result.add(++at);
  }
  return [...result].sort((a, b) => a - b);
}

/** A concrete path for messages: `$.result.content[0].text`, `$["odd key"]`. */
export function formatPath(segments: readonly PathSegment[]): string {
  let text = '$';
  for (const segment of segments) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(segment)) text += `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}
