/**
 * What every integration suite shares: the extension under test, the state a suite starts from and leaves behind,
 * and accessors for its test API. A suite must pass alone and in any order (MCP_INTEGRATION_SUITES picks and orders
 * them), so none relies on what another set up: each starts with `startFromCleanState` in a before hook and ends
 * with `leaveCleanState` in an after hook, on top of restoring what it changed itself (files, settings).
 */
import * as path from 'node:path';
import type * as vscodeTypes from 'vscode';
import type { McpWorkbenchApi } from '../../../src/extension/extension';
import type { ServerController } from '../../../src/extension/serverController';
import { assert, type VscodeApi } from './framework';

export const EXTENSION_ID = 'mcp-workbench.mcp-workbench';
/** The server name the workspace's .vscode/mcp.json must define (see integration.test.ts / runTest.ts). */
export const EVERYTHING_SERVER = 'everything';

/** The extension activated, with its test API. */
export async function activateWorkbench(vscode: VscodeApi): Promise<McpWorkbenchApi> {
  const extension = vscode.extensions.getExtension<McpWorkbenchApi>(EXTENSION_ID);
  assert(extension, `extension ${EXTENSION_ID} is not installed (installed: ${vscode.extensions.all.map((e) => e.id).join(', ')})`);
  const api = await extension.activate();
  assert(api?.manager && api.config, `${EXTENSION_ID} exports no test API (exports: ${Object.keys(api ?? {}).join(', ')})`);
  return api;
}

async function stopAllServers(api: McpWorkbenchApi): Promise<void> {
  for (const controller of api.manager.servers) if (controller.state.kind !== 'stopped') await controller.stop();
}

/**
 * The state a suite starts from: the extension active, no server running, and the first-start confirmation of
 * workspace servers (a modal nobody answers here) allowed by the test hook. Returns the API.
 */
export async function startFromCleanState(vscode: VscodeApi): Promise<McpWorkbenchApi> {
  const api = await activateWorkbench(vscode);
  await stopAllServers(api);
  api.config.setLaunchConfirmer(async () => true);
  return api;
}

/** Undoes what startFromCleanState and the suite's tests left in the extension: running servers, answering hooks. */
export async function leaveCleanState(api: McpWorkbenchApi | undefined): Promise<void> {
  if (!api) return;
  await stopAllServers(api);
  api.config.setLaunchConfirmer(undefined);
  api.config.setPromptAnswerer(undefined);
}

/** Accessors over the suite's API (set by its before hook or first test) and the test workspace. */
export function workbenchAccess(vscode: VscodeApi, currentApi: () => McpWorkbenchApi | undefined) {
  const requireApi = (): McpWorkbenchApi => {
    const api = currentApi();
    assert(api, 'the extension API is not available');
    return api;
  };
  const controllerOf = (name: string): ServerController => {
    const found = requireApi().manager.byName(name)[0];
    assert(found, `no server "${name}" (servers: ${requireApi().manager.snapshot().map((s) => s.name).join(', ')})`);
    return found;
  };
  const folder = (): vscodeTypes.WorkspaceFolder => {
    const first = vscode.workspace.workspaceFolders?.[0];
    assert(first, 'the test workspace has no folder');
    return first;
  };
  return {
    requireApi,
    controllerOf,
    snapshotOf: (name: string) => requireApi().manager.snapshot().find((s) => s.name === name),
    folder,
    /** The workspace's .vscode/mcp.json. */
    configFile: (): string => path.join(folder().uri.fsPath, '.vscode', 'mcp.json'),
  };
}
