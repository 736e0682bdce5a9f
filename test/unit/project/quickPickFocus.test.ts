/**
 * Every quick pick the extension opens stays open on focus loss (`ignoreFocusOut`). A command run from the palette
 * while a form or result page had the focus gets that focus handed back to the page asynchronously, after the palette
 * (or the previous pick of the command) closed; a pick that closes on that focus loss ends the command with nothing
 * picked and no word. CI saw it as a Stop Server whose picker never showed, bench:ui as Call Tool with JSON Arguments
 * whose tool picker closed after its server picker (2 runs in 12). Escape still closes every pick.
 *
 * Checked on the source with the TypeScript parser: each `showQuickPick(items, options)` passes `ignoreFocusOut: true`
 * in an object literal, and each `createQuickPick()` assigned to a name has `<name>.ignoreFocusOut = true`.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { repoRoot } from '../../support/paths';

const root = repoRoot;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

const setsIgnoreFocusOut = (options: ts.Expression | undefined): boolean =>
  options !== undefined &&
  ts.isObjectLiteralExpression(options) &&
  options.properties.some(
    (property) =>
      ts.isPropertyAssignment(property) &&
      property.name.getText() === 'ignoreFocusOut' &&
      property.initializer.kind === ts.SyntaxKind.TrueKeyword,
  );

/** The quick picks in `text` that may close on focus loss, as `<file>:<line> <what>`. */
function picksClosingOnFocusLoss(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const created: { name: string; line: number }[] = [];
  const stayOpen = new Set<string>();
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      if (method === 'showQuickPick' && !setsIgnoreFocusOut(node.arguments[1]))
        found.push(`${path.relative(root, file)}:${lineOf(node)} showQuickPick without ignoreFocusOut: true`);
      if (method === 'createQuickPick') {
        const parent = node.parent;
        if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name))
          created.push({ name: parent.name.text, line: lineOf(node) });
        else
          found.push(
            `${path.relative(root, file)}:${lineOf(node)} createQuickPick not assigned to a name (cannot check it)`,
          );
      }
    }
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      node.left.name.text === 'ignoreFocusOut' &&
      node.right.kind === ts.SyntaxKind.TrueKeyword
    ) {
      stayOpen.add(node.left.expression.getText());
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (const pick of created)
    if (!stayOpen.has(pick.name))
      found.push(
        `${path.relative(root, file)}:${pick.line} createQuickPick "${pick.name}" without ${pick.name}.ignoreFocusOut = true`,
      );
  return found;
}

test('the check finds a pick that closes on focus loss (positive control)', () => {
  const probe = [
    "void vscode.window.showQuickPick(['a'], { placeHolder: 'p' });",
    "void vscode.window.showQuickPick(['a']);",
    "void vscode.window.showQuickPick(['a'], { ignoreFocusOut: false });",
    'const pick = vscode.window.createQuickPick();',
    "void vscode.window.showQuickPick(['a'], { placeHolder: 'p', ignoreFocusOut: true });",
    'const kept = vscode.window.createQuickPick();',
    'kept.ignoreFocusOut = true;',
  ].join('\n');
  assert.deepEqual(
    picksClosingOnFocusLoss(path.join(root, 'probe.ts'), probe).map((line) => line.replace(/ .*$/, '')),
    ['probe.ts:1', 'probe.ts:2', 'probe.ts:3', 'probe.ts:4'],
  );
});

test('every quick pick of the extension stays open on focus loss', () => {
  const files = sourceFiles(path.join(root, 'src', 'extension'));
  const picks = files.filter((file) => /showQuickPick|createQuickPick/.test(readFileSync(file, 'utf8')));
  assert.ok(picks.length >= 10, `the extension's quick picks were found (${picks.length} files)`);
  assert.deepEqual(
    files.flatMap((file) => picksClosingOnFocusLoss(file, readFileSync(file, 'utf8'))),
    [],
  );
});
