/**
 * The Servers view through the TreeDataProvider the extension registers (exported as `api.tree`): group nodes per
 * declared capability, annotation badges on tools, the origin in the server tooltip, and an open `mcp-workbench-resource:`
 * document refreshing when a subscribed resource changes (server-everything's `toggle-subscriber-updates` makes it
 * send `notifications/resources/updated` every 5 seconds for each subscribed URI).
 */
import type * as vscodeTypes from 'vscode';
import type { McpWorkbenchApi } from '../../../src/extension/extension';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TOOL_PAGE_SIZE, type ServersTreeNode } from '../../../src/extension/features/serversView/serversTreeProvider';
import { FIXTURE_SERVER_SOURCE } from '../../fixtures/lifecycle/fixtureServer';
import { Suite, assert, assertEqual, waitUntil, type VscodeApi } from './framework';
import { EVERYTHING_SERVER, EXTENSION_ID, leaveCleanState, startFromCleanState, workbenchAccess } from './workbench';

export function treeSuite(vscode: VscodeApi): Suite {
  const suite = new Suite('tree');
  let api: McpWorkbenchApi | undefined;
  let updatesOn = false;
  let subscribedUri: string | undefined;

  const { requireApi, controllerOf } = workbenchAccess(vscode, () => api);
  const everything = () => controllerOf(EVERYTHING_SERVER);
  const tree = () => requireApi().tree;
  const children = async (node?: ServersTreeNode): Promise<ServersTreeNode[]> => (await tree().getChildren(node)) ?? [];
  const serverNode = async (): Promise<ServersTreeNode> => {
    const node = (await children()).find((n) => n.kind === 'server' && n.controller === everything());
    assert(node, `no root node for "${EVERYTHING_SERVER}"`);
    return node;
  };
  const tooltipText = (item: vscodeTypes.TreeItem): string =>
    typeof item.tooltip === 'string' ? item.tooltip : (item.tooltip?.value ?? '');
  /** Markdown escapes removed, so the text can be compared with what the extension put in. */
  const unescapeMarkdown = (text: string) => text.replace(/\\(.)/g, '$1');

  suite.before(async () => {
    api = await startFromCleanState(vscode);
  });

  suite.test(
    'the server node has one group per declared capability, each listing its items',
    async () => {
      const extension = vscode.extensions.getExtension<McpWorkbenchApi>(EXTENSION_ID);
      assert(extension, 'extension not installed');
      api = await extension.activate();
      assert(
        api.tree && typeof api.tree.getChildren === 'function',
        `the API exports no tree provider (exports: ${Object.keys(api).join(', ')})`,
      );
      await vscode.commands.executeCommand('mcpWorkbench.startServer', { kind: 'server', controller: everything() });
      await requireApi().manager.waitForState(EVERYTHING_SERVER, 'running', 60_000);
      const catalog = await requireApi().browse.catalog.ready(everything());
      assert(catalog && !catalog.loading, 'the catalog has no listing for the running server');

      const server = await serverNode();
      const serverItem = await tree().getTreeItem(server);
      assertEqual(serverItem.contextValue, 'server.running', 'context value of the running server node');
      const client = everything().client;
      assert(client, 'running server has no client');
      const capabilities = client.session.capabilities;
      const expected = [
        ...(capabilities.tools ? ['group.tools'] : []),
        ...(capabilities.resources ? ['group.resources', 'group.templates'] : []),
        ...(capabilities.prompts ? ['group.prompts'] : []),
      ];
      assertEqual(expected.length, 4, 'server-everything declares tools, resources and prompts');
      const groups = await children(server);
      const contexts = await Promise.all(groups.map(async (g) => (await tree().getTreeItem(g)).contextValue));
      assertEqual(JSON.stringify(contexts), JSON.stringify(expected), 'group nodes under the server');

      const state = everything().state;
      assert(state.kind === 'running', 'server not running');
      const counts: Record<string, number> = {
        'group.tools': state.tools.length,
        'group.resources': catalog.resources.length,
        'group.templates': catalog.templates.length,
        'group.prompts': catalog.prompts.length,
      };
      for (const [index, group] of groups.entries()) {
        const context = contexts[index] ?? '';
        const items = await children(group);
        assertEqual(items.length, counts[context], `children of ${context}`);
        assertEqual(
          (await tree().getTreeItem(group)).description,
          String(counts[context]),
          `count shown on ${context}`,
        );
      }
    },
    { timeoutMs: 90_000 },
  );

  suite.test('a read-only tool shows its annotations as badges, in the description and the tooltip', async () => {
    const tools = await children(
      (await children(await serverNode())).find((g) => g.kind === 'group' && g.group === 'tools'),
    );
    const echo = tools.find((n) => n.kind === 'tool' && n.tool.name === 'echo');
    assert(
      echo && echo.kind === 'tool',
      `no echo tool node (tools: ${tools.map((n) => (n.kind === 'tool' ? n.tool.name : n.kind)).join(', ')})`,
    );
    assertEqual(echo.tool.annotations?.readOnlyHint, true, 'echo is annotated read-only by server-everything');
    // The tooltip comes with resolveTreeItem, as VS Code asks for it on hover.
    const item = tree().resolveTreeItem(tree().getTreeItem(echo), echo);
    const description = String(item.description ?? '');
    // Title (or the description's first line) first, the hints after it.
    assert(
      /^[^[].* \[(read-only|只读)\] \[(idempotent|幂等)\]/.test(description),
      `echo description: ${JSON.stringify(description)}`,
    );
    assert(
      !/destructive|破坏性/.test(description),
      `a read-only tool must not be shown as destructive: ${description}`,
    );
    assert(/`(read-only|只读)`/.test(tooltipText(item)), `echo tooltip: ${tooltipText(item)}`);
    assertEqual(item.contextValue, 'tool', 'context value of a tool node (inline Call Tool action)');

    const destructive = tools.find(
      (n) =>
        n.kind === 'tool' && n.tool.annotations?.destructiveHint === true && n.tool.annotations.readOnlyHint !== true,
    );
    if (destructive) {
      const destructiveItem = await tree().getTreeItem(destructive);
      assert(
        /\[(destructive|破坏性)\]/.test(String(destructiveItem.description)),
        `destructive tool description: ${String(destructiveItem.description)}`,
      );
    }
  });

  suite.test(
    "a single click opens each item's flow: tools, resources, resource templates and prompts alike",
    async () => {
      const groups = await children(await serverNode());
      const expected: Record<string, string> = {
        tool: 'mcpWorkbench.callTool',
        resource: 'mcpWorkbench.readResource',
        template: 'mcpWorkbench.readResourceTemplate',
        prompt: 'mcpWorkbench.getPrompt',
      };
      const seen = new Set<string>();
      for (const group of groups) {
        for (const node of await children(group)) {
          if (!(node.kind in expected)) continue;
          seen.add(node.kind);
          const item = await tree().getTreeItem(node);
          assertEqual(item.command?.command, expected[node.kind], `click command of a ${node.kind} row`);
          const argument = item.command?.arguments?.[0] as ServersTreeNode | undefined;
          assertEqual(argument?.kind, node.kind, `argument of the ${node.kind} row's click`);
        }
      }
      assertEqual([...seen].sort().join(','), 'prompt,resource,template,tool', 'row kinds checked');
      // Clicking a prompt without arguments runs the whole flow: its messages open as a document.
      const prompts = await children(groups.find((g) => g.kind === 'group' && g.group === 'prompts'));
      const simple = prompts.find((n) => n.kind === 'prompt' && (n.prompt.arguments ?? []).length === 0);
      assert(simple && simple.kind === 'prompt', 'server-everything lists no prompt without arguments');
      const click = (await tree().getTreeItem(simple)).command;
      assert(click, 'the prompt row has no click command');
      await vscode.commands.executeCommand(click.command, ...(click.arguments ?? []));
      await waitUntil("the clicked prompt's document", () =>
        vscode.workspace.textDocuments.find(
          (d) => d.uri.scheme === 'mcp-result' && d.getText().includes(simple.prompt.name),
        ),
      );
    },
  );

  suite.test('the server tooltip shows where the server is defined (its origin) and what it runs', async () => {
    const item = await tree().getTreeItem(await serverNode());
    const text = unescapeMarkdown(tooltipText(item));
    const origin = everything().entry.origin;
    assert(origin.label.length > 0, 'the entry has no origin label');
    assert(text.includes(origin.label), `origin ${JSON.stringify(origin.label)} not in tooltip:\n${text}`);
    assert(text.includes(origin.configUri.fsPath), `config file ${origin.configUri.fsPath} not in tooltip:\n${text}`);
    assert(/server-everything/.test(text), `command line not in tooltip:\n${text}`);
    assert(/protocol \d{4}-\d{2}-\d{2}|协议/.test(text), `protocol revision not in tooltip:\n${text}`);
  });

  suite.test(
    'a catalog reload and a subscription refresh only their rows, never the whole tree or the tools',
    async () => {
      const server = await serverNode();
      const groupOf = async (group: string) => {
        const node = (await children(server)).find((g) => g.kind === 'group' && g.group === group);
        assert(node, `no ${group} group`);
        return node;
      };
      const events: (ServersTreeNode | ServersTreeNode[] | undefined | null | void)[] = [];
      const subscription = tree().onDidChangeTreeData((event) => events.push(event));
      const refreshed = () => events.flatMap((event) => (Array.isArray(event) ? event : [event]));
      let subscribed: ServersTreeNode | undefined;
      try {
        const resourcesGroup = await groupOf('resources');
        await vscode.commands.executeCommand('mcpWorkbench.refreshServer', server);
        await waitUntil('the tree to announce the reloaded groups', () =>
          refreshed().includes(resourcesGroup) ? true : undefined,
        );
        assert(
          !refreshed().some((node) => node === undefined || node === null),
          'a catalog reload refreshed the whole tree',
        );
        assert(
          !refreshed().some((node) => node?.kind === 'server' || (node?.kind === 'group' && node.group === 'tools')),
          `a catalog reload refreshed the server or its tools: ${JSON.stringify(refreshed().map((node) => node?.kind))}`,
        );

        events.length = 0;
        const row = (await children(resourcesGroup)).find((node) => node.kind === 'resource');
        assert(row && row.kind === 'resource', 'no resource row');
        await vscode.commands.executeCommand('mcpWorkbench.subscribeResource', row);
        subscribed = row;
        await waitUntil('the tree to announce the subscribed row', () =>
          refreshed().includes(row) ? true : undefined,
        );
        assertEqual(refreshed().length, 1, 'rows refreshed by one subscription');
        const item = await tree().getTreeItem(row);
        assertEqual(item.contextValue, 'resource.subscribed', 'context value of the subscribed row');
        assert(
          /subscribed|已订阅/.test(String(item.description)),
          `a subscribed row is marked: ${String(item.description)}`,
        );
      } finally {
        subscription.dispose();
        if (subscribed) await vscode.commands.executeCommand('mcpWorkbench.unsubscribeResource', subscribed);
      }
    },
  );

  suite.test(
    'a configuration applied again with the same servers refreshes their rows in place, never the whole tree',
    async () => {
      // A whole-tree refresh makes the extension host forget every row until the view asks again: a row a person
      // expands in that moment (to start its server) is lost, left expanded, empty and stopped (CI, cancel.e2e.ts).
      const server = await serverNode();
      await children(); // what the view was last given
      const events: (ServersTreeNode | ServersTreeNode[] | undefined | null | void)[] = [];
      const subscription = tree().onDidChangeTreeData((event) => events.push(event));
      const refreshed = () => events.flatMap((event) => (Array.isArray(event) ? event : [event]));
      try {
        const manager = requireApi().manager;
        await manager.applyConfiguration(manager.servers.map((controller) => controller.entry));
        assert(
          refreshed().includes(server),
          `the server row was not refreshed in place: ${JSON.stringify(refreshed().map((node) => node?.kind ?? String(node)))}`,
        );
        assert(
          !refreshed().some((node) => node === undefined || node === null),
          'the same configuration refreshed the whole tree',
        );
      } finally {
        subscription.dispose();
      }
    },
  );

  suite.test(
    'a long tool list shows one page of rows and a Show More row; Show More refreshes only the Tools group',
    async () => {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-tree-many-'));
      const fixture = path.join(folder, 'fixture-server.cjs');
      fs.writeFileSync(fixture, FIXTURE_SERVER_SOURCE);
      const total = 2 + TOOL_PAGE_SIZE * 2 + 7;
      const settings = vscode.workspace.getConfiguration('mcpWorkbench');
      await settings.update(
        'servers',
        {
          servers: {
            'many-tools': { type: 'stdio', command: process.execPath, args: [fixture, `--tools=${total - 2}`] },
          },
        },
        vscode.ConfigurationTarget.Global,
      );
      const events: (ServersTreeNode | ServersTreeNode[] | undefined | null | void)[] = [];
      const subscription = tree().onDidChangeTreeData((event) => events.push(event));
      try {
        const controller = await waitUntil(
          'the many-tools server',
          () => requireApi().manager.byName('many-tools')[0],
          10_000,
        );
        await controller.start();
        const server = await waitUntil('its row', async () =>
          (await children()).find((n) => n.kind === 'server' && n.controller === controller),
        );
        const group = (await children(server)).find((n) => n.kind === 'group' && n.group === 'tools');
        assert(group, 'no Tools group');
        assertEqual(
          String((await tree().getTreeItem(group)).description),
          String(total),
          'the group counts every tool',
        );
        const firstPage = await children(group);
        assertEqual(firstPage.length, TOOL_PAGE_SIZE + 1, 'rows on the first page (tools and the Show More row)');
        const more = firstPage.at(-1);
        assert(more?.kind === 'more', `last row: ${more?.kind}`);
        const moreItem = await tree().getTreeItem(more);
        assertEqual(moreItem.command?.command, 'mcpWorkbench.showMoreTools', 'command of the Show More row');

        events.length = 0;
        await vscode.commands.executeCommand('mcpWorkbench.showMoreTools', ...(moreItem.command?.arguments ?? []));
        // Only this server's events count: server-everything may announce its own changes meanwhile.
        const mine = () =>
          events
            .flatMap((event) => (Array.isArray(event) ? event : [event]))
            .filter((node) => !node || ('controller' in node && node.controller === controller));
        await waitUntil('the Tools group to be refreshed', () => (mine().length > 0 ? true : undefined));
        assertEqual(mine().length, 1, 'refresh events for one Show More');
        assertEqual(mine()[0], group, 'the one node refreshed is the Tools group');
        const secondPage = await children(group);
        assertEqual(secondPage.length, TOOL_PAGE_SIZE * 2 + 1, 'rows after one Show More');
        assert(
          firstPage.slice(0, TOOL_PAGE_SIZE).every((node, index) => secondPage[index] === node),
          'rows already shown keep their nodes',
        );

        await vscode.commands.executeCommand('mcpWorkbench.showMoreTools', secondPage.at(-1));
        const all = await waitUntil('every tool shown', async () => {
          const rows = await children(group);
          return rows.length === total ? rows : undefined;
        });
        assert(
          all.every((node) => node.kind === 'tool'),
          'no Show More row once every tool is shown',
        );
      } finally {
        subscription.dispose();
        await settings.update('servers', undefined, vscode.ConfigurationTarget.Global);
        fs.rmSync(folder, { recursive: true, force: true });
      }
    },
    { timeoutMs: 60_000 },
  );

  suite.test(
    'a subscribed resource open in an editor refreshes when the server says it changed',
    async () => {
      const controller = everything();
      const template = (await requireApi().browse.catalog.ready(controller))?.templates.find((t) =>
        t.uriTemplate.includes('/text/'),
      );
      assert(template, 'no dynamic text template');
      await vscode.commands.executeCommand('mcpWorkbench.readResourceTemplate', {
        kind: 'template',
        controller,
        template,
        values: { resourceId: '7' },
      });
      const document = await waitUntil('the dynamic resource document', () =>
        vscode.workspace.textDocuments.find(
          (d) =>
            d.uri.scheme === 'mcp-workbench-resource' &&
            d.getText().startsWith('Resource 7: This is a plaintext resource'),
        ),
      );
      const uri = new URLSearchParams(document.uri.query).get('uri');
      assert(uri, `no resource URI in ${document.uri.toString()}`);
      const before = { version: document.version, text: document.getText() };

      const changes: string[] = [];
      const listener = vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document.uri.toString() === document.uri.toString() && event.contentChanges.length > 0)
          changes.push(event.document.getText());
      });
      try {
        await vscode.commands.executeCommand('mcpWorkbench.subscribeResource', {
          kind: 'resource',
          controller,
          resource: { uri, name: 'Resource 7' },
        });
        subscribedUri = uri;
        assert(requireApi().browse.subscriptions.isSubscribed(controller, uri), `not subscribed to ${uri}`);
        const toggled = await controller.callTool('toggle-subscriber-updates', {}, {});
        updatesOn = true;
        assert(
          JSON.stringify(toggled).includes('Started simulated resource updated'),
          `toggle-subscriber-updates: ${JSON.stringify(toggled)}`,
        );
        // The resource's text carries a timestamp; an update every 5 s makes the editor re-read it.
        await waitUntil(
          'onDidChangeTextDocument for the subscribed resource',
          () => (changes.length > 0 ? true : undefined),
          20_000,
        );
      } finally {
        listener.dispose();
      }
      const after = vscode.workspace.textDocuments.find((d) => d.uri.toString() === document.uri.toString());
      assert(after, 'the resource document was closed');
      assert(
        after.version > before.version,
        `document version did not change (before ${before.version}, after ${after.version})`,
      );
      assert(
        after.getText() !== before.text && after.getText().startsWith('Resource 7: '),
        `text after the update:\n${after.getText()}\nbefore:\n${before.text}`,
      );
    },
    { timeoutMs: 60_000 },
  );

  suite.after(async () => {
    const controller = api?.manager.byName(EVERYTHING_SERVER)[0];
    if (!controller) return;
    if (updatesOn && controller.state.kind === 'running')
      await controller.callTool('toggle-subscriber-updates', {}, {});
    if (subscribedUri)
      await vscode.commands.executeCommand('mcpWorkbench.unsubscribeResource', {
        kind: 'resource',
        controller,
        resource: { uri: subscribedUri, name: 'Resource 7' },
      });
    await controller.stop();
  });
  suite.after(() => leaveCleanState(vscode, api));

  return suite;
}
