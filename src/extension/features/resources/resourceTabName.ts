/**
 * The tab name of a resource document (the last segment of its `mcp-workbench-resource:` path, which cannot hold a slash):
 * the resource's last URI segment; when that has no extension (a template read of `…/text/1`), the segment before
 * it joins it ("text-1") and the MIME type's usual extension follows ("text-1.txt"), so the tab reads as a file name
 * instead of "1 (text∕plain)" with a slash look-alike. No vscode import: unit-tested.
 */
const EXTENSIONS: Record<string, string> = {
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/html': 'html',
  'text/css': 'css',
  'text/csv': 'csv',
  'text/xml': 'xml',
  'text/javascript': 'js',
  'application/json': 'json',
  'application/xml': 'xml',
  'application/yaml': 'yaml',
  'application/octet-stream': 'bin',
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/svg+xml': 'svg',
};

export function resourceTabName(resourceUri: string, mimeType?: string): string {
  const segments = resourceUri
    .replace(/[?#].*$/, '')
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .split('/')
    .filter(Boolean)
    .map(decodeSafely);
  const last = segments.pop() ?? 'resource';
  if (last.includes('.')) return last;
  const parent = segments.length > 1 ? segments.pop() : undefined;
  const base = parent ? `${parent}-${last}` : last;
  const extension = mimeType ? EXTENSIONS[mimeType.toLowerCase().split(';')[0].trim()] : undefined;
  return extension ? `${base}.${extension}` : base;
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
