/** The review panel's edits applied to a chat request (src/extension/features/sampling/samplingReviewUi.ts, vscode-free). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatRequest } from '../../../../../src/workbench/sampling/chatModel';
import { applyEdits } from '../../../../../src/extension/features/sampling/samplingReviewUi';

const request: ChatRequest = {
  systemPrompt: 'be brief',
  messages: [
    {
      role: 'user',
      parts: [
        { kind: 'text', text: 'hello' },
        { kind: 'image', mimeType: 'image/png', data: 'AAAA' },
      ],
    },
    { role: 'assistant', parts: [{ kind: 'text', text: 'hi' }] },
  ],
  maxTokens: 100,
  temperature: 0.7,
};

test('edited texts, system prompt and limits replace the originals; other parts stay', () => {
  const edited = applyEdits(request, {
    type: 'approve-request',
    systemPrompt: 'be verbose',
    texts: [['HELLO', null], ['HI']],
    modelId: 'm',
    maxTokens: 10,
    temperature: 0.1,
    stopSequences: ['END', ''],
    policy: 'ask',
  });
  assert.deepEqual(edited.messages[0]?.parts, [
    { kind: 'text', text: 'HELLO' },
    { kind: 'image', mimeType: 'image/png', data: 'AAAA' },
  ]);
  assert.deepEqual(edited.messages[1]?.parts, [{ kind: 'text', text: 'HI' }]);
  assert.equal(edited.systemPrompt, 'be verbose');
  assert.equal(edited.maxTokens, 10);
  assert.equal(edited.temperature, 0.1);
  assert.deepEqual(edited.stopSequences, ['END']);
  assert.equal(
    request.messages[0]?.parts[0]?.kind === 'text' && request.messages[0].parts[0].text,
    'hello',
    'the original is not mutated',
  );
});

test('an emptied system prompt or temperature is removed; an invalid maxTokens keeps the original', () => {
  const edited = applyEdits(request, {
    type: 'approve-request',
    systemPrompt: '',
    texts: [],
    modelId: 'm',
    maxTokens: Number.NaN,
    stopSequences: [],
    policy: 'ask',
  });
  assert.equal(edited.systemPrompt, undefined);
  assert.equal(edited.temperature, undefined);
  assert.equal(edited.maxTokens, 100);
  assert.equal(edited.messages[0]?.parts[0]?.kind === 'text' && edited.messages[0].parts[0].text, 'hello');
});
