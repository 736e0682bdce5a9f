/**
 * First integration suite: runs inside the extension host of a real VS Code whose workspace has a
 * .vscode/mcp.json with a stdio server named "everything" (@modelcontextprotocol/server-everything).
 * Uses public VS Code API and the extension's exported test API only.
 */
import type { McpWorkbenchApi } from '../../../src/extension/extension';
import { pidExists as isAlive } from '../../support/processes';
import { Suite, assert, assertEqual, waitUntil, type VscodeApi } from './framework';
import { EVERYTHING_SERVER, EXTENSION_ID, leaveCleanState, startFromCleanState } from './workbench';

const COMMANDS = [
  'mcpWorkbench.startServer',
  'mcpWorkbench.stopServer',
  'mcpWorkbench.callTool',
  'mcpWorkbench.showLog',
];

export function basicSuite(vscode: VscodeApi): Suite {
  const suite = new Suite('basic');
  let api: McpWorkbenchApi | undefined;
  let serverPid: number | undefined;

  const requireApi = (): McpWorkbenchApi => {
    assert(api, 'the extension API is not available (activation test failed)');
    return api;
  };
  const everything = () => {
    const manager = requireApi().manager;
    const controller = manager.byName(EVERYTHING_SERVER)[0];
    const names = manager.snapshot().map((s) => s.name);
    assert(controller, `no server named "${EVERYTHING_SERVER}" is configured (servers: ${JSON.stringify(names)})`);
    return controller;
  };
  const snapshotOf = (name: string) =>
    requireApi()
      .manager.snapshot()
      .find((s) => s.name === name);

  // Not the API: the first test checks that activation hands it over.
  suite.before(() => startFromCleanState(vscode));

  suite.test('the extension is installed and activates with its test API', async () => {
    const extension = vscode.extensions.getExtension<McpWorkbenchApi>(EXTENSION_ID);
    assert(
      extension,
      `extension ${EXTENSION_ID} is not installed (installed: ${vscode.extensions.all.map((e) => e.id).join(', ')})`,
    );
    const exports = await extension.activate();
    assert(extension.isActive, `${EXTENSION_ID} is not active after activate()`);
    assert(
      exports && typeof exports.manager?.snapshot === 'function',
      `${EXTENSION_ID} exports no manager.snapshot() (exports: ${Object.keys(exports ?? {}).join(', ')})`,
    );
    api = exports;
  });

  suite.test('its commands are registered', async () => {
    const all = new Set(await vscode.commands.getCommands(true));
    const missing = COMMANDS.filter((command) => !all.has(command));
    assertEqual(missing.length, 0, `missing commands ${JSON.stringify(missing)}; count of missing commands`);
  });

  suite.test(`the "${EVERYTHING_SERVER}" server from .vscode/mcp.json is listed, stopped`, async () => {
    // activate() reads the configuration before it resolves; waiting a little more keeps this robust.
    const snapshot = await waitUntil(
      `server "${EVERYTHING_SERVER}" in the snapshot`,
      () => snapshotOf(EVERYTHING_SERVER),
      15_000,
    );
    assertEqual(snapshot.state, 'stopped', `state of "${EVERYTHING_SERVER}"`);
  });

  suite.test(
    'mcpWorkbench.startServer starts it and it lists the echo tool',
    async () => {
      const controller = everything();
      // Commands invoked from the Servers view receive the row's node: { kind: 'server', controller }.
      await vscode.commands.executeCommand('mcpWorkbench.startServer', { kind: 'server', controller });
      await requireApi().manager.waitForState(EVERYTHING_SERVER, 'running', 60_000);
      const snapshot = snapshotOf(EVERYTHING_SERVER);
      assert(snapshot, `"${EVERYTHING_SERVER}" vanished from the snapshot`);
      assertEqual(snapshot.state, 'running', `state of "${EVERYTHING_SERVER}"`);
      assert(
        snapshot.tools.includes('echo'),
        `tools of "${EVERYTHING_SERVER}" do not include echo: ${JSON.stringify(snapshot.tools)}`,
      );
      assert(
        typeof snapshot.pid === 'number' && snapshot.pid > 0,
        `running stdio server has no pid: ${JSON.stringify(snapshot)}`,
      );
      serverPid = snapshot.pid;
    },
    { timeoutMs: 90_000 },
  );

  suite.test('mcpWorkbench.stopServer stops it and its process ends', async () => {
    const controller = everything();
    await vscode.commands.executeCommand('mcpWorkbench.stopServer', { kind: 'server', controller });
    await requireApi().manager.waitForState(EVERYTHING_SERVER, 'stopped', 30_000);
    const snapshot = snapshotOf(EVERYTHING_SERVER);
    assertEqual(snapshot?.state, 'stopped', `state of "${EVERYTHING_SERVER}"`);
    assertEqual(snapshot?.tools.length, 0, 'number of tools listed for a stopped server');
    const pid = serverPid;
    assert(pid !== undefined, 'no pid recorded by the start test');
    await waitUntil(`server process ${pid} to end`, () => (isAlive(pid) ? undefined : true), 15_000);
  });

  // Leave nothing running whatever failed above (deactivate would also stop it, but only if the host shuts down cleanly).
  suite.after(() => leaveCleanState(vscode, api));

  return suite;
}
