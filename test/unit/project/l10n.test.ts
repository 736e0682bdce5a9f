/**
 * Every string a person reads is translated in Simplified Chinese: each key of package.nls.json is in
 * package.nls.zh-cn.json, and each vscode.l10n.t message of src/extension (the English bundle, read from the
 * source) is in l10n/bundle.l10n.zh-cn.json, with the same {0} placeholders; and the bundle holds nothing else (every
 * window reads it whole, and the VSIX carries it: issue 42 caps the VSIX at 400 KB).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { CORE_ERROR_TEMPLATES } from '../../../src/extension/platform/ui/coreErrorKinds';
import { JSON_SYNTAX_REASONS } from '../../../src/workbench/config/jsonSyntax';
import { formatLikeVsCode } from '../../support/l10nSupport';
import { repoRoot } from '../../support/paths';

const root = repoRoot;
const readJson = (file: string): Record<string, string> =>
  JSON.parse(readFileSync(path.join(root, file), 'utf8')) as Record<string, string>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/** The first argument of every `vscode.l10n.t(...)` call that is a literal; calls with a computed message are listed too. */
function l10nMessages(): { literal: Set<string>; computed: string[] } {
  const literal = new Set<string>();
  const computed: string[] = [];
  for (const file of sourceFiles(path.join(root, 'src', 'extension'))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && node.expression.getText(source) === 'vscode.l10n.t') {
        const first = node.arguments[0];
        if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) literal.add(first.text);
        else computed.push(`${path.relative(root, file)}: ${node.getText(source)}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { literal, computed };
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{\d+\}/g)]
    .map((match) => match[0])
    .sort()
    .join(',');

test('every key of package.nls.json is translated in package.nls.zh-cn.json', () => {
  const english = readJson('package.nls.json');
  const chinese = readJson('package.nls.zh-cn.json');
  assert.deepEqual(
    Object.keys(english).filter((key) => !(key in chinese)),
    [],
  );
  assert.deepEqual(
    Object.keys(chinese).filter((key) => !(key in english)),
    [],
    'zh-cn keys that no longer exist in English',
  );
});

/** Every message the extension asks vscode.l10n.t for: the literal ones and the fixed lists of the computed ones. */
function englishMessages(): Set<string> {
  const { literal } = l10nMessages();
  const english = new Set([...literal, ...JSON_SYNTAX_REASONS, ...CORE_ERROR_TEMPLATES]);
  if (existsSync(path.join(root, 'l10n', 'bundle.l10n.json')))
    for (const key of Object.keys(readJson('l10n/bundle.l10n.json'))) english.add(key);
  return english;
}

test('every vscode.l10n.t message in src/extension is in the zh-cn bundle, with the same placeholders', () => {
  const chinese = readJson('l10n/bundle.l10n.zh-cn.json');
  const { computed } = l10nMessages();
  // The computed messages: a JSON syntax error's reason, from the fixed list in src/workbench/config/jsonSyntax.ts,
  // and a core error's template, from the fixed list in src/extension/platform/ui/coreErrorKinds.ts.
  assert.deepEqual(computed.map((call) => call.replace(/\s+/g, ' ')).sort(), [
    'src/extension/features/serversView/configRows.ts: vscode.l10n.t(syntax.reason)',
    'src/extension/platform/ui/coreErrors.ts: vscode.l10n.t(template, ...args)',
  ]);
  const english = englishMessages();
  assert.ok(english.size > 100, `only ${english.size} messages found: is the extraction broken?`);
  assert.deepEqual(
    [...english].filter((key) => !(key in chinese)),
    [],
    'messages missing from l10n/bundle.l10n.zh-cn.json',
  );
  const wrong = [...english].filter((key) => key in chinese && placeholders(key) !== placeholders(chinese[key]));
  assert.deepEqual(wrong, [], 'translations whose placeholders differ from the English message');
  // VS Code's formatting reads `{…}` up to the first `}`: a `{` left open before a placeholder hides it (`${input:{0}}`).
  const hidden = [...english].filter((key) => {
    const count = new Set(placeholders(key).split(',').filter(Boolean)).size;
    const markers = Array.from({ length: count }, (_, index) => `<arg ${index}>`);
    return [key, chinese[key] ?? key].some((text) =>
      markers.some((marker) => !formatLikeVsCode(text, markers).includes(marker)),
    );
  });
  assert.deepEqual(hidden, [], 'messages whose placeholders vscode.l10n.t would not fill');
});

test('the zh-cn bundle holds no message the code no longer asks for (a reworded message leaves its old key behind)', () => {
  const english = englishMessages();
  assert.ok(english.size > 100, `only ${english.size} messages found: is the extraction broken?`);
  assert.deepEqual(
    Object.keys(readJson('l10n/bundle.l10n.zh-cn.json')).filter((key) => !english.has(key)),
    [],
    'messages of l10n/bundle.l10n.zh-cn.json that no vscode.l10n.t call asks for: remove them',
  );
});
