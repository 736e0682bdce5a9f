import { compileLinearPattern } from '../../protocol/validation/linearRegExp';

/** A glob longer than this is refused rather than compiled: no real watch pattern needs it. */
export const MAX_GLOB_LENGTH = 1_000;

/** A compiled glob: tests a `/`-separated relative path. */
export interface GlobMatcher {
  test(relativePath: string): boolean;
}

type CompiledGlob = ({ kind: 'glob' } & GlobMatcher) | { kind: 'refused'; reason: string };

/**
 * Glob patterns as VS Code's file watchers read them (`**` any depth, `*` and `?` within one path segment, `{a,b}`
 * alternatives, `[abc]` classes), compiled to a regular expression over `/`-separated relative paths. For the
 * excludes of dev mode's `watch`: the watchers take the includes, a change is then tested against the excludes.
 * Globs come from mcp.json, so they are matched on the linear-time engine (linearRegExp.ts), never by the native
 * backtracking `RegExp`: `*` repeated becomes `.*.*.*…`, which backtracks exponentially. A run of two or more `*`
 * is one `**`; a glob longer than {@link MAX_GLOB_LENGTH}, or one the engine cannot take, is refused with the reason.
 */
export function compileGlob(glob: string): CompiledGlob {
  if (glob.length > MAX_GLOB_LENGTH)
    return { kind: 'refused', reason: `it is longer than ${MAX_GLOB_LENGTH} characters` };
  const compiled = compileLinearPattern(`^${globSource(glob)}$`);
  if (compiled.kind === 'unsupported') return { kind: 'refused', reason: compiled.reason };
  return { kind: 'glob', test: (path) => compiled.test(path) };
}

/**
 * An include glob as handed to VS Code's file watcher and `findFiles`, which match it with VS Code's own glob engine: a
 * backtracking `RegExp` in which each `*` is a lazy `[^/\\]*?` (`src/vs/base/common/glob.ts`). Collapsing runs of `*`
 * is not enough there: `*?*?*?…Q` or `*a*a*a…Q` backtracks polynomially in the number of stars on every file event
 * (10 pairs took 16 s on one 38-character name), in the extension host. So VS Code gets a coarser glob that matches
 * every path the include matches and holds nothing it can backtrack on: the literal leading segments, then `*` for
 * each segment whose wildcards are only `*` and `?` (one lazy star, fenced by separators), and `**` for all the rest
 * once a segment holds `**`, a class or alternatives. Each path VS Code reports is then tested against the include
 * itself on the linear-time engine (`matcher`). A glob longer than {@link MAX_GLOB_LENGTH}, or one compileGlob
 * refuses, is refused with the reason.
 */
export function watcherGlob(
  glob: string,
): { kind: 'glob'; glob: string; matcher: GlobMatcher } | { kind: 'refused'; reason: string } {
  const compiled = compileGlob(glob);
  if (compiled.kind === 'refused') return compiled;
  const coarse: string[] = [];
  for (const segment of glob.replace(/\\/g, '/').replace(/^\.\//, '').split('/')) {
    if (!/[*?[\]{}]/.test(segment)) coarse.push(segment);
    else if (/\*\*|[[\]{}]/.test(segment)) {
      // Alternatives may hold a `/` and `**` spans folders: what follows has no fixed number of segments.
      coarse.push('**');
      break;
    } else coarse.push('*');
  }
  return { kind: 'glob', glob: coarse.join('/'), matcher: compiled };
}

function globSource(glob: string): string {
  let source = '';
  let depth = 0;
  const pattern = glob.replace(/\\/g, '/').replace(/^\.\//, '');
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    switch (char) {
      case '*': {
        let end = index + 1;
        while (pattern[end] === '*') end++;
        if (end - index >= 2) {
          // `**` (or more stars: the same) — `**/` matches zero or more whole segments; otherwise everything below.
          const slash = pattern[end] === '/';
          source += slash ? '(?:[^/]*/)*' : '.*';
          index = slash ? end : end - 1;
        } else source += '[^/]*';
        break;
      }
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
        const body = pattern
          .slice(index + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        source += `[${body}]`;
        index = end;
        break;
      }
      default:
        // `]` too: with the `u` flag the engine parses under, a lone `]` is a syntax error.
        source += /[.+^$()|\\\]]/.test(char) ? `\\${char}` : char;
    }
  }
  while (depth-- > 0) source += ')';
  return source;
}

/** Whether a path relative to the watched folder (any separator) matches one of the globs. */
export function matchesAny(relativePath: string, globs: readonly GlobMatcher[]): boolean {
  const normalized = relativePath.replace(/\\/g, '/');
  return globs.some((glob) => glob.test(normalized));
}
