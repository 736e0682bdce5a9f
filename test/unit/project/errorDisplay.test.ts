/**
 * One way to show an error to a person (issue 36): `showError` in src/extension/platform/ui/coreErrors.ts words it
 * from its detail (translated), masks it with the server's secrets, logs it once and shows it once. A file under
 * src/extension that hands an error's text straight to a notification (`vscode.window.show…Message`, `notify`,
 * `controller.notify`) skips all of that: this test reads the sources as text and fails on every such call.
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

/** The calls that put text in front of a person. */
const SHOWS = /^(showErrorMessage|showWarningMessage|showInformationMessage|notify)$/;
/** A name that holds an error (`error`, `caught`, `startError`, `this.lastError`…). */
const ERROR_NAME = /^(e|err|error|caught|cause)$|Error$/i;

function calleeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

function lastName(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  return undefined;
}

/** An error's own text: `errorMessage(x)`, `x.message` / `x.rawMessage` of an error, `String(error)`. */
function isErrorText(node: ts.Node): boolean {
  if (ts.isCallExpression(node)) {
    const name = calleeName(node);
    if (name === 'errorMessage') return true;
    const first = node.arguments[0];
    if (name === 'String' && first && ERROR_NAME.test(lastName(first) ?? '')) return true;
  }
  if (ts.isPropertyAccessExpression(node) && (node.name.text === 'message' || node.name.text === 'rawMessage'))
    return ERROR_NAME.test(lastName(node.expression) ?? '');
  return false;
}

interface Found {
  shows: number;
  offenders: string[];
}

/** Every show call of `text` whose arguments (at any depth) carry an error's text. */
function errorTextShown(fileName: string, text: string): Found {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: Found = { shows: 0, offenders: [] };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && SHOWS.test(calleeName(node) ?? '')) {
      found.shows++;
      const inArguments = (child: ts.Node): void => {
        if (isErrorText(child)) {
          const { line } = source.getLineAndCharacterOfPosition(child.getStart(source));
          found.offenders.push(`${fileName}:${line + 1}: ${child.getText(source)} in ${calleeName(node)}(…)`);
        }
        ts.forEachChild(child, inArguments);
      };
      for (const argument of node.arguments) inArguments(argument);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('the check itself: it finds an error text handed to a notification, at any depth, and lets the rest through', () => {
  const offending = [
    `void vscode.window.showErrorMessage(vscode.l10n.t('Could not add: {0}', errorMessage(error)));`,
    `void vscode.window.showWarningMessage(error.message);`,
    `void controller.notify('error', \`failed: \${startError.message}\`);`,
    `void notify('warning', caught instanceof Error ? caught.message : String(caught));`,
    `void vscode.window.showErrorMessage(vscode.l10n.t('x {0}', e.rawMessage), 'Retry');`,
  ];
  for (const line of offending)
    assert.notEqual(errorTextShown('sample.ts', line).offenders.length, 0, `not found in: ${line}`);
  const allowed = [
    `void showError(error, { words: (reason) => vscode.l10n.t('Could not add: {0}', reason) });`,
    `void vscode.window.showErrorMessage(vscode.l10n.t('Open a folder first.'));`,
    `void vscode.window.showWarningMessage(modal.message, { modal: true }, ...modal.buttons);`,
    `log.warn(\`failed: \${errorMessage(error)}\`);`,
  ];
  for (const line of allowed) assert.deepEqual(errorTextShown('sample.ts', line).offenders, [], line);
});

test("no file under src/extension shows an error's text itself: every error reaches a person through showError", () => {
  let shows = 0;
  const offenders: string[] = [];
  for (const file of sourceFiles(path.join(root, 'src', 'extension'))) {
    const found = errorTextShown(path.relative(root, file), readFileSync(file, 'utf8'));
    shows += found.shows;
    offenders.push(...found.offenders);
  }
  assert.ok(shows > 30, `only ${shows} notification calls found: is the extraction broken?`);
  assert.deepEqual(
    offenders,
    [],
    'route these through showError (src/extension/platform/ui/coreErrors.ts), with the server when there is one, so the error is worded from its detail, translated, masked and logged once',
  );
});
