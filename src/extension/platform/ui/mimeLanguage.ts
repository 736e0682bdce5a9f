/**
 * The editor language for a resource's MIME type (or, failing that, its URI's extension), so a JSON resource
 * opens with JSON highlighting. Unknown types are plain text: a guess that turns on a wrong grammar is worse.
 */
const BY_MIME: Record<string, string> = {
  'application/json': 'json',
  'application/ld+json': 'json',
  'application/schema+json': 'json',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/xml': 'xml',
  'application/xml': 'xml',
  'image/svg+xml': 'xml',
  'application/yaml': 'yaml',
  'application/x-yaml': 'yaml',
  'text/yaml': 'yaml',
  'text/x-yaml': 'yaml',
  'text/javascript': 'javascript',
  'application/javascript': 'javascript',
  'application/typescript': 'typescript',
  'text/typescript': 'typescript',
  'text/x-python': 'python',
  'application/x-python': 'python',
  'text/css': 'css',
  'text/csv': 'csv',
  'application/toml': 'toml',
  'application/sql': 'sql',
  'text/x-shellscript': 'shellscript',
  'text/x-rust': 'rust',
  'text/x-go': 'go',
  'text/x-java': 'java',
  'text/x-c': 'c',
  'text/x-c++': 'cpp',
};

const BY_EXTENSION: Record<string, string> = {
  json: 'json',
  md: 'markdown',
  markdown: 'markdown',
  html: 'html',
  htm: 'html',
  xml: 'xml',
  yaml: 'yaml',
  yml: 'yaml',
  js: 'javascript',
  mjs: 'javascript',
  ts: 'typescript',
  py: 'python',
  css: 'css',
  sh: 'shellscript',
  rs: 'rust',
  go: 'go',
  java: 'java',
  txt: 'plaintext',
};

export function languageForResource(mimeType: string | undefined, uri: string): string {
  const mime = mimeType?.split(';', 1)[0]?.trim().toLowerCase();
  if (mime) {
    const known = BY_MIME[mime];
    if (known) return known;
    if (mime.endsWith('+json')) return 'json';
    if (mime.endsWith('+xml')) return 'xml';
  }
  const extension = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(uri)?.[1]?.toLowerCase();
  return (extension && BY_EXTENSION[extension]) || 'plaintext';
}

/** A short hex dump of the first bytes, for binary content an editor cannot show. */
export function hexSummary(bytes: Uint8Array, maxBytes = 256): string {
  const lines: string[] = [];
  const shown = bytes.subarray(0, maxBytes);
  for (let offset = 0; offset < shown.length; offset += 16) {
    const row = shown.subarray(offset, offset + 16);
    const hex = Array.from(row, (byte) => byte.toString(16).padStart(2, '0')).join(' ');
    const ascii = Array.from(row, (byte) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.')).join('');
    lines.push(`${offset.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  ${ascii}`);
  }
  return lines.join('\n');
}

/** The decoded size of base64 `data`, for summaries of media that is not shown. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
