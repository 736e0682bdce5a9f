/** JSON value helpers: equality as JSON Schema defines it, code point length, the JSON type of a value. */
import { isObject } from '../../guards';

export const JSON_TYPES: ReadonlySet<string> = new Set([
  'null',
  'boolean',
  'object',
  'array',
  'number',
  'integer',
  'string',
]);

/** Whether `value` has JSON type `type`; `integer` is a whole number, and every integer is a `number`. */
export function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return typeof value === 'number' && !(value % 1) && !Number.isNaN(value);
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    default:
      return false;
  }
}

/** JSON equality: 1 and 1.0 are equal, object keys in any order, own properties only. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a !== a && b !== b;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  for (const key of keys) if (!Object.hasOwn(right, key) || !jsonEqual(left[key], right[key])) return false;
  return true;
}

/** JSON with object keys sorted: equal JSON values (as JSON Schema defines equality) give equal strings. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Length in code points (a surrogate pair counts once), as ajv's ucs2length. */
function codePointLength(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length;) {
    length++;
    const unit = text.charCodeAt(index++);
    if (unit >= 0xd800 && unit <= 0xdbff && index < text.length && (text.charCodeAt(index) & 0xfc00) === 0xdc00)
      index++;
  }
  return length;
}

/** Whether `text` has more than `limit` code points, without counting a long string when its length decides. */
export function longerThan(text: string, limit: number): boolean {
  if (text.length <= limit) return false;
  if (text.length > 2 * limit + 1) return true;
  return codePointLength(text) > limit;
}

/** Whether `text` has fewer than `limit` code points. */
export function shorterThan(text: string, limit: number): boolean {
  if (text.length < limit) return true;
  if (text.length >= 2 * limit) return false;
  return codePointLength(text) < limit;
}
