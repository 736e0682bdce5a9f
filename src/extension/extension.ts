import type * as vscode from 'vscode';
import { appsFeature } from './features/apps';
import { authorToolsFeature } from './features/authorTools';
import { configFeature } from './features/config';
import { devFeature } from './features/dev';
import { elicitationFeature } from './features/elicitation';
import { eventsFeature } from './features/events';
import { gatewayFeature } from './features/gateway';
import { historyFeature } from './features/history';
import { lintFeature } from './features/lint';
import { promptsFeature } from './features/prompts';
import { playgroundFeature } from './features/playground';
import { protocolViewFeature } from './features/protocolView';
import { registryFeature } from './features/registry';
import { resourcesFeature } from './features/resources';
import { samplingFeature } from './features/sampling';
import { serversFeature } from './features/servers';
import { serversViewFeature } from './features/serversView';
import { skillsFeature } from './features/skills';
import { tasksFeature } from './features/tasks';
import { testingFeature } from './features/testing';
import { toolsFeature } from './features/tools';
import type { CommandId } from './platform/commandIds';
import {
  everyCommandHandled,
  registerCommands,
  type CommandTable,
  type Feature,
  type FeatureContext,
} from './platform/feature';
import { codeLoadMs, msSinceActivationStarted } from './platform/codeLoadTime';
import { windowHost } from './platform/host';
import { openWalkthroughOnFirstRun } from './platform/ui/walkthrough';
import { Platform } from './platform/platform';
import { OfferedServices } from './platform/services';
import { createTestHooks, TestBuildHost, type McpWorkbenchTestApi } from './testHooks';

/** What the test build's `activate` returns (see testHooks.ts); kept as a name the suites import. */
export type McpWorkbenchApi = McpWorkbenchTestApi;

/** Every feature, in the order they activate: a feature that adds rows to the Servers view comes before the view. */
const FEATURES = {
  servers: serversFeature,
  config: configFeature,
  tools: toolsFeature,
  resources: resourcesFeature,
  prompts: promptsFeature,
  sampling: samplingFeature,
  elicitation: elicitationFeature,
  history: historyFeature,
  registry: registryFeature,
  tasks: tasksFeature,
  skills: skillsFeature,
  events: eventsFeature,
  protocolView: protocolViewFeature,
  testing: testingFeature,
  dev: devFeature,
  apps: appsFeature,
  lint: lintFeature,
  authorTools: authorToolsFeature,
  playground: playgroundFeature,
  gateway: gatewayFeature,
  serversView: serversViewFeature,
};
type Features = typeof FEATURES;

/** What each feature's activation left for the test build's hooks. */
export type FeatureExports = { [Name in keyof Features]: ReturnType<Features[Name]['activate']>['exports'] };

// Every contributed command has a handler: a command no feature handles does not compile (two that handle one fail at
// registration, and test/unit/project/commandTable.test.ts holds the list against package.json).
type HandledCommand = {
  [Name in keyof Features]: Features[Name] extends Feature<infer Ids, unknown> ? Ids : never;
}[keyof Features];
type UnhandledCommand = Exclude<CommandId, HandledCommand>;

/** The platform's staged shutdown, for deactivate (VS Code awaits it; disposables are not awaited). */
let shutdown: (() => Promise<void>) | undefined;

/**
 * The composition root: the platform, then every feature, then the first read of the configuration. It returns nothing
 * to other extensions: any installed extension can read `exports`, and every live object here would let it call tools
 * past the confirmations and History or read stored secrets. Only the test build returns its hooks.
 */
export async function activate(context: vscode.ExtensionContext): Promise<McpWorkbenchApi | undefined> {
  const activationStarted = performance.now();
  // A literal `false` outside the test build: esbuild drops these branches and, with them, all of testHooks.ts.
  const testHost = MCP_WORKBENCH_TEST_BUILD ? new TestBuildHost() : undefined;
  const host = testHost ?? windowHost();
  const platform = new Platform(context, host);
  context.subscriptions.push(platform);
  const featureContext: FeatureContext = {
    extension: context,
    platform,
    services: new OfferedServices(),
    own: (...disposables) => context.subscriptions.push(...disposables),
  };
  const tables: CommandTable<CommandId>[] = [];
  const exports: Partial<Record<keyof Features, unknown>> = {};
  for (const [name, feature] of Object.entries(FEATURES) as [keyof Features, Feature<CommandId, unknown>][]) {
    const activated = feature.activate(featureContext);
    tables.push(activated.commands);
    exports[name] = activated.exports;
  }
  everyCommandHandled<UnhandledCommand>();
  context.subscriptions.push(registerCommands(platform.loader.firstLoad, tables));
  shutdown = () => platform.shutdown();
  // Not awaited: activation ends before the configuration is read (the read yields to the busy start-up event loop).
  platform.start();
  if (host.firstRunWalkthrough) openWalkthroughOnFirstRun(context, (line) => platform.ownLog.info(line));
  // `npm run bench:ui` reads this line: activate()'s own time from VS Code's call (with, in a packed build, the load of
  // the extension's code it starts with), and the time VS Code took to load the entry before it (both count into the
  // activation).
  const loaded = codeLoadMs(context.extension.id);
  const activated = msSinceActivationStarted(context.extension.id) ?? performance.now() - activationStarted;
  platform.ownLog.info(
    `Activated in ${Math.round(activated)} ms; the extension's code loaded in ${loaded === undefined ? '?' : Math.round(loaded)} ms`,
  );
  if (MCP_WORKBENCH_TEST_BUILD && testHost) {
    // The suites drive the servers as soon as they have the hooks.
    await platform.loader.firstLoad;
    return createTestHooks(platform, exports as FeatureExports, testHost);
  }
  return undefined;
}

/** Awaited by VS Code on window close or reload: every server gets its staged shutdown before the host exits. */
export async function deactivate(): Promise<void> {
  const stop = shutdown;
  shutdown = undefined;
  await stop?.();
}
