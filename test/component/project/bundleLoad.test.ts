/**
 * What loading the extension costs: VS Code evaluates extension.js and every file it imports statically, before
 * activate() runs; the rest of the build loads where a source file says `await import(…)` (esbuild.js). So what a
 * window evaluates as it opens is the static import closure of extension.js, and that must hold none of what a window
 * needs only later: the client and its transports (a server's first start), OAuth (an HTTP server's), the gateway and
 * its server SDK (a gateway's), the registry (its commands), and the CLI's tools. An import of one of them from a
 * start-up module moves it into the closure: this test names the import chain that did.
 *
 * The closure is read from esbuild's metafile of the build as esbuild.js configures it, written nowhere.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { before, test } from 'node:test';
import * as esbuild from 'esbuild';
import { REPO_ROOT } from '../../support/testSupport';

/** Never in extension.js's static closure: a module path (repository-relative) starting with one of these. */
const LATER = [
  'src/protocol/client.ts',
  'src/protocol/transports/http.ts',
  'src/protocol/transports/streamableHttp.ts',
  'src/protocol/transports/httpSse.ts',
  'src/protocol/node/stdio.ts',
  'src/protocol/jsonrpc/rpcConnection.ts',
  'src/protocol/auth/oauthAuthorizer.ts',
  'src/workbench/node/launch.ts',
  'src/workbench/gateway/upstream.ts',
  'src/workbench/node/gateway/',
  'src/workbench/registry/',
  'src/workbench/load/',
  'src/workbench/doctor/',
  'src/extension/platform/servers/serverLauncher.ts',
  'src/extension/features/registry/registryCommands.ts',
  // Issue 36: what a window needs only at a server's first start, a first form, call, app, sampling request or run.
  'src/protocol/eras/select.ts',
  'src/protocol/eras/modern/',
  'src/protocol/validation/schemaValidation.ts',
  'src/protocol/validation/jsonSchema/',
  'src/workbench/lint/lintServer.ts',
  'src/workbench/sampling/coordinator.ts',
  'src/workbench/sampling/openaiProvider.ts',
  'src/workbench/apps/appSession.ts',
  'src/workbench/recordings/replay.ts',
  'src/workbench/recordings/rerecord.ts',
  'src/extension/features/sampling/samplingService.ts',
  'src/extension/features/apps/appPanel.ts',
  'src/extension/features/testing/recordedServer.ts',
  'src/extension/features/protocolView/protocolPanel.ts',
  'src/extension/features/protocolView/compareDocuments.ts',
  'src/extension/features/tools/toolUi.ts',
  'src/extension/features/tools/toolFormPanel.ts',
  'src/extension/features/tools/toolResultView.ts',
  'src/workbench/forms/formModel.ts',
  'src/extension/platform/webviews/fieldMessages.ts',
  'src/extension/features/config/addServer.ts',
  'src/extension/features/config/copyServer.ts',
  // Issue 43: Server Cards are read only when the person asks (Add Server, Show Server Card).
  'src/workbench/serverCards/',
  'src/extension/features/config/serverCard.ts',
  'src/extension/features/config/catalogPick.ts',
  'src/extension/platform/serverCards/',
  'src/extension/features/resources/resourceCommands.ts',
  'src/extension/features/skills/skillCommands.ts',
  'src/extension/features/history/historyCommands.ts',
  'src/extension/features/history/saveAsTest.ts',
  // Issue 43: the events client, the Events commands and the live feed load at the first Events group or command.
  'src/protocol/extensions/events/eventsApi.ts',
  'src/protocol/node/webhookListener.ts',
  'src/extension/features/events/eventCommands.ts',
  'src/extension/features/events/feedPanel.ts',
  // Issue 36 (start-up back under its size at filing): the protocol extensions' code loads with a server's start (the
  // views ask a client for an extension's API by its key: TASKS_API, SKILLS_API, APPS_API, EVENTS_API); the regex
  // engine with a dev server's watch or a first recording read; the lint rules with a server's first lint; the
  // gateway's tool rules and traffic with a first gateway.
  'src/protocol/extensions/tasks/tasksExtension.ts',
  'src/protocol/extensions/tasks/taskReceiver.ts',
  'src/protocol/extensions/skills/skillsApi.ts',
  'src/protocol/extensions/skills/frontmatter.ts',
  'src/protocol/extensions/apps/appsExtension.ts',
  'src/protocol/extensions/events/eventsExtension.ts',
  'src/protocol/validation/linearRegExp.ts',
  'src/protocol/validation/regexParser.ts',
  'src/workbench/config/globMatch.ts',
  'src/workbench/recordings/format.ts',
  'src/workbench/lint/rules.ts',
  'src/workbench/gateway/toolPolicy.ts',
  'src/workbench/gateway/agentTraffic.ts',
];
/** Packages, by their folder in node_modules (wherever that is: node_modules may be a link to another checkout). */
const LATER_PACKAGES = ['vscode-jsonrpc', 'oauth4webapi', '@modelcontextprotocol/server', '@modelcontextprotocol/core'];

type Metafile = esbuild.Metafile;
let metafile: Metafile;
before(async () => {
  const { codeTarget } = createRequire(__filename)(path.join(REPO_ROOT, 'esbuild.js')) as {
    codeTarget: esbuild.BuildOptions;
  };
  const result = await esbuild.build({ ...codeTarget, write: false, plugins: [], minify: false, sourcemap: false });
  assert.ok(result.metafile, 'esbuild.js builds with a metafile');
  metafile = result.metafile;
});

const isLater = (input: string): boolean =>
  LATER.some((prefix) => input.startsWith(prefix)) ||
  LATER_PACKAGES.some((name) => input.includes(`node_modules/${name}/`));

/** The output file of an entry point ('extension' or 'cli'). */
function entryOutput(name: string): string {
  const found = Object.keys(metafile.outputs).find((output) => path.basename(output) === `${name}.js`);
  assert.ok(found, `${name}.js in ${Object.keys(metafile.outputs).join(', ')}`);
  return found;
}

/** The output files an output imports, with `import` statements (evaluated with it) or also with `import()`. */
function closure(output: string, kinds: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const { path: imported, kind, external } of metafile.outputs[file].imports)
      if (!external && kinds.includes(kind)) visit(imported);
  };
  visit(output);
  return seen;
}

/** The modules the files hold. */
const inputsOf = (outputs: Set<string>): string[] =>
  [...outputs].flatMap((output) => Object.keys(metafile.outputs[output].inputs));

/** How a module is reached from extension.ts through static imports of sources: the chain that pulled it in. */
function importChain(target: string): string {
  const from = new Map<string, string>([['src/extension/extension.ts', '']]);
  const queue = ['src/extension/extension.ts'];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (file === target) break;
    for (const { path: imported, kind } of metafile.inputs[file]?.imports ?? [])
      if ((kind === 'import-statement' || kind === 'require-call') && !from.has(imported)) {
        from.set(imported, file);
        queue.push(imported);
      }
  }
  const chain = [target];
  while (from.get(chain[0])) chain.unshift(from.get(chain[0]) as string);
  return chain.join(' -> ');
}

test("loading extension.js evaluates none of the client, OAuth, the gateway, the registry or the CLI's tools", () => {
  const atLoad = inputsOf(closure(entryOutput('extension'), ['import-statement']));
  assert.ok(
    atLoad.includes('src/extension/extension.ts') && atLoad.includes('src/workbench/config/mcpConfig.ts'),
    `the closure is read: ${atLoad.length} modules`,
  );
  assert.deepEqual(atLoad.filter(isLater).map(importChain), []);
});

test('what loads later is in the build, reached through an import() (the list above names real modules)', () => {
  const reachable = inputsOf(closure(entryOutput('extension'), ['import-statement', 'dynamic-import']));
  for (const prefix of LATER.filter((entry) => !/load\/|doctor\//.test(entry)))
    assert.ok(
      reachable.some((input) => input.startsWith(prefix)),
      `${prefix} is not in the extension's build`,
    );
  for (const name of LATER_PACKAGES)
    assert.ok(
      reachable.some((input) => input.includes(`node_modules/${name}/`)),
      `${name} is not in the extension's build`,
    );
  // The CLI's tools, the load generator and doctor, are the CLI's alone.
  const cli = inputsOf(closure(entryOutput('cli'), ['import-statement', 'dynamic-import']));
  assert.ok(
    cli.some((input) => input.startsWith('src/workbench/load/')) &&
      cli.some((input) => input.startsWith('src/workbench/doctor/')),
  );
});

/** Never in cli.js's static closure: what `--help` must not evaluate, imported when its subcommand runs (issue 36). */
const CLI_LATER = [
  'src/protocol/client.ts',
  'src/cli/connect.ts',
  'src/cli/session.ts',
  'src/cli/conformance.ts',
  'src/cli/auth.ts',
  'src/cli/registry.ts',
  'src/cli/recordings.ts',
  'src/cli/gateway.ts',
  'src/cli/lint.ts',
  'src/cli/load.ts',
  'src/cli/doctor.ts',
  'src/workbench/config/dialects/',
  'src/workbench/registry/',
];

test("loading cli.js (its --help) evaluates none of the subcommands' code or the client", () => {
  const atLoad = inputsOf(closure(entryOutput('cli'), ['import-statement']));
  assert.ok(atLoad.includes('src/cli/main.ts'), `the closure is read: ${atLoad.length} modules`);
  assert.deepEqual(
    atLoad.filter((input) => CLI_LATER.some((prefix) => input.startsWith(prefix))),
    [],
  );
  const reachable = inputsOf(closure(entryOutput('cli'), ['import-statement', 'dynamic-import']));
  for (const prefix of CLI_LATER)
    assert.ok(
      reachable.some((input) => input.startsWith(prefix)),
      `${prefix} is not in the CLI's build`,
    );
});
