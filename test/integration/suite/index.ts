/**
 * Entry point of the integration suites, bundled to CommonJS (vscode external) and loaded inside the
 * extension host: by the runner extension (code-server route, test/integration/integration.test.ts)
 * or by electronIndex.ts (@vscode/test-electron route). Add new suites to SUITES.
 */
import { basicSuite } from './basic.suite';
import { browseSuite } from './browse.suite';
import { configPrelude, configSuite } from './config.suite';
import { runSuites, type SuiteResult, type VscodeApi } from './framework';
import { hostileSuite } from './hostile.suite';
import { lifecycleSuite } from './lifecycle.suite';
import { samplingSuite } from './sampling.suite';
import { treeSuite } from './tree.suite';

// configPrelude answers the first-start confirmation of workspace servers for the suites after it.
const SUITES = [configPrelude, basicSuite, browseSuite, treeSuite, samplingSuite, hostileSuite, configSuite, lifecycleSuite];

export function run(vscode: VscodeApi): Promise<SuiteResult> {
  return runSuites(SUITES.map((make) => make(vscode)));
}
