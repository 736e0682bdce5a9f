/**
 * The linear regex engine (src/protocol/validation/regexParser.ts, regexVm.ts, regexDfa.ts) against the native
 * `RegExp(pattern, 'u').test` (as the specification runs it: see {@link nativeTest}): a hand-written corpus of every construct it supports, a seeded random corpus of
 * small patterns and subjects, catastrophic patterns on long subjects (a backtracking engine would not finish
 * them), and the constructs it refuses. Programs without lookbehinds run on the lazy DFA; the same patterns
 * behind an empty lookbehind `(?<=)` (always true) run on the state-set simulation, so both are compared.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  compileLinearPattern,
  MAX_PATTERN_SIZE,
  type CompiledPattern,
} from '../../../../src/protocol/validation/linearRegExp';
import { MAX_NESTING } from '../../../../src/protocol/validation/regexParser';
import { seededRandom } from '../../../support/testSupport';

function linear(pattern: string): Extract<CompiledPattern, { kind: 'linear' }> {
  const compiled = compileLinearPattern(pattern);
  assert.equal(
    compiled.kind,
    'linear',
    `${JSON.stringify(pattern)}: ${compiled.kind === 'unsupported' ? compiled.reason : ''}`,
  );
  return compiled as Extract<CompiledPattern, { kind: 'linear' }>;
}

function unsupported(pattern: string): string {
  const compiled = compileLinearPattern(pattern);
  assert.equal(compiled.kind, 'unsupported', `${JSON.stringify(pattern).slice(0, 200)} should be refused`);
  return compiled.kind === 'unsupported' ? compiled.reason : '';
}

/**
 * `RegExp(pattern, 'u').test(subject)` as the specification defines it: a match attempted at each code point
 * boundary in turn (RegExpBuiltinExec with AdvanceStringIndex). V8's own unanchored search also tries an empty
 * match between the halves of a surrogate pair (`/\B/u.test('x😀y')` is true in Node 20, at index 2), which the
 * specification never does; the sticky flag makes V8 try exactly the positions given.
 */
function nativeTest(pattern: string): (subject: string) => boolean {
  const sticky = new RegExp(pattern, 'uy');
  return (subject) => {
    for (let i = 0; i <= subject.length; i += (subject.codePointAt(i) as number) > 0xffff ? 2 : 1) {
      sticky.lastIndex = i;
      if (sticky.test(subject)) return true;
    }
    return false;
  };
}

/** Both paths (DFA, and the simulation behind `(?<=)`) agree with the native engine on every subject. */
function assertSameAsNative(pattern: string, subjects: readonly string[]): void {
  const native = nativeTest(pattern);
  const dfa = linear(pattern);
  const simulated = linear(`(?<=)(?:${pattern})`);
  for (const subject of subjects) {
    const expected = native(subject);
    assert.equal(dfa.test(subject), expected, `${JSON.stringify(pattern)} on ${JSON.stringify(subject)}`);
    assert.equal(
      simulated.test(subject),
      expected,
      `(?<=)(?:${JSON.stringify(pattern)}) on ${JSON.stringify(subject)}`,
    );
  }
}

const SUBJECTS = [
  '',
  'a',
  'b',
  'ab',
  'ba',
  'abc',
  'aab',
  'abab',
  'aaa',
  'aaaa',
  'abcabc',
  'xyz',
  'A',
  'ABC',
  'aBc',
  '0',
  '42',
  '007',
  '1234',
  'a1',
  '1a',
  '_',
  'a_b',
  'a-b',
  'a.b',
  'a b',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r',
  '\r\n',
  'a\nb',
  'a\rb',
  '\u2028',
  '\u2029',
  'a\u2028b',
  '\v',
  '\f',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u200a',
  '\u200b',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
  '\u0000',
  '\b',
  '\u0001',
  '\u001f',
  '\u007f',
  '\u0080',
  'é',
  'É',
  'café',
  'naïve',
  'Ωmega',
  'ω',
  'Ж',
  '中文',
  '٣',
  '١٢٣',
  '𝟘',
  '😀',
  '😁',
  '😂',
  '😃',
  'x😀y',
  '😀😀',
  'a😀',
  '😀a',
  '\ud83d',
  '\ude00',
  'a\ud83db',
  '\ude00\ud83d',
  '𐐷',
  '𝒳',
  '[',
  ']',
  '-',
  '^',
  '$',
  '\\',
  '/',
  '(',
  ')',
  '{',
  '}',
  '|',
  '*',
  '+',
  '?',
  '.',
  'x@y.zz',
  'foo bar',
  'foo-bar_baz',
  'hello world',
  'über',
  'aé',
  'éa',
  'a é',
  'é é',
  '12-34',
  'abc\n',
  '\nabc',
  'ab\ncd',
  'k\u212a',
  '\u212a',
];

const PATTERNS = [
  // literals, concatenation, alternation, empty alternatives
  'a',
  'ab',
  'abc',
  'a|b',
  'ab|cd',
  'a||b',
  '|a',
  'a|',
  '(|a)',
  '(a|)',
  '()',
  '(?:)',
  '',
  'é',
  '😀',
  'x😀y',
  '中',
  // anchors
  '^a',
  'a$',
  '^a$',
  '^$',
  '^',
  '$',
  '^ab|cd$',
  '^(?:a|b)$',
  'a^',
  '$a',
  '(?:^|x)a',
  'a(?:$|b)',
  '^^a$$',
  // dot and line terminators
  '.',
  '^.$',
  '^..$',
  '^.+$',
  'a.b',
  '^.*$',
  '.\\n',
  '[.]',
  '\\.',
  // class escapes and their negations
  '\\d',
  '\\D',
  '^\\d+$',
  '\\w',
  '\\W',
  '^\\w+$',
  '\\s',
  '\\S',
  '^\\s*$',
  '^\\S+$',
  '\\d\\D',
  '\\w\\W\\w',
  // character escapes
  '\\t',
  '\\n',
  '\\r',
  '\\v',
  '\\f',
  '\\0',
  '\\cJ',
  '\\cj',
  '\\cA',
  '\\x41',
  '\\x7f',
  '\\u00e9',
  '\\u00E9',
  '\\u{1F600}',
  '\\u{61}',
  '^\\uD83D\\uDE00$',
  '\\uD83D',
  '\\uDE00',
  '^\\ud83d$',
  '\\u{1d7d8}',
  '\\/',
  '\\\\',
  '\\^',
  '\\$',
  '\\.',
  '\\*',
  '\\+',
  '\\?',
  '\\(',
  '\\)',
  '\\[',
  '\\]',
  '\\{',
  '\\}',
  '\\|',
  // classes
  '[abc]',
  '[^abc]',
  '[a-c]',
  '[^a-c]',
  '^[a-z]+$',
  '[a-zA-Z0-9_]',
  '[-a]',
  '[a-]',
  '[a\\-z]',
  '[\\-]',
  '[\\]]',
  '[\\[]',
  '[[]',
  '[^]',
  '[]',
  '^[^]$',
  '^[]$',
  'a[]',
  'a[^]b',
  '[\\s\\S]',
  '^[\\s\\S]*$',
  '[\\d\\s]',
  '[^\\d\\s]',
  '[\\w-]',
  '[^\\S\\n]',
  '[\\b]',
  '[\\t\\n]',
  '[\\0]',
  '[\\cJ]',
  '[\\x41-\\x43]',
  '[\\u00e0-\\u00ff]',
  '[😀-😂]',
  '[\\u{1F600}-\\u{1F602}]',
  '[\\uD83D\\uDE00-\\uD83D\\uDE01]',
  '[^😀]',
  '^[^😀]$',
  '[\\ud83d]',
  '[é]',
  '[^é]',
  '[\\^]',
  '[a^]',
  '[$]',
  '[.]',
  '[*+?]',
  '[()]',
  '[{}]',
  '[|]',
  '[/]',
  '[\\/]',
  '[a-a]',
  '[\\n-\\r]',
  // Unicode properties
  '\\p{L}',
  '\\P{L}',
  '^\\p{L}+$',
  '\\p{Lu}',
  '\\p{Ll}',
  '\\P{Nd}',
  '\\p{Nd}',
  '^\\p{N}+$',
  '\\p{Script=Greek}',
  '\\p{sc=Han}',
  '\\p{General_Category=Letter}',
  '\\p{Emoji_Presentation}',
  '\\p{White_Space}',
  '[\\p{L}\\d_]',
  '[^\\p{L}]',
  '[\\P{L}]',
  '[\\p{L}\\p{N}]+',
  '^[\\p{Script=Han}]+$',
  '\\p{Any}',
  '\\p{ASCII}',
  '[\\p{Lu}a-c]',
  '\\p{Lu}\\p{Ll}',
  // word boundaries
  '\\b',
  '\\B',
  '\\ba',
  'a\\b',
  '\\bab\\b',
  '\\Bb',
  'a\\B',
  '^\\b',
  '\\b$',
  '\\bé',
  'é\\b',
  '\\b😀',
  '\\B😀',
  '\\b\\w+\\b',
  '\\b\\b',
  // groups and named groups
  '(a)',
  '(?:a)',
  '(?<word>[a-z]+)\\d',
  '(?<x>a)|(?<y>b)',
  '((a))',
  '(?:(?:a)b)',
  '(a|b)(c|d)',
  // quantifiers, greedy and lazy
  'a*',
  'a+',
  'a?',
  'a*?',
  'a+?',
  'a??',
  '^a*$',
  '^a+$',
  '^a?$',
  'a{2}',
  'a{2,}',
  'a{1,2}',
  '^a{2}$',
  '^a{2,}$',
  '^a{1,3}$',
  '^a{0}$',
  '^a{0,1}$',
  '^(?:ab){2}$',
  '^(?:a|b){2,3}$',
  '^a{2}?$',
  'a{2,}?',
  '^x{0,2}?$',
  '^(?:\\d{3}-)?\\d{4}$',
  '^(?:[a-z]{2,3}\\.){1,2}[a-z]{2}$',
  // nested quantifiers and empty loops
  '(a*)*',
  '(a*)+',
  '(a+)*',
  '(a+)+',
  '^(a+)+$',
  '^(a*)*$',
  '(a|a)*b',
  '^(a|aa)+$',
  '(?:)*',
  '(?:)+',
  '(?:a?)*',
  '(?:a*|b)*c',
  '^(?:a?){3}a{3}$',
  '((a*)*)*b',
  '(?:$)*a',
  '(?:^)+a',
  '(?:\\b)*a',
  '^(?:(?:)*)*$',
  // lookbehind (captureless or not), positive and negative, nested
  '(?<=a)b',
  '(?<!a)b',
  '(?<=^)a',
  '(?<=^a)b',
  '(?<=a$)',
  '(?<=\\ba)b',
  '(?<=a+)b',
  '(?<=a|bc)d',
  '(?<!a|bc)d',
  '(?<=(a))b',
  '(?<=a(?<=a))b',
  '(?<=(?<!b)a)c',
  '(?<=😀)a',
  '(?<=é)\\w',
  '^(?:(?<=a)b|c)+$',
  '(?<=\\d{2})x',
  '(?<=)a',
  '(?<!)a',
  '(?<=a*)$',
  // realistic schema patterns
  '^[a-z0-9-]+$',
  '^\\w+@\\w+\\.\\w{2,}$',
  '^[A-Z][a-z]+(?: [A-Z][a-z]+)*$',
  '^\\d{4}-\\d{2}-\\d{2}$',
  '^#?[0-9a-fA-F]{6}$',
  '^(?:\\+|-)?\\d+(?:\\.\\d+)?$',
  '^https?://[^\\s/$.?#].[^\\s]*$',
  '^[^@\\s]+@[^@\\s]+$',
  'abc$',
  'a|b|c',
  '(?:ab)+',
  '^[[a]+$',
  '[a-c-]',
  '^(?:\\d+|[a-z]+)$',
];

describe('the linear regex engine agrees with RegExp (u flag)', () => {
  test('on a hand-written corpus of every construct it supports', () => {
    for (const pattern of PATTERNS) assertSameAsNative(pattern, SUBJECTS);
  });

  test('\\p classes, \\s, \\w and . on every code point of the first planes, and astral ones', () => {
    const codePoints: number[] = [];
    for (let code = 0; code < 0x3400; code++) codePoints.push(code);
    for (let code = 0xd700; code < 0x10000; code += 3) codePoints.push(code);
    for (let code = 0x10000; code <= 0x10ffff; code += 997) codePoints.push(code);
    codePoints.push(0x1f600, 0x1d7d8, 0x10ffff);
    const subjects = codePoints.map((code) => String.fromCodePoint(code));
    for (const pattern of [
      '^\\p{L}$',
      '^\\P{Nd}$',
      '^[\\p{L}\\p{N}_-]$',
      '^[^\\p{Lu}\\d]$',
      '^\\s$',
      '^\\S$',
      '^\\w$',
      '^.$',
      '^[^]$',
      '^[\\u0100-\\u017f😀-😂]$',
    ]) {
      const native = nativeTest(pattern);
      const compiled = linear(pattern);
      // Twice: the second pass answers from the native matcher's cache.
      for (let pass = 0; pass < 2; pass++) {
        for (const subject of subjects)
          assert.equal(
            compiled.test(subject),
            native(subject),
            `${pattern} on U+${subject.codePointAt(0)?.toString(16)}`,
          );
      }
      // All of them in one subject: states move from code point to code point.
      const all = subjects.join('');
      const unanchored = pattern.slice(1, -1);
      assert.equal(
        linear(`^(?:${unanchored})+$`).test(all),
        new RegExp(`^(?:${unanchored})+$`, 'u').test(all),
        `${unanchored} on all`,
      );
    }
  });

  test('on thousands of seeded random patterns and subjects', () => {
    const random = seededRandom(20_240_611);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const atoms = [
      'a',
      'b',
      'c',
      'é',
      '😀',
      ' ',
      '.',
      '\\w',
      '\\W',
      '\\d',
      '\\s',
      '[ab]',
      '[^a]',
      '[a-c]',
      '[^]',
      '\\p{L}',
      '\\P{L}',
      '\\n',
      '[😀b]',
    ];
    const assertions = ['^', '$', '\\b', '\\B'];
    const quantifiers = ['*', '+', '?', '{2}', '{0,2}', '{1,}', '*?', '+?', '{1,3}?'];
    const generate = (depth: number): string => {
      const parts: string[] = [];
      const length = 1 + Math.floor(random() * 3);
      for (let i = 0; i < length; i++) {
        const roll = random();
        let part: string;
        if (roll < 0.12) part = pick(assertions);
        else if (roll < 0.3 && depth < 3)
          part = `${pick(['(', '(?:', '(?<=', '(?<!'])}${generate(depth + 1)}${random() < 0.4 ? `|${generate(depth + 1)}` : ''})`;
        else part = pick(atoms);
        const lookaround = part.startsWith('(?<');
        if (!lookaround && !assertions.includes(part) && random() < 0.35) part += pick(quantifiers);
        parts.push(part);
      }
      return parts.join(random() < 0.15 ? '|' : '');
    };
    const alphabet = ['a', 'b', 'c', 'é', '😀', ' ', '1', '\n', '_'];
    let pairs = 0;
    for (let p = 0; p < 600; p++) {
      const pattern = generate(0);
      try {
        new RegExp(pattern, 'u');
      } catch {
        continue;
      }
      const subjects = Array.from({ length: 12 }, () =>
        Array.from({ length: Math.floor(random() * 9) }, () => pick(alphabet)).join(''),
      );
      assertSameAsNative(pattern, subjects);
      pairs += subjects.length;
    }
    assert.ok(pairs >= 5_000, `only ${pairs} pairs were compared`);
  });

  test('when the DFA cache fills up and is emptied, answers stay the same', () => {
    // (a|b)*a(a|b){8} needs 2^9 DFA states, more than the cache keeps.
    const random = seededRandom(7);
    for (const pattern of ['(?:a|b)*a(?:a|b){8}$', '\\ba(?:a|b|\\s){6}b\\b', 'é(?:é|b){7}$']) {
      const native = nativeTest(pattern);
      const compiled = linear(pattern);
      for (let i = 0; i < 20; i++) {
        const subject = Array.from({ length: 300 }, () => pick3(random, ['a', 'b', i % 2 ? ' ' : 'é'])).join('');
        assert.equal(compiled.test(subject), native(subject), `${pattern} on ${subject}`);
      }
    }
  });

  test('positions are between code points: no empty match between the halves of a surrogate pair', () => {
    // x|😀|y: every position is a word boundary (V8's unanchored search finds \B inside the pair; the spec does not).
    assert.equal(linear('\\B').test('x😀y'), false);
    assert.equal(linear('\\B').test('😀'), true);
    assert.equal(linear('\\uDE00').test('😀'), false);
    assert.equal(linear('\\uDE00').test('\ude00'), true);
    assert.equal(linear('(?<=\\uD83D)').test('😀'), false);
  });

  test('catastrophic patterns on 100,000 characters get the right answer (a backtracking engine would not finish)', () => {
    const many = 'a'.repeat(100_000);
    assert.equal(linear('^(a+)+$').test(many), true);
    assert.equal(linear('^(a+)+$').test(`${many}b`), false);
    assert.equal(linear('(a|a)*b').test(many), false);
    assert.equal(linear('(a|a)*b').test(`${many}b`), true);
    assert.equal(linear('(a*)*$').test(`${many}b`), true);
    assert.equal(linear('^(a*)*$').test(`${many}b`), false);
    assert.equal(linear('^(?:a|aa)+$').test(`${many}!`), false);
    assert.equal(linear('^(\\w+\\s?)*$').test(`${'word '.repeat(20_000)}!`), false);
    assert.equal(linear('(?<=(a+)+)b').test(`${many}c`), false);
    assert.equal(linear('^(?:(?<=a)a|a)+$').test(many), true);
    assert.equal(linear('^[\\p{L}\\d]+$').test(`${'é1'.repeat(50_000)}`), true);
  });
});

describe('the linear regex engine refuses what it cannot run, with reasons', () => {
  test('backreferences and lookahead', () => {
    for (const pattern of ['^(a)\\1$', '(?<x>a)\\k<x>', '(a)[a-z]\\1'])
      assert.match(unsupported(pattern), /backreferences/);
    for (const pattern of ['^(?=x)', 'a(?!b)', '(?<=(?=a))b']) assert.match(unsupported(pattern), /lookahead/);
  });

  test('invalid patterns, deep nesting and huge repetitions give reasons, never exceptions', () => {
    assert.match(unsupported('('), /not a valid regular expression/);
    assert.match(unsupported('a{2,1}'), /not a valid regular expression/);
    assert.match(unsupported('('.repeat(10_000)), /not a valid regular expression|longer than/);
    const deep = (levels: number) => `${'(?:a|'.repeat(levels)}b${')'.repeat(levels)}`;
    assert.equal(linear(deep(MAX_NESTING)).test('xb'), true);
    assert.match(unsupported(deep(MAX_NESTING + 1)), /nested more than 1000 deep/);
    assert.match(unsupported('(?:a{1000}){20}'), new RegExp(`more than ${MAX_PATTERN_SIZE}`));
    assert.match(unsupported(`a{${'0'.repeat(50)}100000}`), /repetitions expand to about 100000 steps/);
  });

  test('the cost per character grows with the program', () => {
    assert.equal(linear('^[a-z0-9-]+$').cost, 1);
    assert.ok(linear('[\\p{L}\\p{N}]'.repeat(700)).cost >= 80);
  });
});

function pick3(random: () => number, items: readonly string[]): string {
  return items[Math.floor(random() * items.length)];
}
