import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import Ajv from 'ajv';
import { ConversationBuilder } from '../../../../src/workbench/evals/conversation';
import { checkEvalFile } from '../../../../src/workbench/evals/format';
import {
  appendEvalRequest,
  evalRequestFromTurn,
  SaveAsEvalError,
} from '../../../../src/workbench/evals/fromConversation';
import { repoRoot } from '../../../support/paths';

function turn(calls: [string, string, Record<string, unknown>][]) {
  const builder = new ConversationBuilder({ id: 'm', name: 'm', provider: 'p' }, ['weather', 'notes'], 0);
  builder.begin('Weather in Paris, then note it', [], 0);
  for (const [server, tool, args] of calls) ConversationBuilder.ended(builder.call(server, tool, args), 'ok', false, 1);
  builder.finish('answered', 'done');
  return builder.lastTurn()!;
}

async function validator() {
  const schema = JSON.parse(await readFile(path.join(repoRoot, 'schemas', 'mcpeval.schema.json'), 'utf8')) as object;
  return new Ajv({ strict: false, allErrors: true }).compile(schema);
}

describe('Save as Eval', () => {
  test('the request, the calls made as expected calls with exact arguments, servers named when several', () => {
    const request = evalRequestFromTurn(
      turn([
        ['weather', 'get_weather', { city: 'Paris' }],
        ['notes', 'add_note', { text: 'sunny' }],
      ]),
      true,
    );
    assert.deepEqual(request, {
      name: 'Weather in Paris, then note it',
      request: 'Weather in Paris, then note it',
      expect: {
        calls: [
          { tool: 'get_weather', server: 'weather', args: { city: 'Paris' } },
          { tool: 'add_note', server: 'notes', args: { text: 'sunny' } },
        ],
      },
    });
    assert.deepEqual(evalRequestFromTurn(turn([['weather', 'get_weather', {}]]), false).expect.calls, [
      { tool: 'get_weather', args: {} },
    ]);
    assert.throws(() => evalRequestFromTurn(turn([]), false), SaveAsEvalError);
  });

  test('a new file validates against the schema and reads back', async () => {
    const validate = await validator();
    const text = appendEvalRequest(
      undefined,
      evalRequestFromTurn(turn([['weather', 'get_weather', { city: 'Paris' }]]), false),
      'fake-model',
    );
    const value = JSON.parse(text) as unknown;
    assert.ok(validate(value), JSON.stringify(validate.errors));
    const loaded = checkEvalFile(value);
    assert.deepEqual(loaded.models, ['fake-model']);
    assert.equal(loaded.requests[0].calls[0].tool, 'get_weather');
  });

  test('appending keeps the rest of an existing file as written and suffixes a name clash', async () => {
    const validate = await validator();
    const existing = `{
  // my evals
  "$schema": "../schemas/mcpeval.schema.json",
  "mcpeval": 1,
  "models": ["other-model"],
  "requests": [
    /* the first one */
    { "name": "Weather in Paris, then note it", "request": "x", "expect": { "notCalled": ["delete"] } }
  ]
}
`;
    const request = evalRequestFromTurn(turn([['weather', 'get_weather', { city: 'Paris' }]]), false);
    const once = appendEvalRequest(existing, request, 'fake-model');
    const twice = appendEvalRequest(once, request, 'fake-model');
    assert.ok(twice.startsWith('{\n  // my evals\n'), twice);
    assert.ok(twice.includes('/* the first one */\n    { "name": "Weather in Paris, then note it", "request": "x"'));
    const loaded = checkEvalFile(JSON.parse(twice.replace(/\/\/.*|\/\*.*?\*\//g, '')));
    assert.deepEqual(
      loaded.requests.map((item) => item.name),
      ['Weather in Paris, then note it', 'Weather in Paris, then note it (2)', 'Weather in Paris, then note it (3)'],
    );
    assert.deepEqual(loaded.models, ['other-model', 'fake-model']);
    assert.ok(validate(JSON.parse(twice.replace(/\/\/.*|\/\*.*?\*\//g, ''))), JSON.stringify(validate.errors));
  });

  test('a file that is not a valid eval is refused untouched', () => {
    const request = evalRequestFromTurn(turn([['weather', 'get_weather', {}]]), false);
    assert.throws(() => appendEvalRequest('{ "mcpeval": 1, ', request, 'm'), /not valid JSON/);
    assert.throws(() => appendEvalRequest('{ "mcpeval": 2, "requests": [] }', request, 'm'), /not a valid eval/);
  });
});
