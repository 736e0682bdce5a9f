/**
 * The review panel's words and keys agree (M5 of the first-hour report): in an elicitation form, Escape sends MCP's
 * `cancel` ("dismissed without an explicit choice"), so the hint under the form says "Escape cancels"; `decline` is
 * the Decline button. Read from the page script (media/review/review.js) and the labels it is given
 * (src/extension/platform/webviews/reviewPanel.ts): a static check, the panel's behaviour is the e2e's and integration's.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../../../support/paths';

const root = repoRoot;
const script = readFileSync(path.join(root, 'media', 'review', 'review.js'), 'utf8');
const panel = readFileSync(path.join(root, 'src', 'extension', 'platform', 'webviews', 'reviewPanel.ts'), 'utf8');

test("the elicitation form's Escape is cancel, and its hint says Escape cancels", () => {
  const elicitation =
    /const cancel = \(\) => post\(\{ type: 'elicit', action: 'cancel' \}\);[\s\S]*?text: t\('(\w+)'\)[\s\S]*?return \{ nodes, approve: accept, reject: (\w+) \};/.exec(
      script,
    );
  assert.ok(elicitation, 'the elicitation renderer was not found in review.js');
  const [, hintKey, escapeAction] = elicitation;
  assert.equal(escapeAction, 'cancel', 'what Escape does in an elicitation form');
  const hint = new RegExp(`${hintKey}:\\s*vscode\\.l10n\\.t\\(\\s*'([^']+)'`).exec(panel)?.[1] ?? '';
  assert.match(hint, /Escape cancels/, `the hint (${hintKey}) says: ${hint}`);
  assert.doesNotMatch(hint, /Escape rejects/);
});
