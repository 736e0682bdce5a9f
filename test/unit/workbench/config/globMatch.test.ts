/**
 * The include globs dev mode hands to VS Code's file watcher and findFiles (watcherGlob): coarse enough that VS Code's
 * backtracking glob engine cannot be held on one file event, never narrower than the include, which is then matched
 * on the linear-time engine. (The excludes and the matching itself: test/component/extension/features/dev/devMode.test.ts.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileGlob, watcherGlob } from '../../../../src/workbench/config/globMatch';

/**
 * Whether VS Code's glob engine (`src/vs/base/common/glob.ts`: each `*` a lazy `[^/\\]*?`, `**` a lazy group across
 * folders, run by the native RegExp) matches the glob without backtracking at length: each segment is a literal or a
 * lone `*` (fenced by separators), and `**` comes only as the last segment.
 */
function plainForVsCode(glob: string): boolean {
  const segments = glob.split('/');
  return segments.every(
    (segment, index) =>
      !/[*?[\]{}]/.test(segment) || segment === '*' || (segment === '**' && index === segments.length - 1),
  );
}

test("a hostile include reaches VS Code's watcher only as a glob its engine matches without backtracking", () => {
  const hostile = [
    `${'*?'.repeat(12)}Q`,
    `${'*a'.repeat(24)}Q`,
    `${'**a'.repeat(12)}Q`,
    `${'*'.repeat(24)}Q`,
    `src/${'*x'.repeat(12)}/*.ts`,
    `**/${'*?'.repeat(12)}Q`,
    `{a,b}${'*?'.repeat(12)}`,
    `[ab]${'*a'.repeat(12)}`,
    `lib/${'?*'.repeat(10)}/${'*?'.repeat(10)}`,
  ];
  for (const include of hostile) {
    const accepted = watcherGlob(include);
    assert.equal(accepted.kind, 'glob', include);
    assert.ok(
      accepted.kind === 'glob' && plainForVsCode(accepted.glob),
      `${include} was handed over as ${JSON.stringify(accepted)}`,
    );
  }
});

test("the watcher's glob is never narrower than the include, and the include itself decides", () => {
  const coarse = (include: string) => {
    const accepted = watcherGlob(include);
    assert.equal(accepted.kind, 'glob', include);
    return accepted as Extract<typeof accepted, { kind: 'glob' }>;
  };
  assert.equal(coarse('src/**/*.ts').glob, 'src/**');
  assert.equal(coarse('*.mjs').glob, '*');
  assert.equal(coarse('lib/*/index.?s').glob, 'lib/*/*');
  assert.equal(coarse('server.mjs').glob, 'server.mjs');
  assert.equal(coarse('{src,lib/x}/*.ts').glob, '**', 'alternatives may hold a slash');
  assert.equal(coarse('./tools\\srv/*.mjs').glob, 'tools/srv/*');

  const includes = ['src/**/*.ts', '*.mjs', 'lib/*/index.?s', '{src,lib/x}/*.ts', 'a[0-9]/*.js', `${'*?'.repeat(6)}Q`];
  const paths = ['src/a.ts', 'src/x/y/b.ts', 'server.mjs', 'lib/a/index.js', 'lib/x/c.ts', 'a7/b.js', 'abcdefghijklQ'];
  for (const include of includes) {
    const { glob, matcher } = coarse(include);
    const wide = compileGlob(glob);
    assert.equal(wide.kind, 'glob');
    for (const path of paths) {
      const meant = compileGlob(include);
      assert.ok(meant.kind === 'glob');
      assert.equal(matcher.test(path), meant.test(path), `${include} on ${path}: the include decides`);
      if (meant.test(path)) assert.ok(wide.kind === 'glob' && wide.test(path), `${glob} misses ${path} (${include})`);
    }
  }
  assert.ok(!coarse('src/**/*.ts').matcher.test('src/a.js'), 'what VS Code reports for the coarse glob is filtered');
});

test('an overlong or invalid include is refused with its reason, not handed over', () => {
  const long = watcherGlob('y'.repeat(1001));
  assert.ok(long.kind === 'refused' && /longer than 1000 characters/.test(long.reason));
  assert.equal(watcherGlob('[z-a]').kind, 'refused');
});
