import type { Icon } from '../../../protocol/types';

/**
 * Server-provided icons are untrusted input: only `https:` images and `data:` images of raster types are used
 * (no `http:`, `file:` or other schemes that could reach local files or leak requests), and SVG is skipped
 * because it can carry script and external references. Anything else falls back to a codicon.
 */
const SAFE_TYPES = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/webp']);
const MAX_DATA_URI_LENGTH = 256 * 1024;

export function safeIconSource(icons: readonly Icon[] | undefined, theme: 'light' | 'dark'): string | undefined {
  if (!Array.isArray(icons)) return undefined;
  const usable = icons.filter((icon) => typeof icon?.src === 'string' && isSafeIcon(icon));
  const themed =
    usable.find((icon) => icon.theme === theme) ?? usable.find((icon) => icon.theme === undefined) ?? usable[0];
  return themed?.src;
}

function isSafeIcon(icon: Icon): boolean {
  const src = icon.src.trim();
  if (src.startsWith('data:')) {
    if (src.length > MAX_DATA_URI_LENGTH) return false;
    const match = /^data:([a-z0-9.+/-]+)(;[^,]*)?,/i.exec(src);
    return match !== null && SAFE_TYPES.has(match[1].toLowerCase());
  }
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:') return false;
  // The declared type, or else the file extension, must name a raster type.
  if (icon.mimeType) return SAFE_TYPES.has(icon.mimeType.toLowerCase());
  return /\.(png|jpe?g|webp)$/i.test(url.pathname);
}
