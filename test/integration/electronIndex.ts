/**
 * Entry for @vscode/test-electron (desktop VS Code; see runTest.ts): VS Code loads the bundled form of
 * this file as --extensionTestsPath and calls run(). It runs the same suites as the code-server route
 * (suite/index.ts) and throws when any test failed, which makes VS Code exit with a failure code.
 */
import * as vscode from 'vscode';
import { run as runSuites } from './suite/index';

export async function run(): Promise<void> {
  const result = await runSuites(vscode);
  for (const name of result.passed) console.log(`[integration] passed: ${name}`);
  for (const failure of result.failed) console.error(`[integration] FAILED: ${failure.name}\n${failure.error}`);
  console.log(`[integration] ${result.passed.length} passed, ${result.failed.length} failed`);
  if (result.passed.length === 0 && result.failed.length === 0) throw new Error('the integration suites ran no tests');
  if (result.failed.length > 0) {
    throw new Error(
      `${result.failed.length} integration test(s) failed: ${result.failed.map((f) => f.name).join('; ')}`,
    );
  }
}
