import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  FrontmatterError,
  frontmatterDifferences,
  parseSkillMarkdown,
} from '../../../../src/protocol/extensions/skills';

const md = (yaml: string) => `---\n${yaml}\n---\nbody\n`;

test('frontmatter: the YAML skills use, typed as YAML 1.2 core schema', () => {
  const { frontmatter, body } = parseSkillMarkdown(
    md(
      [
        'name: pdf-processing',
        "description: 'It''s quoted: with a colon'",
        'license: "Apache-2.0 \\u00e9"',
        'metadata:',
        '  author: example-org   # a comment',
        '  version: "1.0"',
        '  count: 3',
        'tags: [a, "b c", 2]',
        'flow: {k: v, n: null}',
        'list:',
        '- one',
        '- two: 2',
        'folded: >-',
        '  one',
        '  two',
        'literal: |',
        '  line 1',
        '  line 2',
        'long: a plain value',
        '  continued here',
        'empty:',
        'yes: true',
      ].join('\n'),
    ),
  );
  assert.equal(body, 'body\n');
  assert.deepEqual(frontmatter, {
    name: 'pdf-processing',
    description: "It's quoted: with a colon",
    license: 'Apache-2.0 é',
    metadata: { author: 'example-org', version: '1.0', count: 3 },
    tags: ['a', 'b c', 2],
    flow: { k: 'v', n: null },
    list: ['one', { two: 2 }],
    folded: 'one two',
    literal: 'line 1\nline 2\n',
    long: 'a plain value continued here',
    empty: null,
    yes: true,
  });
});

test('frontmatter: what the subset does not read is refused, not guessed', () => {
  for (const yaml of [
    'name: &a x',
    'name: *a',
    'name: !tag x',
    '? complex',
    'name: "open',
    'name: a: b',
    'name: x\nname: y',
    'a:\n\tb: 1',
  ]) {
    assert.throws(() => parseSkillMarkdown(md(yaml)), FrontmatterError, yaml);
  }
  assert.throws(() => parseSkillMarkdown('no frontmatter'), /does not begin with a "---" line/);
  assert.throws(() => parseSkillMarkdown('---\nname: x\n'), /no closing "---" line/);
});

test('frontmatter: a __proto__ key is an ordinary field, compared like any other', () => {
  const { frontmatter } = parseSkillMarkdown(md('name: x\n__proto__: y'));
  assert.equal(Object.getPrototypeOf(frontmatter), Object.prototype);
  assert.deepEqual(Object.keys(frontmatter), ['name', '__proto__']);
  assert.deepEqual(frontmatterDifferences({ name: 'x' }, frontmatter), [
    '__proto__: the listing has nothing, SKILL.md has "y"',
  ]);
});

test('frontmatter comparison: field by field, both ways, no coercion', () => {
  assert.deepEqual(frontmatterDifferences({ a: 1, b: [1, 2], c: { d: 'e' } }, { c: { d: 'e' }, b: [1, 2], a: 1 }), []);
  assert.deepEqual(frontmatterDifferences({ a: '1' }, { a: 1 }), ['a: the listing has "1", SKILL.md has 1']);
  assert.deepEqual(frontmatterDifferences({ a: 1 }, { a: 1, extra: true }), [
    'extra: the listing has nothing, SKILL.md has true',
  ]);
  assert.deepEqual(frontmatterDifferences({ m: { v: '1.0' } }, { m: { v: 1 } }), [
    'm.v: the listing has "1.0", SKILL.md has 1',
  ]);
});
