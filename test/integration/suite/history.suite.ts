/**
 * The History view and where results are drawn, inside the real extension host against server-everything: calls go
 * through the Call Tool form (the messages its webview posts) and their results are drawn under it, History's
 * commands run as the view's menus run them, older results open in the tool's reused result tab, and the webview
 * confirms it drew each result.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { McpWorkbenchApi } from '../../../src/extension/extension';
import type { HistoryNode } from '../../../src/extension/features/history/historyTreeProvider';
import type { ServerController } from '../../../src/extension/platform/servers/serverController';
import type { ToolFormHandle } from '../../../src/extension/features/tools/toolFormPanel';
import { ConversationBuilder } from '../../../src/workbench/evals/conversation';
import { Suite, assert, assertEqual, waitUntil, type VscodeApi } from './framework';
import { EVERYTHING_SERVER, EXTENSION_ID, leaveCleanState, startFromCleanState } from './workbench';

export function historySuite(vscode: VscodeApi): Suite {
  const suite = new Suite('history');
  let api: McpWorkbenchApi | undefined;

  const requireApi = (): McpWorkbenchApi => {
    assert(api, 'the extension API is not available');
    return api;
  };
  suite.before(async () => {
    api = await startFromCleanState(vscode);
    await vscode.commands.executeCommand('mcpWorkbench.clearHistory');
  });

  const everything = (): ServerController => {
    const controller = requireApi().manager.byName(EVERYTHING_SERVER)[0];
    assert(controller, `no server named "${EVERYTHING_SERVER}"`);
    return controller;
  };
  const entryNodes = async (): Promise<(HistoryNode & { kind: 'entry' })[]> => {
    const tree = requireApi().historyTree;
    const server = (await tree.getChildren())?.find(
      (node) => node.kind === 'server' && node.serverName === EVERYTHING_SERVER,
    );
    assert(server, `History has no row for ${EVERYTHING_SERVER}`);
    return ((await tree.getChildren(server)) ?? []).filter(
      (node): node is HistoryNode & { kind: 'entry' } => node.kind === 'entry',
    );
  };
  const getSumEntry = async (a: number, b: number) => {
    const node = (await entryNodes()).find(
      (n) =>
        n.entry.operation.kind === 'tool' &&
        n.entry.operation.toolName === 'get-sum' &&
        JSON.stringify(n.entry.operation.arguments) === JSON.stringify({ a, b }),
    );
    assert(node, `no get-sum(${a}, ${b}) entry in History`);
    return node;
  };
  /** The open tabs, the active one marked: said when a result is not drawn (a page that is not shown may not load). */
  const openTabs = (): string =>
    vscode.window.tabGroups.all
      .flatMap((group) =>
        group.tabs.map(
          (tab) => `${tab.label}${tab.isActive ? ' (active)' : ''}${group.isActive ? '' : ' [other group]'}`,
        ),
      )
      .join(', ');
  /** Does `act` and waits until a webview reports that it drew the result `act` led to. */
  const actAndRender = async (what: string, act: () => PromiseLike<unknown>) => {
    const results = requireApi().browse.results;
    const before = results.lastShown?.sequence ?? 0;
    const rendered: number[] = [];
    const subscription = results.onDidRender((sequence) => rendered.push(sequence));
    try {
      await act();
      const shown = await waitUntil(`a new result (${what})`, () =>
        results.lastShown && results.lastShown.sequence > before ? results.lastShown : undefined,
      );
      await waitUntil(
        `the webview to draw result ${shown.sequence} (${what})`,
        () => (rendered.includes(shown.sequence) ? true : undefined),
        60_000,
      ).catch((error: Error) => {
        throw new Error(`${error.message}; open tabs: ${openTabs()}`);
      });
      return shown;
    } finally {
      subscription.dispose();
    }
  };
  const submitAndRender = (form: ToolFormHandle, args: Record<string, unknown>) =>
    actAndRender(`submitted ${JSON.stringify(args)}`, () => form.receive({ type: 'submit', arguments: args }));

  suite.test(
    'calls through the form are recorded in History and drawn under the form, updated in place',
    async () => {
      await vscode.commands.executeCommand('mcpWorkbench.startServer', { kind: 'server', controller: everything() });
      await requireApi().manager.waitForState(EVERYTHING_SERVER, 'running', 60_000);
      const state = everything().state;
      assert(state.kind === 'running', 'server not running');
      const tool = state.tools.find((t) => t.name === 'get-sum');
      assert(tool, 'no get-sum tool');
      requireApi().history.clear();
      // Result tabs of earlier suites are closed, so the count below is this test's.
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await waitUntil('no result tab open', () => (requireApi().browse.results.openTabs === 0 ? true : undefined));
      // The closed panels' dispose events reach the extension after the command resolves: until the form an earlier
      // suite left open is gone, Call Tool would reveal that dying panel and hand back its handle.
      await waitUntil('no tool form open', () => (requireApi().browse.forms.openForms === 0 ? true : undefined));

      await vscode.commands.executeCommand('mcpWorkbench.callTool', { kind: 'tool', controller: everything(), tool });
      const form = await waitUntil('the open tool form', () => requireApi().browse.forms.active);
      // Its page loads once the form is on screen: nothing an earlier suite left may have come up over it.
      await waitUntil('the tool form as the active tab', () => {
        const active = vscode.window.tabGroups.activeTabGroup.activeTab;
        return active?.input instanceof vscode.TabInputWebview &&
          active.input.viewType.endsWith('mcpWorkbench.toolForm')
          ? true
          : undefined;
      }).catch((error: Error) => {
        throw new Error(`${error.message}; open tabs: ${openTabs()}`);
      });
      // A person submits from the page, so it listens by then (a body posted before that is held until the page says
      // `ready`: test/unit/extension/features/tools/resultChannel.test.ts).
      await waitUntil("the form's page to say it listens", () => (form.pageListening ? true : undefined), 60_000).catch(
        (error: Error) => {
          throw new Error(`${error.message}; open tabs: ${openTabs()}`);
        },
      );
      const first = await submitAndRender(form, { a: 2, b: 3 });
      assert(first.html.includes('The sum of 2 and 3 is 5.'), `first result:\n${first.html}`);
      assertEqual(first.place, 'form', 'where the first result of a call from the form is drawn');
      const second = await submitAndRender(form, { a: 4, b: 5 });
      assert(second.html.includes('The sum of 4 and 5 is 9.'), `second result:\n${second.html}`);
      assertEqual(second.place, 'form', 'where the second result is drawn');
      assertEqual(second.delivery, 'posted', 'the second result is posted to the form page, which listens by now');
      assertEqual(requireApi().browse.results.openTabs, 0, 'result tabs open after two calls from the form');

      // "Open in Its Own Tab" under the result: the tool's result tab, created for it and drawn.
      const own = await actAndRender('Open in Its Own Tab', () => form.receive({ type: 'openTab' }));
      assert(own.html.includes('The sum of 4 and 5 is 9.'), `result in its own tab:\n${own.html}`);
      assertEqual(own.place, 'tab', 'where Open in Its Own Tab shows the result');
      assertEqual(requireApi().browse.results.openTabs, 1, 'result tabs after Open in Its Own Tab');

      const entries = await entryNodes();
      assertEqual(entries.length, 2, 'History entries after two calls');
      const newest = entries[0]?.entry;
      assert(newest && newest.operation.kind === 'tool', 'newest entry is a tool call');
      assertEqual(
        JSON.stringify(newest.operation.arguments),
        JSON.stringify({ a: 4, b: 5 }),
        'arguments of the newest entry (newest first)',
      );
      assertEqual(newest.outcome.kind, 'succeeded', 'outcome of the newest entry');
      assert(typeof newest.durationMs === 'number' && newest.durationMs >= 0, 'the entry has a duration');
      const item = await requireApi().historyTree.getTreeItem(entries[0]);
      assertEqual(item.label, 'get-sum', 'label of a tool call row');
      assertEqual(item.contextValue, 'historyEntry.tool', 'context value of a tool call row (re-run, copy)');
      await form.receive({ type: 'cancel' });
    },
    { timeoutMs: 90_000 },
  );

  suite.test('Open Result shows an older call again in the tool result tab, updated in place', async () => {
    const older = await getSumEntry(2, 3);
    const shown = await actAndRender('Open Result', () =>
      vscode.commands.executeCommand('mcpWorkbench.openHistoryEntry', older),
    );
    assert(shown.html.includes('The sum of 2 and 3 is 5.'), `reopened result:\n${shown.html}`);
    assertEqual(shown.place, 'tab', 'where Open Result shows the result');
    assert(shown.delivery !== 'created', 'the open result tab of the tool is reused');
    assertEqual(requireApi().browse.results.openTabs, 1, 'result tabs after reopening (still one for the tool)');
  });

  suite.test(
    'Re-run opens the form prefilled with the same arguments, and the call is recorded again',
    async () => {
      const older = await getSumEntry(2, 3);
      await vscode.commands.executeCommand('mcpWorkbench.rerunHistoryEntry', older);
      const form = await waitUntil('the prefilled form', () => {
        const active = requireApi().browse.forms.active;
        return active?.initialValues ? active : undefined;
      });
      assertEqual(
        JSON.stringify(form.initialValues),
        JSON.stringify({ a: 2, b: 3 }),
        'values the form was prefilled with',
      );
      const shown = await submitAndRender(form, form.initialValues ?? {});
      assert(shown.html.includes('The sum of 2 and 3 is 5.'), `re-run result:\n${shown.html}`);
      assertEqual((await entryNodes()).length, 3, 'History entries after the re-run');
      await form.receive({ type: 'cancel' });
    },
    { timeoutMs: 60_000 },
  );

  suite.test(
    'a call without a form: the tool tab opens while its arguments are asked, and the answer is posted to its page',
    async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await waitUntil('no result tab open', () => (requireApi().browse.results.openTabs === 0 ? true : undefined));
      const results = requireApi().browse.results;
      // What Call Tool with JSON Arguments does around its input box (the box itself cannot be typed into from here).
      const prepared = results.prepareCall(everything(), 'get-sum');
      assertEqual(results.openTabs, 1, 'result tabs while the arguments are asked');
      const screen = prepared.begin(() => undefined);
      const args = { a: 6, b: 7 };
      const shown = await actAndRender('a call without a form', async () => {
        const outcome = await everything().callTool('get-sum', args, {});
        screen.settle({
          kind: 'answered',
          record: { serverName: EVERYTHING_SERVER, toolName: 'get-sum', args, outcome, durationMs: 0 },
        });
      });
      assert(shown.html.includes('The sum of 6 and 7 is 13.'), `result in the tab:\n${shown.html}`);
      assertEqual(shown.place, 'tab', 'where a call without a form shows its result');
      assert(shown.delivery !== 'created', 'the tab opened before the call is the one the result goes to');
      assertEqual(results.openTabs, 1, 'result tabs after the call');

      // The arguments box cancelled: the tab opened for it closes again.
      const abandoned = results.prepareCall(everything(), 'echo');
      assertEqual(results.openTabs, 2, 'result tabs while the arguments of echo are asked');
      abandoned.abandon();
      await waitUntil(
        'the tab opened for the abandoned call to close',
        () => (results.openTabs === 1 ? true : undefined),
        10_000,
      );
    },
    { timeoutMs: 60_000 },
  );

  suite.test(
    'Copy as CLI Command gives a line that runs from the installed extension: the same call through the same mcp.json (the clipboard is not read: a headless browser grants no clipboard)',
    async () => {
      const older = await getSumEntry(4, 5);
      const command = await vscode.commands.executeCommand<string | undefined>(
        'mcpWorkbench.copyHistoryCliCommand',
        older,
      );
      assert(command, 'no command was copied');
      assert(
        /^node \S*dist\/cli\.js'? call get-sum '\{"a":4,"b":5\}' --config \S+mcp\.json'? --server everything$/.test(
          command,
        ),
        `copied command: ${command}`,
      );
      // The line names the CLI inside the installed extension, and runs as it is, as pasted into a shell.
      const cli = path.join(vscode.extensions.getExtension(EXTENSION_ID)?.extensionPath ?? '', 'dist', 'cli.js');
      assert(fs.existsSync(cli) && command.includes(cli), `the installed extension has no ${cli} (copied: ${command})`);
      const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile('/bin/sh', ['-c', command], { timeout: 60_000, killSignal: 'SIGKILL' }, (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
        );
      });
      assertEqual(run.code, 0, `exit code of the copied line (stderr: ${run.stderr})`);
      assert(
        run.stdout.includes('The sum of 4 and 5 is 9.'),
        `output of the copied line:\n${run.stdout}\n${run.stderr}`,
      );
    },
    { timeoutMs: 90_000 },
  );

  suite.test('a resource read is recorded, and Clear History empties the view', async () => {
    const catalog = await requireApi().browse.catalog.ready(everything());
    const resource = catalog?.resources.find((r) => r.mimeType === 'text/markdown');
    assert(resource, 'no text/markdown resource listed');
    await vscode.commands.executeCommand('mcpWorkbench.readResource', {
      kind: 'resource',
      controller: everything(),
      resource,
    });
    await waitUntil('a resource read in History', async () =>
      (await entryNodes()).find((n) => n.entry.operation.kind === 'resource' && n.entry.operation.uri === resource.uri),
    );
    await vscode.commands.executeCommand('mcpWorkbench.clearHistory');
    assertEqual((await requireApi().historyTree.getChildren())?.length ?? 0, 0, 'History rows after Clear');
  });

  suite.test(
    'a playground conversation is one History row; Export Conversation writes it masked as Markdown or JSON',
    async () => {
      const builder = new ConversationBuilder(
        { id: 'scripted-model', name: 'Scripted', provider: 'fake' },
        [EVERYTHING_SERVER],
        Date.now(),
      );
      builder.begin('Echo my key', [], Date.now());
      const call = builder.call(EVERYTHING_SERVER, 'echo', { message: 'hi', apiKey: 'sk-history-suite-0123456789' });
      ConversationBuilder.ended(call, 'Echo: hi', false, 3);
      builder.finish('answered', 'Done.');
      const entry = requireApi().history.record({
        server: { id: everything().id, name: EVERYTHING_SERVER },
        startedAt: Date.now(),
        operation: {
          kind: 'conversation',
          model: 'Scripted',
          servers: [EVERYTHING_SERVER],
          requests: 1,
          title: 'Echo my key',
        },
        outcome: { kind: 'succeeded' },
        result: builder.record,
      });
      const node = await waitUntil('the conversation row in History', async () =>
        (await entryNodes()).find((n) => n.entry.id === entry.id),
      );
      const item = await requireApi().historyTree.getTreeItem(node);
      assertEqual(item.contextValue, 'historyEntry.conversation', 'context value of a conversation row (Export)');
      const folder = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.fixtures', 'history-export');
      fs.mkdirSync(folder, { recursive: true });
      for (const name of ['conversation.json', 'conversation.md']) {
        const file = path.join(folder, name);
        const written = await vscode.commands.executeCommand<{ fsPath: string } | undefined>(
          'mcpWorkbench.exportConversation',
          node,
          { file },
        );
        assertEqual(written?.fsPath, file, `the exported ${name}`);
        const text = fs.readFileSync(file, 'utf8');
        assert(!text.includes('sk-history-suite-0123456789'), `the key is in the export:\n${text}`);
        assert(text.includes('Echo my key') && text.includes('Echo: hi'), `the request and the result:\n${text}`);
      }
      const json = JSON.parse(fs.readFileSync(path.join(folder, 'conversation.json'), 'utf8')) as {
        turns: { calls: { arguments: Record<string, unknown> }[] }[];
      };
      assertEqual(json.turns[0].calls[0].arguments.apiKey, '••••', 'the masked argument');
      assert(
        fs.readFileSync(path.join(folder, 'conversation.md'), 'utf8').startsWith('# Conversation with Scripted'),
        'the Markdown export',
      );
      fs.rmSync(folder, { recursive: true, force: true });
    },
  );

  suite.after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  suite.after(() => leaveCleanState(vscode, api));

  return suite;
}
