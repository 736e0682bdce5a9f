/**
 * Glob patterns as VS Code's file watchers read them (`**` any depth, `*` and `?` within one path segment, `{a,b}`
 * alternatives, `[abc]` classes), compiled to a regular expression over `/`-separated relative paths. For the
 * excludes of dev mode's `watch`: the watchers take the includes, a change is then tested against the excludes.
 * Linear in the pattern; the produced expression has no nested quantifiers.
 */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  let depth = 0;
  const pattern = glob.replace(/\\/g, '/').replace(/^\.\//, '');
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    switch (char) {
      case '*':
        if (pattern[index + 1] === '*') {
          // `**/` matches zero or more whole segments; a trailing `**` matches everything below.
          const slash = pattern[index + 2] === '/';
          source += slash ? '(?:[^/]*/)*' : '.*';
          index += slash ? 2 : 1;
        } else source += '[^/]*';
        break;
      case '?':
        source += '[^/]';
        break;
      case '{':
        depth++;
        source += '(?:';
        break;
      case '}':
        if (depth > 0) {
          depth--;
          source += ')';
        } else source += '\\}';
        break;
      case ',':
        source += depth > 0 ? '|' : ',';
        break;
      case '[': {
        const end = pattern.indexOf(']', index + 1);
        if (end < 0) {
          source += '\\[';
          break;
        }
        const body = pattern.slice(index + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\');
        source += `[${body}]`;
        index = end;
        break;
      }
      default:
        source += /[.+^$()|\\]/.test(char) ? `\\${char}` : char;
    }
  }
  while (depth-- > 0) source += ')';
  return new RegExp(`^${source}$`);
}

/** Whether a path relative to the watched folder (any separator) matches one of the globs. */
export function matchesAny(relativePath: string, globs: readonly RegExp[]): boolean {
  const normalized = relativePath.replace(/\\/g, '/');
  return globs.some((glob) => glob.test(normalized));
}
