/**
 * Entry point of the integration suites, bundled to CommonJS (vscode external) and loaded inside the
 * extension host: by the runner extension (code-server route, test/integration/integration.test.ts)
 * or by electronIndex.ts (@vscode/test-electron route). Add new suites to SUITES.
 *
 * MCP_INTEGRATION_SUITES=tree,config (in the extension host's environment) runs only those suites, in that order;
 * without it every suite runs in SUITES' order. Each suite sets up and resets what it needs (see workbench.ts).
 */
import { basicSuite } from './basic.suite';
import { browseSuite } from './browse.suite';
import { configSuite } from './config.suite';
import { evalsSuite } from './evals.suite';
import { runSuites, type Suite, type SuiteResult, type VscodeApi } from './framework';
import { gatewaySuite } from './gateway.suite';
import { historySuite } from './history.suite';
import { hostileSuite } from './hostile.suite';
import { lifecycleSuite } from './lifecycle.suite';
import { lintSuite } from './lint.suite';
import { modernSuite } from './modern.suite';
import { oauthSuite } from './oauth.suite';
import { recordingsSuite } from './recordings.suite';
import { samplingSuite } from './sampling.suite';
import { sourcesSuite } from './sources.suite';
import { treeSuite } from './tree.suite';

const SUITES: Readonly<Record<string, (vscode: VscodeApi) => Suite>> = {
  basic: basicSuite,
  browse: browseSuite,
  tree: treeSuite,
  history: historySuite,
  sampling: samplingSuite,
  hostile: hostileSuite,
  config: configSuite,
  sources: sourcesSuite,
  lifecycle: lifecycleSuite,
  modern: modernSuite('stdio'),
  'modern-http': modernSuite('http'),
  oauth: oauthSuite,
  recordings: recordingsSuite,
  evals: evalsSuite,
  lint: lintSuite,
  gateway: gatewaySuite,
};

/** The suites named in `selection` (comma-separated, in that order), or all; an unknown name throws. */
export function selectSuites(selection: string | undefined): string[] {
  const names = (selection ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) return Object.keys(SUITES);
  const unknown = names.filter((name) => !(name in SUITES));
  if (unknown.length > 0)
    throw new Error(
      `MCP_INTEGRATION_SUITES names unknown suite(s) ${unknown.join(', ')}; the suites are ${Object.keys(SUITES).join(', ')}`,
    );
  return names;
}

export function run(
  vscode: VscodeApi,
  selection: string | undefined = process.env.MCP_INTEGRATION_SUITES,
): Promise<SuiteResult> {
  return runSuites(selectSuites(selection).map((name) => SUITES[name](vscode)));
}
