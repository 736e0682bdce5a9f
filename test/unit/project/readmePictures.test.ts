/**
 * The README's pictures (what the Marketplace page shows) come from the real product and stay current: each one the
 * README shows is in docs/images/, and an end-to-end test takes it with picture(page, '<name>') (scripts/pictures.sh
 * runs those tests and copies what they took), so a picture nobody takes any more fails here.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../support/paths';

const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
const shown = [...readme.matchAll(/!\[[^\]]*\]\(docs\/images\/([\w-]+)\.png\)/g)].map((match) => match[1]);
const e2e = readdirSync(path.join(repoRoot, 'test', 'e2e'))
  .filter((name) => name.endsWith('.e2e.ts'))
  .map((name) => readFileSync(path.join(repoRoot, 'test', 'e2e', name), 'utf8'))
  .join('\n');

test('the README shows pictures of the product', () => {
  assert.ok(shown.length >= 5, `pictures in README.md: ${shown.join(', ')}`);
});

test('every picture the README shows is in docs/images and taken by an end-to-end test', () => {
  for (const name of shown) {
    assert.ok(existsSync(path.join(repoRoot, 'docs', 'images', `${name}.png`)), `docs/images/${name}.png`);
    assert.ok(e2e.includes(`picture(page, '${name}')`), `no test/e2e test takes picture '${name}'`);
  }
});
