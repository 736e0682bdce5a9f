/**
 * Pixel size of a base64 image from its header (PNG, GIF, JPEG, WebP), without decoding the picture, so a result
 * can say "image/png · 16×16 px" and show a tiny image larger than its natural size. Reads only the first bytes.
 */
interface ImageSize {
  width: number;
  height: number;
}

/** Enough for a JPEG's frame header behind a typical EXIF block. */
const HEADER_BASE64_CHARS = 96 * 1024;

export function imageSize(base64: string): ImageSize | undefined {
  const bytes = Buffer.from(
    base64
      .slice(0, HEADER_BASE64_CHARS)
      .replace(/[^A-Za-z0-9+/]/g, '')
      .slice(0, Math.floor(HEADER_BASE64_CHARS / 4) * 4),
    'base64',
  );
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.toString('ascii', 12, 16) === 'IHDR') {
    return sized(bytes.readUInt32BE(16), bytes.readUInt32BE(20));
  }
  if (bytes.length >= 10 && bytes.toString('ascii', 0, 3) === 'GIF')
    return sized(bytes.readUInt16LE(6), bytes.readUInt16LE(8));
  if (bytes.length >= 30 && bytes.toString('ascii', 0, 4) === 'RIFF' && bytes.toString('ascii', 8, 12) === 'WEBP')
    return webpSize(bytes);
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes);
  return undefined;
}

/** The width to show an image at: small icons scaled up (crisp, see results.css) to at least 128 px, at most 8×. */
export function displayWidth(size: ImageSize | undefined): number | undefined {
  if (!size || size.width >= 128) return undefined;
  return Math.min(size.width * 8, Math.max(128, size.width));
}

function sized(width: number, height: number): ImageSize | undefined {
  return width > 0 && height > 0 ? { width, height } : undefined;
}

function jpegSize(bytes: Buffer): ImageSize | undefined {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1];
    // Start-of-frame markers carry the size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return sized(bytes.readUInt16BE(offset + 7), bytes.readUInt16BE(offset + 5));
    }
    offset += 2 + bytes.readUInt16BE(offset + 2);
  }
  return undefined;
}

function webpSize(bytes: Buffer): ImageSize | undefined {
  const chunk = bytes.toString('ascii', 12, 16);
  if (chunk === 'VP8X') return sized(1 + bytes.readUIntLE(24, 3), 1 + bytes.readUIntLE(27, 3));
  if (chunk === 'VP8L') {
    const bits = bytes.readUInt32LE(21);
    return sized(1 + (bits & 0x3fff), 1 + ((bits >> 14) & 0x3fff));
  }
  if (chunk === 'VP8 ') return sized(bytes.readUInt16LE(26) & 0x3fff, bytes.readUInt16LE(28) & 0x3fff);
  return undefined;
}
