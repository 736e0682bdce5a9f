/**
 * Whether `value` is an object with string keys as JSON has them: not null, not an array. Every check of untrusted
 * JSON (a server's message, a config file, a webview's message) asks this before it reads a property.
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An object whose every value is a string (prompt arguments, URI template values). */
export function isStringRecord(value: unknown): value is Record<string, string> {
  return isObject(value) && Object.values(value).every((item) => typeof item === 'string');
}
