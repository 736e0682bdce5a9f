/**
 * Entry point of the integration suites, bundled to CommonJS (vscode external) and loaded inside the
 * extension host: by the runner extension (code-server route, test/integration/integration.test.ts)
 * or by electronIndex.ts (@vscode/test-electron route). Add new suites to SUITES.
 */
import { basicSuite } from './basic.suite';
import { runSuites, type SuiteResult, type VscodeApi } from './framework';

const SUITES = [basicSuite];

export function run(vscode: VscodeApi): Promise<SuiteResult> {
  return runSuites(SUITES.map((make) => make(vscode)));
}
