import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  expandUriTemplate,
  parseUriTemplate,
  UriTemplateError,
  type UriTemplateValue,
} from '../../../../src/protocol/features/uriTemplate';

// RFC 6570 section 1.2 variables.
const values: Record<string, UriTemplateValue> = {
  var: 'value',
  hello: 'Hello World!',
  path: '/foo/bar',
  empty: '',
  x: '1024',
  y: '768',
  list: ['red', 'green', 'blue'],
  keys: { semi: ';', dot: '.', comma: ',' },
};

function table(rows: [string, string][]): void {
  for (const [template, expected] of rows) assert.equal(expandUriTemplate(template, values), expected, template);
}

test('RFC 6570 section 1.2, level 1', () => {
  table([
    ['{var}', 'value'],
    ['{hello}', 'Hello%20World%21'],
  ]);
});

test('RFC 6570 section 1.2, level 2', () => {
  table([
    ['{+var}', 'value'],
    ['{+hello}', 'Hello%20World!'],
    ['{+path}/here', '/foo/bar/here'],
    ['here?ref={+path}', 'here?ref=/foo/bar'],
    ['X{#var}', 'X#value'],
    ['X{#hello}', 'X#Hello%20World!'],
  ]);
});

test('RFC 6570 section 1.2, level 3', () => {
  table([
    ['map?{x,y}', 'map?1024,768'],
    ['{x,hello,y}', '1024,Hello%20World%21,768'],
    ['{+x,hello,y}', '1024,Hello%20World!,768'],
    ['{+path,x}/here', '/foo/bar,1024/here'],
    ['{#x,hello,y}', '#1024,Hello%20World!,768'],
    ['{#path,x}/here', '#/foo/bar,1024/here'],
    ['X{.var}', 'X.value'],
    ['X{.x,y}', 'X.1024.768'],
    ['{/var}', '/value'],
    ['{/var,x}/here', '/value/1024/here'],
    ['{;x,y}', ';x=1024;y=768'],
    ['{;x,y,empty}', ';x=1024;y=768;empty'],
    ['{?x,y}', '?x=1024&y=768'],
    ['{?x,y,empty}', '?x=1024&y=768&empty='],
    ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
    ['{&x,y,empty}', '&x=1024&y=768&empty='],
  ]);
});

test('RFC 6570 section 1.2, level 4', () => {
  table([
    ['{var:3}', 'val'],
    ['{var:30}', 'value'],
    ['{list}', 'red,green,blue'],
    ['{list*}', 'red,green,blue'],
    ['{keys}', 'semi,%3B,dot,.,comma,%2C'],
    ['{keys*}', 'semi=%3B,dot=.,comma=%2C'],
    ['{+path:6}/here', '/foo/b/here'],
    ['{+list}', 'red,green,blue'],
    ['{+list*}', 'red,green,blue'],
    ['{+keys}', 'semi,;,dot,.,comma,,'],
    ['{+keys*}', 'semi=;,dot=.,comma=,'],
    ['{#path:6}/here', '#/foo/b/here'],
    ['{#list}', '#red,green,blue'],
    ['{#list*}', '#red,green,blue'],
    ['{#keys}', '#semi,;,dot,.,comma,,'],
    ['{#keys*}', '#semi=;,dot=.,comma=,'],
    ['X{.var:3}', 'X.val'],
    ['X{.list}', 'X.red,green,blue'],
    ['X{.list*}', 'X.red.green.blue'],
    ['X{.keys}', 'X.semi,%3B,dot,.,comma,%2C'],
    ['X{.keys*}', 'X.semi=%3B.dot=..comma=%2C'],
    ['{/var:1,var}', '/v/value'],
    ['{/list}', '/red,green,blue'],
    ['{/list*}', '/red/green/blue'],
    ['{/list*,path:4}', '/red/green/blue/%2Ffoo'],
    ['{/keys}', '/semi,%3B,dot,.,comma,%2C'],
    ['{/keys*}', '/semi=%3B/dot=./comma=%2C'],
    ['{;hello:5}', ';hello=Hello'],
    ['{;list}', ';list=red,green,blue'],
    ['{;list*}', ';list=red;list=green;list=blue'],
    ['{;keys}', ';keys=semi,%3B,dot,.,comma,%2C'],
    ['{;keys*}', ';semi=%3B;dot=.;comma=%2C'],
    ['{?var:3}', '?var=val'],
    ['{?list}', '?list=red,green,blue'],
    ['{?list*}', '?list=red&list=green&list=blue'],
    ['{?keys}', '?keys=semi,%3B,dot,.,comma,%2C'],
    ['{?keys*}', '?semi=%3B&dot=.&comma=%2C'],
    ['{&var:3}', '&var=val'],
    ['{&list}', '&list=red,green,blue'],
    ['{&list*}', '&list=red&list=green&list=blue'],
    ['{&keys}', '&keys=semi,%3B,dot,.,comma,%2C'],
    ['{&keys*}', '&semi=%3B&dot=.&comma=%2C'],
  ]);
});

test('undefined, null, empty lists and empty maps expand to nothing (RFC 6570 section 3.2.1)', () => {
  const sparse = { ...values, undef: undefined, nothing: null, emptyList: [], emptyKeys: {} };
  const rows: [string, string][] = [
    ['{undef}', ''],
    ['{?undef}', ''],
    ['{x,undef}', '1024'],
    ['{x,empty}', '1024,'],
    ['{?x,y,undef}', '?x=1024&y=768'],
    ['{;emptyList,x}', ';x=1024'],
    ['{/emptyKeys*}', ''],
    ['{nothing}', ''],
    ['{missing}', ''],
    ['X{.empty}', 'X.'],
    ['{#empty}', '#'],
  ];
  for (const [template, expected] of rows) assert.equal(expandUriTemplate(template, sparse), expected, template);
});

test('encoding: UTF-8 and existing pct-encoded triplets, literal characters, code-point prefixes', () => {
  assert.equal(expandUriTemplate('{x}', { x: 'ü/€' }), '%C3%BC%2F%E2%82%AC');
  assert.equal(expandUriTemplate('{+x}', { x: 'a%20b%zz' }), 'a%20b%25zz');
  assert.equal(expandUriTemplate('{x}', { x: 'a%20b' }), 'a%2520b');
  assert.equal(expandUriTemplate('file:///{+path}', { path: 'home/me/my notes.md' }), 'file:///home/me/my%20notes.md');
  assert.equal(expandUriTemplate('a b{x}', { x: '1' }), 'a%20b1');
  assert.equal(expandUriTemplate('{x:2}', { x: '😀😀😀' }), '%F0%9F%98%80%F0%9F%98%80');
  assert.equal(expandUriTemplate('{x}', { x: "it's (*)" }), 'it%27s%20%28%2A%29');
  assert.equal(expandUriTemplate('{n}/{b}', { n: 3, b: false }), '3/false');
});

test('MCP resource templates', () => {
  assert.equal(
    expandUriTemplate('demo://resource/dynamic/text/{resourceId}', { resourceId: '42' }),
    'demo://resource/dynamic/text/42',
  );
  assert.equal(
    expandUriTemplate('github://repos/{owner}/{repo}/issues{?state,labels}', {
      owner: 'o',
      repo: 'r',
      labels: ['bug', 'ui'],
    }),
    'github://repos/o/r/issues?labels=bug,ui',
  );
});

test('parseUriTemplate lists every variable with operator, explode and prefix', () => {
  assert.deepEqual(parseUriTemplate('x{/list*,path:4}{?a,b}{var}'), {
    variables: [
      { name: 'list', operator: '/', explode: true },
      { name: 'path', operator: '/', explode: false, prefix: 4 },
      { name: 'a', operator: '?', explode: false },
      { name: 'b', operator: '?', explode: false },
      { name: 'var', operator: '', explode: false },
    ],
  });
  assert.deepEqual(parseUriTemplate('plain://uri').variables, []);
  assert.deepEqual(
    parseUriTemplate('{a.b,%41c}').variables.map((v) => v.name),
    ['a.b', '%41c'],
  );
});

test('malformed templates throw a UriTemplateError that says where', () => {
  for (const [template, message] of [
    ['{unclosed', /unclosed "\{" at position 0/],
    ['a}b', /unmatched "\}" at position 1/],
    ['{}', /empty expression/],
    ['{+}', /empty expression/],
    ['{bad-name}', /invalid variable "bad-name"/],
    ['{x:0}', /prefix must be 1-9999/],
    ['{x:10000}', /prefix must be 1-9999/],
    ['{x*:3}', /invalid variable/],
    ['{=x}', /reserved for future extensions/],
    ['{a,,b}', /invalid variable ""/],
  ] as const) {
    assert.throws(
      () => parseUriTemplate(template),
      (error: unknown) => error instanceof UriTemplateError && message.test(error.message),
      template,
    );
  }
});
