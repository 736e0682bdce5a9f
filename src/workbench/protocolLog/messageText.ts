import { utf8Length } from '../../protocol/limits/inputLimits';
import { jsonPreview, jsonTextChunks } from '../display';
import { MASK, isSecretKey, maskSecrets, maskText } from '../secrets';

/** A key in serialized JSON whose name may say "secret" (the precise test, isSecretKey, runs only when one is seen). */
const SECRET_LOOKING_KEY = /"[^"]*(?:authorization|api[-_]?key|token|secret|password|passwd|cookie|credentials?)"\s*:/i;
/**
 * Any text SECRET_LOOKING_KEY matches has one of these words: tested first, it spares most messages the key pattern,
 * whose `"[^"]*` start is tried again at every quote (several times the cost of serializing a small message).
 */
const SECRET_WORD = /authorization|api[-_]?key|token|secret|passw(?:or)?d|cookie|credential/i;
const AUTH_SCHEME = /^(Bearer|Basic|Token|Digest|Bot)\s+\S/i;

/**
 * The masked compact JSON of a message, as maskSecrets then serializing would give, for the common small message
 * without the deep copy: serialized natively (masking values under secret keys in the replacer, only when the text
 * shows such a key), then known secrets and credentials in free text masked over the text (the masker also knows
 * their JSON-escaped forms). A message that may be over the cap is masked by copy and cut (messageText).
 */
export function maskedMessageText(
  value: unknown,
  knownSecrets: readonly string[],
  maxChars: number,
): { text: string; truncated: boolean; size: number } {
  if (smallerThan(value, maxChars / 2, 0)) {
    let text = JSON.stringify(value) ?? 'undefined';
    if (SECRET_WORD.test(text) && SECRET_LOOKING_KEY.test(text))
      text = JSON.stringify(value, maskSecretKeys) ?? 'undefined';
    text = maskText(text, knownSecrets);
    if (text.length <= maxChars) return { text, truncated: false, size: utf8Length(text) };
  }
  return messageText(maskSecrets(value, knownSecrets), maxChars);
}

function maskSecretKeys(this: unknown, key: string, item: unknown): unknown {
  if (key === '' || Array.isArray(this) || !isSecretKey(key)) return item;
  // Booleans and null under a secret key are flags, not secrets (as maskSecrets keeps them).
  if (typeof item === 'string') {
    if (item === '') return item;
    const scheme = AUTH_SCHEME.exec(item);
    return scheme ? `${scheme[1]} ${MASK}` : MASK;
  }
  return typeof item === 'number' ? MASK : item;
}

/**
 * A message's compact JSON for the log, cut at `maxChars`, and its size in UTF-8 bytes. A message within the cap is
 * serialized once; a bigger one is measured a chunk at a time (never held whole as one more string).
 */
function messageText(value: unknown, maxChars: number): { text: string; truncated: boolean; size: number } {
  // Most messages are small: a bounded look at their size lets the native serializer do them (several times faster
  // than the cutting serializer); only a message that may be over the cap goes the careful way.
  if (smallerThan(value, maxChars / 2, 0)) {
    const text = JSON.stringify(value) ?? 'undefined';
    if (text.length <= maxChars) return { text, truncated: false, size: utf8Length(text) };
  }
  const preview = jsonPreview(value, maxChars);
  const truncated = preview.length > maxChars;
  if (!truncated) return { text: preview, truncated, size: utf8Length(preview) };
  let size = 0;
  for (const chunk of jsonTextChunks(value, undefined, 64 * 1024)) size += utf8Length(chunk);
  return { text: preview.slice(0, maxChars), truncated, size };
}

/** Whether `value` surely serializes to fewer than about `budget` characters; stops looking as soon as it may not. */
function smallerThan(value: unknown, budget: number, depth: number): boolean {
  return remainingAfter(value, budget, depth) >= 0;
}

function remainingAfter(value: unknown, budget: number, depth: number): number {
  if (budget < 0 || depth > 64) return -1;
  switch (typeof value) {
    case 'string':
      // Escapes can double a character or make it six: count each as two, the rare worse case is caught after.
      return budget - value.length * 2 - 2;
    case 'number':
    case 'boolean':
      return budget - 24;
    case 'object': {
      if (value === null) return budget - 4;
      let left = budget - 2;
      if (Array.isArray(value)) {
        for (const item of value) {
          left = remainingAfter(item, left - 1, depth + 1);
          if (left < 0) return -1;
        }
        return left;
      }
      for (const key in value as Record<string, unknown>) {
        left = remainingAfter((value as Record<string, unknown>)[key], left - key.length - 4, depth + 1);
        if (left < 0) return -1;
      }
      return left;
    }
    default:
      return budget;
  }
}
