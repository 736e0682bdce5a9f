/** A resource's tab name (src/extension/features/resources/resourceTabName.ts, vscode-free): a file name, no slash look-alike. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resourceTabName } from '../../../../../src/extension/features/resources/resourceTabName';

test('a template read without an extension is named by its last two segments and its type', () => {
  assert.equal(resourceTabName('demo://resource/dynamic/text/1', 'text/plain'), 'text-1.txt');
  assert.equal(resourceTabName('demo://resource/dynamic/blob/1', 'application/octet-stream'), 'blob-1.bin');
  assert.equal(resourceTabName('demo://resource/static/document/architecture.md', 'text/markdown'), 'architecture.md');
  assert.equal(resourceTabName('file:///tmp/notes', undefined), 'notes');
  assert.equal(resourceTabName('custom://thing', 'x/unknown'), 'thing');
  assert.ok(!resourceTabName('demo://resource/dynamic/text/1', 'text/plain').includes('\u2215'));
});
