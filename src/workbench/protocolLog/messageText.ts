import { jsonPreview, jsonTextChunks } from '../display';

/**
 * A message's compact JSON for the log, cut at `maxChars`, and its size in UTF-8 bytes. A message within the cap is
 * serialized once; a bigger one is measured a chunk at a time (never held whole as one more string).
 */
export function messageText(value: unknown, maxChars: number): { text: string; truncated: boolean; size: number } {
  const preview = jsonPreview(value, maxChars);
  const truncated = preview.length > maxChars;
  if (!truncated) return { text: preview, truncated, size: utf8Length(preview) };
  let size = 0;
  for (const chunk of jsonTextChunks(value, undefined, 64 * 1024)) size += utf8Length(chunk);
  return { text: preview.slice(0, maxChars), truncated, size };
}

/** UTF-8 byte length without encoding (host-neutral, no Buffer). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}
