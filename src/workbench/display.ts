/**
 * Helpers for showing server-sent text. Names, descriptions and results can be 100 MB long; the UI shows a
 * bounded prefix and says how much was left out, so nothing looks complete that is not.
 */

/**
 * Keeps at most `max` UTF-16 code units of `text` (never splitting a surrogate pair) and appends a marker with
 * the number of characters left out. Text within the limit is returned unchanged.
 */
export function truncateForDisplay(text: string, max: number): string {
  const limit = Math.max(0, Math.floor(max));
  if (text.length <= limit) return text;
  let cut = limit;
  const last = text.charCodeAt(cut - 1);
  if (cut > 0 && last >= 0xd800 && last <= 0xdbff) cut -= 1;
  const omitted = text.length - cut;
  return `${text.slice(0, cut)}… (${omitted.toLocaleString('en-US')} more ${omitted === 1 ? 'character' : 'characters'})`;
}

/** Indentation stops growing past this depth: 100,000 nested arrays indented in full would be ~10 GB of spaces. */
export const MAX_INDENT_LEVELS = 32;

/**
 * `JSON.stringify(value, null, indent)` for server data of any depth: V8's JSON.stringify recurses and throws a
 * RangeError near 10,000 levels, losing the whole output. Same text as JSON.stringify for JSON values (toJSON,
 * skipped undefined, circular structures throw) except that indentation is capped at {@link MAX_INDENT_LEVELS}.
 */
export function toJsonText(value: unknown, indent?: number | string): string | undefined {
  return collect(writeJson(value, gapOf(indent), Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY)).text;
}

/**
 * The text of {@link toJsonText} in pieces of about `chunkChars` characters (a huge string is escaped a slice at a
 * time, never splitting a surrogate pair), for writing a 50 MB result without holding it twice. The pieces joined
 * are exactly toJsonText's text; nothing is yielded when toJsonText would return undefined.
 */
export function* jsonTextChunks(
  value: unknown,
  indent: number | string | undefined,
  chunkChars: number,
): Generator<string, void, void> {
  yield* writeJson(value, gapOf(indent), Number.POSITIVE_INFINITY, Math.max(1, Math.floor(chunkChars)));
}

/**
 * JSON of `value` (compact unless `indent` is given), at most `max` characters, for log lines and summaries: stops
 * serializing once the limit is reached, so a 100 MB result costs `max` characters of work, not 100 MB.
 */
export function jsonPreview(value: unknown, max: number, indent?: number | string): string {
  const limit = Math.max(0, Math.floor(max));
  const { text, truncated } = collect(writeJson(value, gapOf(indent), limit, Number.POSITIVE_INFINITY));
  if (text === undefined) return 'undefined';
  return truncated ? `${text.slice(0, limit)}… (truncated)` : text;
}

type Written = 'undefined' | 'complete' | 'truncated';

function collect(writer: Generator<string, Written, void>): { text: string | undefined; truncated: boolean } {
  const parts: string[] = [];
  let step = writer.next();
  for (; !step.done; step = writer.next()) parts.push(step.value);
  return { text: step.value === 'undefined' ? undefined : parts.join(''), truncated: step.value === 'truncated' };
}

function gapOf(indent: number | string | undefined): string {
  if (typeof indent === 'number') return ' '.repeat(Math.min(10, Math.max(0, Math.floor(indent))));
  return typeof indent === 'string' ? indent.slice(0, 10) : '';
}

type Prepared =
  | { kind: 'skip' }
  | { kind: 'text'; text: string }
  | { kind: 'string'; value: string }
  | { kind: 'array'; value: unknown[] }
  | { kind: 'object'; value: Record<string, unknown> };

type Frame =
  | { kind: 'string'; value: string; offset: number }
  | { kind: 'array'; value: unknown[]; index: number; depth: number }
  | { kind: 'object'; value: Record<string, unknown>; keys: string[]; index: number; written: number; depth: number };

function prepare(raw: unknown, key: string): Prepared {
  let value = raw;
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return { kind: 'skip' };
  if (typeof value === 'string') return { kind: 'string', value };
  if (Array.isArray(value)) return { kind: 'array', value };
  if (typeof value === 'object' && value !== null) return { kind: 'object', value: value as Record<string, unknown> };
  // Numbers (non-finite become null), booleans, null; a bigint throws as in JSON.stringify.
  return { kind: 'text', text: JSON.stringify(value) };
}

/**
 * An explicit stack instead of recursion; stops once `limit` characters are written. Yields what it has once
 * `chunkChars` characters are pending (with an infinite chunk size: everything at the end, in one piece).
 */
function* writeJson(root: unknown, gap: string, limit: number, chunkChars: number): Generator<string, Written, void> {
  let parts: string[] = [];
  let pending = 0;
  let length = 0;
  let truncated = false;
  const emit = (part: string) => {
    parts.push(part);
    pending += part.length;
    length += part.length;
  };
  const take = (): string => {
    const chunk = parts.join('');
    parts = [];
    pending = 0;
    return chunk;
  };
  const newline = (depth: number) => {
    if (gap) emit(`\n${gap.repeat(Math.min(depth, MAX_INDENT_LEVELS))}`);
  };
  const ancestors = new Set<object>();
  const stack: Frame[] = [];
  const write = (item: Exclude<Prepared, { kind: 'skip' }>, depth: number) => {
    switch (item.kind) {
      case 'text':
        emit(item.text);
        return;
      case 'string': {
        const room = limit - length;
        // Only the part of a huge string that can still be shown is escaped.
        if (item.value.length > room) {
          emit(JSON.stringify(item.value.slice(0, Math.max(0, room))));
          truncated = true;
        } else if (item.value.length > chunkChars) {
          emit('"');
          stack.push({ kind: 'string', value: item.value, offset: 0 });
        } else emit(JSON.stringify(item.value));
        return;
      }
      case 'array':
      case 'object':
        if (ancestors.has(item.value)) throw new TypeError('Converting circular structure to JSON');
        ancestors.add(item.value);
        if (item.kind === 'array') {
          emit('[');
          stack.push({ kind: 'array', value: item.value, index: 0, depth });
        } else {
          emit('{');
          stack.push({ kind: 'object', value: item.value, keys: Object.keys(item.value), index: 0, written: 0, depth });
        }
        return;
      default: {
        const exhaustive: never = item;
        throw new Error(`unexpected ${JSON.stringify(exhaustive)}`);
      }
    }
  };

  const first = prepare(root, '');
  if (first.kind === 'skip') return 'undefined';
  write(first, 0);
  while (stack.length > 0 && !truncated) {
    if (pending >= chunkChars) yield take();
    if (length > limit) {
      truncated = true;
      break;
    }
    const frame = stack[stack.length - 1];
    switch (frame.kind) {
      case 'string': {
        // Escaping slice by slice gives JSON.stringify's text as long as no slice ends between a surrogate pair.
        let end = Math.min(frame.value.length, frame.offset + chunkChars);
        const last = frame.value.charCodeAt(end - 1);
        if (end < frame.value.length && last >= 0xd800 && last <= 0xdbff) end += end - 1 > frame.offset ? -1 : 1;
        emit(JSON.stringify(frame.value.slice(frame.offset, end)).slice(1, -1));
        frame.offset = end;
        if (end === frame.value.length) {
          emit('"');
          stack.pop();
        }
        break;
      }
      case 'array': {
        if (frame.index === frame.value.length) {
          if (frame.value.length > 0) newline(frame.depth);
          emit(']');
          ancestors.delete(frame.value);
          stack.pop();
          break;
        }
        const index = frame.index++;
        if (index > 0) emit(',');
        newline(frame.depth + 1);
        const item = prepare(frame.value[index], String(index));
        if (item.kind === 'skip') emit('null');
        else write(item, frame.depth + 1);
        break;
      }
      case 'object': {
        if (frame.index === frame.keys.length) {
          if (frame.written > 0) newline(frame.depth);
          emit('}');
          ancestors.delete(frame.value);
          stack.pop();
          break;
        }
        const key = frame.keys[frame.index++];
        const item = prepare(frame.value[key], key);
        if (item.kind === 'skip') break;
        if (frame.written++ > 0) emit(',');
        newline(frame.depth + 1);
        emit(gap ? `${JSON.stringify(key)}: ` : `${JSON.stringify(key)}:`);
        write(item, frame.depth + 1);
        break;
      }
      default: {
        const exhaustive: never = frame;
        throw new Error(`unexpected frame ${JSON.stringify(exhaustive)}`);
      }
    }
  }
  if (length > limit) truncated = true;
  if (parts.length > 0) yield take();
  return truncated ? 'truncated' : 'complete';
}
