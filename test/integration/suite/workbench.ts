/**
 * What every integration suite shares: the extension under test, the state a suite starts from and leaves behind,
 * and accessors for its test API. A suite must pass alone and in any order (MCP_INTEGRATION_SUITES picks and orders
 * them), so none relies on what another set up: each starts with `startFromCleanState` in a before hook and ends
 * with `leaveCleanState` in an after hook, on top of restoring what it changed itself (files, settings).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as vscodeTypes from 'vscode';
import type { UrlModal } from '../../../src/extension/features/elicitation/elicitationUi';
import type { McpWorkbenchApi } from '../../../src/extension/extension';
import type { ServerController } from '../../../src/extension/platform/servers/serverController';
import { assert, assertEqual, waitUntil, type VscodeApi } from './framework';

export const EXTENSION_ID = 'mcp-workbench.mcp-workbench';
/** The server name the workspace's .vscode/mcp.json must define (see integration.test.ts / runTest.ts). */
export const EVERYTHING_SERVER = 'everything';

/** The extension activated, with its test API. */
export async function activateWorkbench(vscode: VscodeApi): Promise<McpWorkbenchApi> {
  const extension = vscode.extensions.getExtension<McpWorkbenchApi>(EXTENSION_ID);
  assert(
    extension,
    `extension ${EXTENSION_ID} is not installed (installed: ${vscode.extensions.all.map((e) => e.id).join(', ')})`,
  );
  const api = await extension.activate();
  assert(
    api?.manager && api.config,
    `${EXTENSION_ID} exports no test API: is this the test build (node esbuild.js --test-hooks)? (exports: ${Object.keys(api ?? {}).join(', ')})`,
  );
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

/**
 * Undoes what startFromCleanState and the suite's tests left: running servers, answering hooks, and editors on the
 * workspace's mcp.json (an open document lags behind a file the next suite rewrites, and edits go through it).
 */
export async function leaveCleanState(vscode: VscodeApi, api: McpWorkbenchApi | undefined): Promise<void> {
  const configFile = workbenchAccess(vscode, () => api).configFile();
  // A dirty editor is left alone: closing it would wait on a save prompt.
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.fsPath === configFile && !tab.isDirty);
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
  if (!api) return;
  await stopAllServers(api);
  api.config.setLaunchConfirmer(undefined);
  api.config.setPromptAnswerer(undefined);
  api.config.setRestartPolicy(undefined);
}

/**
 * Writes `file` on disk and waits until every open, unmodified document of it shows the new text: VS Code picks up
 * the change asynchronously, and a command that edits through the document would otherwise see the old text.
 */
export async function writeWorkspaceFile(vscode: VscodeApi, file: string, text: string): Promise<void> {
  fs.writeFileSync(file, text);
  const stale = () =>
    vscode.workspace.textDocuments.filter((d) => d.uri.fsPath === file && !d.isDirty && d.getText() !== text);
  await waitUntil(
    `the open document of ${file} to show what was written`,
    () => (stale().length === 0 ? true : undefined),
    10_000,
  );
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
    assert(
      found,
      `no server "${name}" (servers: ${requireApi()
        .manager.snapshot()
        .map((s) => s.name)
        .join(', ')})`,
    );
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
    snapshotOf: (name: string) =>
      requireApi()
        .manager.snapshot()
        .find((s) => s.name === name),
    folder,
    /** The workspace's .vscode/mcp.json. */
    configFile: (): string => path.join(folder().uri.fsPath, '.vscode', 'mcp.json'),
  };
}

/**
 * Answers URL-elicitation consent modals with `button` and records them, and records the URLs handed to
 * openExternal instead of opening them, until `run` settles; then the real dialog and opener are back.
 */
export async function withUrlConsent<T>(
  api: McpWorkbenchApi,
  button: string,
  run: (seen: { modals: UrlModal[]; opened: string[] }) => Promise<T>,
): Promise<T> {
  const seen = { modals: [] as UrlModal[], opened: [] as string[] };
  api.sampling.answerUrlModal((modal) => {
    seen.modals.push(modal);
    return modal.buttons.find((candidate) => candidate === button);
  });
  api.sampling.setOpenExternal(async (url) => {
    seen.opened.push(url);
    return true;
  });
  try {
    return await run(seen);
  } finally {
    api.sampling.answerUrlModal(undefined);
    api.sampling.setOpenExternal(undefined);
  }
}

/**
 * Accepts the first row of step `step` of the completion pick on screen (Get Prompt's arguments), as Enter does, once
 * the server's suggestions for it are in its rows, and checks that row is `first`. Accepted before they are in, the
 * pick takes the text typed (none): a required argument then waits on, an optional one is answered empty.
 */
export async function acceptFirstSuggestion(
  vscode: VscodeApi,
  api: McpWorkbenchApi,
  step: number,
  first: string,
): Promise<void> {
  const shown = await waitUntil(
    `step ${step} of the completion pick to show the server's suggestions`,
    () => {
      const pick = api.browse.completionPick();
      return pick?.step === step && pick.settled && pick.items.length > 0 ? pick : undefined;
    },
    20_000,
  );
  assertEqual(shown.items[0], first, `the first row of step ${step} of "${shown.title}"`);
  // The extension host sends a quick pick's new rows to the window from a setTimeout(0) (ExtHostQuickInput.update),
  // so a command sent at once could reach the window before them. A timer of the same length set after that one runs
  // after it: this orders the accept behind the rows; it does not wait on time.
  await new Promise((resolve) => setTimeout(resolve, 0));
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
}

/** Closes a completion pick a failed test left on screen (it ignores focus loss), so the next test does not meet it. */
export async function closeCompletionPick(vscode: VscodeApi, api: McpWorkbenchApi | undefined): Promise<void> {
  if (api?.browse.completionPick()) await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
}
