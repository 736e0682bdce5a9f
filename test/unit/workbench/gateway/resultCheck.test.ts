/**
 * The gateway's check of a server's result (src/workbench/gateway/resultCheck.ts), with the server SDK's own schemas
 * as the oracle: whatever the check lets through, the SDK that serves the agents takes too (so its handlers never
 * refuse or drop a result the direct path hands on), well-formed results of every method pass, and each malformed
 * shape is named without the server's text.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isSpecType } from '@modelcontextprotocol/server';
import { resultProblem } from '../../../../src/workbench/gateway/resultCheck';

const ORACLE: Readonly<Record<string, (value: unknown) => boolean>> = {
  'tools/call': isSpecType.CallToolResult,
  'tools/list': isSpecType.ListToolsResult,
  'prompts/list': isSpecType.ListPromptsResult,
  'prompts/get': isSpecType.GetPromptResult,
  'resources/list': isSpecType.ListResourcesResult,
  'resources/templates/list': isSpecType.ListResourceTemplatesResult,
  'resources/read': isSpecType.ReadResourceResult,
  'completion/complete': isSpecType.CompleteResult,
};

const text = { type: 'text', text: 'hello' };
const WELL_FORMED: readonly [string, unknown][] = [
  ['tools/call', { content: [text] }],
  ['tools/call', {}],
  ['tools/call', { content: [], structuredContent: { a: 1 }, isError: false, _meta: { 'x/y': 1 } }],
  [
    'tools/call',
    {
      content: [
        { type: 'image', data: 'aGk=', mimeType: 'image/png', annotations: { audience: ['user'], priority: 0.5 } },
        { type: 'audio', data: 'aGk=', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'file:///a', name: 'a' },
        { type: 'resource', resource: { uri: 'file:///a', text: 'a' } },
        { type: 'resource', resource: { uri: 'file:///b', blob: 'aGk=' } },
        { ...text, extra: 'kept', _meta: { k: 1 } },
      ],
    },
  ],
  ['tools/call', { task: { taskId: 't1', status: 'working' } }],
  ['tools/list', { tools: [{ name: 'a', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } }] }],
  [
    'tools/list',
    {
      tools: [
        {
          name: 'a',
          title: 'A',
          description: 'd',
          icons: [{ src: 'https://x/i.png', mimeType: 'image/png', sizes: ['16x16'], theme: 'dark' }],
          inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
          annotations: { title: 't', readOnlyHint: true, destructiveHint: false, futureHint: 'the server’s own' },
          execution: { taskSupport: 'optional' },
          _meta: { k: 1 },
        },
      ],
    },
  ],
  ['tools/list', { tools: [], nextCursor: 'next' }],
  ['prompts/list', { prompts: [{ name: 'p' }] }],
  [
    'prompts/list',
    {
      prompts: [
        { name: 'p', title: 'P', description: 'd', arguments: [{ name: 'a', description: 'd', required: true }] },
      ],
    },
  ],
  ['prompts/get', { messages: [{ role: 'assistant', content: text }], description: 'd' }],
  [
    'resources/list',
    {
      resources: [
        { uri: 'file:///a', name: 'a' },
        {
          uri: 'file:///b',
          name: 'b',
          title: 'B',
          description: 'd',
          mimeType: 'text/plain',
          size: 3,
          annotations: { audience: ['assistant'], priority: 1 },
          icons: [{ src: 'https://x/i.png' }],
        },
      ],
    },
  ],
  [
    'resources/templates/list',
    { resourceTemplates: [{ uriTemplate: 'file:///{x}', name: 'x', description: 'd', mimeType: 'text/plain' }] },
  ],
  ['resources/read', { contents: [{ uri: 'file:///a', text: '', mimeType: 'text/plain', _meta: { k: 1 } }] }],
  ['completion/complete', { completion: { values: ['a'], total: 1, hasMore: false } }],
  ['completion/complete', { completion: { values: [] }, resultType: 'complete' }],
];

/** [method, result, a word the problem names]: each breaks what the spec requires of the method's result. */
const MALFORMED: readonly [string, unknown, RegExp][] = [
  ['tools/call', [text], /not an object/],
  ['tools/call', null, /null/],
  ['tools/call', 42, /a number/],
  ['tools/call', { content: [], _meta: 'm' }, /_meta/],
  ['tools/call', { content: [], _meta: [] }, /_meta/],
  ['tools/call', { content: [], _meta: null }, /_meta/],
  ['tools/call', { content: {} }, /content is an object, not an array/],
  ['tools/call', { content: 'text' }, /content is a string/],
  ['tools/call', { content: [{ type: 'hologram' }] }, /content\[0\] has an unknown type/],
  ['tools/call', { content: [{ text: 'no type' }] }, /no string type/],
  ['tools/call', { content: [{ type: 'text' }] }, /content\[0\] has no string text/],
  ['tools/call', { content: [{ type: 'image', data: 'aGk=' }] }, /mimeType/],
  ['tools/call', { content: [{ type: 'resource', resource: { uri: 'a' } }] }, /neither a string text nor blob/],
  ['tools/call', { content: [{ type: 'resource_link', uri: 'a' }] }, /name/],
  ['tools/call', { content: [{ ...text, annotations: { priority: 2 } }] }, /priority/],
  ['tools/call', { content: [{ ...text, annotations: { audience: ['robot'] } }] }, /audience/],
  ['tools/call', { content: [{ ...text, _meta: 'x' }] }, /_meta/],
  ['tools/call', { content: [], structuredContent: [1, 2] }, /structuredContent is an array/],
  ['tools/call', { content: [], isError: 'yes' }, /isError/],
  ['tools/call', { content: [], resultType: 'input_required', requestState: 's' }, /resultType/],
  ['tools/call', { content: [], resultType: 7 }, /resultType/],
  ['tools/list', { tools: 'none' }, /tools is a string/],
  ['tools/list', {}, /tools is missing/],
  ['tools/list', { tools: [{ inputSchema: { type: 'object' } }] }, /tools\[0\] has no string name/],
  ['tools/list', { tools: [{ name: 'a' }] }, /inputSchema/],
  ['tools/list', { tools: [{ name: 'a', inputSchema: { type: 'string' } }] }, /inputSchema/],
  ['tools/list', { tools: [{ name: 'a', inputSchema: { type: 'object' }, outputSchema: 1 }] }, /outputSchema/],
  ['tools/list', { tools: [], nextCursor: 5 }, /nextCursor is a number/],
  ['prompts/list', { prompts: [{}] }, /name/],
  ['prompts/get', { messages: [{ role: 'narrator', content: text }] }, /role/],
  ['prompts/get', { messages: [{ role: 'user' }] }, /content/],
  ['prompts/get', { messages: [{ role: 'user', content: { type: 'hologram' } }] }, /unknown type/],
  ['resources/list', { resources: [{ uri: 'a' }] }, /name/],
  ['resources/templates/list', { resourceTemplates: [{ name: 'x' }] }, /uriTemplate/],
  ['resources/read', { contents: [{ text: 'no uri' }] }, /uri/],
  ['resources/read', { contents: 'x' }, /contents is a string/],
  ['completion/complete', { completion: 'x' }, /completion is a string/],
  ['completion/complete', { completion: { values: [1] } }, /values/],
  ['completion/complete', { completion: { values: Array.from({ length: 101 }, () => 'v') } }, /101 values/],
  ['completion/complete', { completion: { values: [], total: 1.5 } }, /total/],
  ['completion/complete', { completion: { values: [], hasMore: 'no' } }, /hasMore/],
];

describe('resultProblem', () => {
  test('well-formed results of every method pass, and the SDK takes them too', () => {
    for (const [method, result] of WELL_FORMED) {
      assert.equal(resultProblem(method, result), undefined, `${method} ${JSON.stringify(result)}`);
      assert.ok(ORACLE[method](result), `the oracle takes ${method} ${JSON.stringify(result)}`);
    }
  });

  test('each malformed result is named, in words that carry none of its values', () => {
    for (const [method, result, named] of MALFORMED) {
      const problem = resultProblem(method, result);
      assert.match(problem ?? '', named, `${method} ${JSON.stringify(result)}`);
      assert.doesNotMatch(problem ?? '', /hologram|robot|narrator|no uri|no type/);
    }
  });

  test('whatever the check lets through, the SDK serving the agents takes too (every one-step break of a good result)', () => {
    // Each well-formed result with one member removed or given a value of another type: whenever the check passes
    // one, the SDK's schema must take it as well, or the SDK's handler would refuse (tools/call: -32602) what the
    // direct path hands on. (A string that is another string — a base64 that does not decode, a date — is not tried:
    // the check does not read formats.)
    let tried = 0;
    for (const [method, result] of WELL_FORMED)
      for (const broken of oneStepBreaks(result)) {
        tried++;
        if (resultProblem(method, broken) === undefined)
          assert.ok(
            ORACLE[method](broken),
            `the SDK refuses what the check passes: ${method} ${JSON.stringify(broken)}`,
          );
      }
    assert.ok(tried > 300, `${tried} breaks tried`);
  });

  test('an extension’s method is checked only for what any result needs', () => {
    assert.equal(resultProblem('x/custom', { content: 'anything', tools: 1 }), undefined);
    assert.match(resultProblem('x/custom', []) ?? '', /an array, not an object/);
    assert.match(resultProblem('tasks/get', { _meta: 1 }) ?? '', /_meta is a number/);
  });
});

/** Every copy of `value` with one member (at any depth) removed or replaced by a value of another type. */
function oneStepBreaks(value: unknown): unknown[] {
  const breaks: unknown[] = [];
  const others = (original: unknown) =>
    [null, 1.5, true, [], {}, 'x'].filter(
      (other) =>
        typeof other !== typeof original ||
        Array.isArray(other) !== Array.isArray(original) ||
        (other === null) !== (original === null),
    );
  if (Array.isArray(value))
    value.forEach((item, index) => {
      for (const other of [...others(item), ...oneStepBreaks(item)])
        breaks.push(value.map((entry, at) => (at === index ? other : entry)));
      breaks.push(value.filter((_, at) => at !== index));
    });
  else if (typeof value === 'object' && value !== null)
    for (const [key, member] of Object.entries(value)) {
      for (const other of [...others(member), ...oneStepBreaks(member)]) breaks.push({ ...value, [key]: other });
      const { [key]: _removed, ...rest } = value as Record<string, unknown>;
      breaks.push(rest);
    }
  return breaks;
}
