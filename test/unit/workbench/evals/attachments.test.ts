import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  MAX_ATTACHMENT_BYTES,
  promptAttachment,
  requestWithAttachments,
  resourceAttachment,
} from '../../../../src/workbench/evals/attachments';

describe('playground attachments', () => {
  test('a text resource is inlined whole within the cap', () => {
    const item = resourceAttachment('notes', 'file:///a.txt', {
      contents: [{ uri: 'file:///a.txt', mimeType: 'text/plain', text: 'alpha' }],
    });
    assert.deepEqual(item, {
      kind: 'resource',
      server: 'notes',
      label: 'file:///a.txt',
      text: 'alpha',
      bytes: 5,
      cut: false,
    });
  });

  test('a text past the byte cap is cut and the cut is said', () => {
    const item = resourceAttachment('notes', 'file:///big', {
      contents: [{ uri: 'file:///big', text: 'x'.repeat(100_000) }],
    });
    assert.equal(item.cut, true);
    assert.equal(item.bytes, 100_000);
    assert.ok(item.text.endsWith(`…(cut at ${MAX_ATTACHMENT_BYTES / 1024} KB)`));
    assert.ok(new TextEncoder().encode(item.text).length < MAX_ATTACHMENT_BYTES + 40);
  });

  test('binary content is described by type and size, never inlined', () => {
    const blob = Buffer.alloc(3000, 7).toString('base64');
    const item = resourceAttachment('notes', 'file:///p.png', {
      contents: [{ uri: 'file:///p.png', mimeType: 'image/png', blob }],
    });
    assert.equal(item.text, '[binary resource image/png, 3,000 bytes: not included]');
    const prompt = promptAttachment('notes', 'review', {
      messages: [
        { role: 'user', content: { type: 'text', text: 'Review this' } },
        { role: 'user', content: { type: 'image', data: blob, mimeType: 'image/png' } },
        { role: 'assistant', content: { type: 'resource', resource: { uri: 'file:///b', blob } } },
      ],
    });
    assert.ok(!prompt.text.includes(blob.slice(0, 40)), 'no base64 in the message');
    assert.match(prompt.text, /^user: Review this\n\nuser: \[image image\/png, 3,000 bytes: not included\]/);
    assert.match(prompt.text, /assistant: \[embedded resource file:\/\/\/b\]\n\[binary resource, 3,000 bytes/);
  });

  test('the user message carries the request, then each attachment marked', () => {
    const item = resourceAttachment('notes', 'file:///a.txt', { contents: [{ uri: 'file:///a.txt', text: 'alpha' }] });
    assert.equal(requestWithAttachments('Summarise', []), 'Summarise');
    assert.equal(
      requestWithAttachments('Summarise', [item]),
      'Summarise\n\n--- Attached resource file:///a.txt (server notes) ---\nalpha\n--- End of attachment ---',
    );
  });
});
