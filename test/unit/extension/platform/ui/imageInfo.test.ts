/** Pixel sizes read from image headers (src/extension/platform/ui/imageInfo.ts has no vscode import, so it runs here). */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { displayWidth, imageSize } from '../../../../../src/extension/platform/ui/imageInfo';
import { REPO_ROOT } from '../../../../support/testSupport';

test('PNG: the size from IHDR, here the extension icon', () => {
  const icon = fs.readFileSync(path.join(REPO_ROOT, 'media', 'icon.png'));
  const size = imageSize(icon.toString('base64'));
  assert.ok(size, 'no size read from media/icon.png');
  assert.equal(size.width, icon.readUInt32BE(16));
  assert.equal(size.height, icon.readUInt32BE(20));
});

test('GIF and JPEG headers', () => {
  const gif = Buffer.from('R0lGODlhAwAFAIAAAP///wAAACH5BAEAAAAALAAAAAADAAUAAAIDhI8FADs=', 'base64');
  assert.deepEqual(imageSize(gif.toString('base64')), { width: 3, height: 5 });
  // SOI, an APP0 segment, then SOF0 with height 480 and width 640.
  const jpeg = Buffer.from([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x03, 0, 0, 0,
    0, 0, 0, 0, 0, 0,
  ]);
  assert.deepEqual(imageSize(jpeg.toString('base64')), { width: 640, height: 480 });
});

test('not an image, or cut short: no size rather than a wrong one', () => {
  assert.equal(imageSize(Buffer.from('hello world, not an image').toString('base64')), undefined);
  assert.equal(imageSize('iVBORw0KGgo='), undefined);
});

test('tiny images are shown larger, large ones at their size', () => {
  assert.equal(displayWidth({ width: 16, height: 16 }), 128);
  assert.equal(displayWidth({ width: 100, height: 50 }), 128);
  assert.equal(displayWidth({ width: 10, height: 10 }), 80, 'at most 8 times the natural size');
  assert.equal(displayWidth({ width: 640, height: 480 }), undefined);
  assert.equal(displayWidth(undefined), undefined);
});
