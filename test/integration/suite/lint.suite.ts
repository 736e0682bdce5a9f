/**
 * Lint in the editor (issue 40): a server whose tools break the rules (test/fixtures/lint/broken-server.mjs) gets a
 * badge and the findings on each tool row of the Servers view, and one Problems entry whose diagnostics sit on the
 * tool's heading in the server's lint document; Show Lint Findings opens that document; a tool fixed by the server
 * (tools/list_changed) is linted again.
 */
import * as path from 'node:path';
import * as fs from 'node:fs';
import type * as vscodeTypes from 'vscode';
import type { McpWorkbenchApi } from '../../../src/extension/extension';
import type { ServersTreeNode } from '../../../src/extension/features/serversView/serversTreeProvider';
import { Suite, assert, assertEqual, waitUntil, type VscodeApi } from './framework';
import { EVERYTHING_SERVER, leaveCleanState, startFromCleanState, workbenchAccess } from './workbench';

const BROKEN = 'lint-broken';

export function lintSuite(vscode: VscodeApi): Suite {
  const suite = new Suite('lint');
  let api: McpWorkbenchApi | undefined;
  let mcpJsonPath: string | undefined;
  let originalMcpJson: string | undefined;
  const { requireApi, controllerOf, configFile } = workbenchAccess(vscode, () => api);
  /** The repository root, from the absolute server-everything path the harness wrote into mcp.json. */
  const repoRoot = (): string => {
    const definition = controllerOf(EVERYTHING_SERVER).entry.definition;
    assert(definition.kind === 'stdio', 'server-everything is not a stdio server');
    return path.resolve(String(definition.args[0]), '..', '..', '..', '..', '..');
  };
  const children = async (node?: ServersTreeNode): Promise<ServersTreeNode[]> =>
    (await requireApi().tree.getChildren(node)) ?? [];
  const toolNode = async (name: string): Promise<ServersTreeNode> => {
    const server = (await children()).find((n) => n.kind === 'server' && n.controller === controllerOf(BROKEN));
    assert(server, `no row for ${BROKEN}`);
    const tools = (await children(server)).find((n) => n.kind === 'group' && n.group === 'tools');
    assert(tools, 'no Tools group');
    const row = (await children(tools)).find((n) => n.kind === 'tool' && n.tool.name === name);
    assert(row, `no row for the tool ${name}`);
    return row;
  };
  const tooltipText = (item: vscodeTypes.TreeItem): string =>
    typeof item.tooltip === 'string' ? item.tooltip : (item.tooltip?.value ?? '');

  suite.before(async () => {
    api = await startFromCleanState(vscode);
    mcpJsonPath = configFile();
    originalMcpJson = fs.readFileSync(mcpJsonPath, 'utf8');
    const config = JSON.parse(originalMcpJson) as { servers: Record<string, unknown> };
    config.servers[BROKEN] = {
      type: 'stdio',
      command: process.execPath,
      args: [path.join(repoRoot(), 'test', 'fixtures', 'lint', 'broken-server.mjs')],
    };
    fs.writeFileSync(mcpJsonPath, JSON.stringify(config, null, 2));
    await requireApi().reload();
    await waitUntil(`server ${BROKEN} configured`, () => requireApi().manager.byName(BROKEN)[0], 15_000);
    await controllerOf(BROKEN).start();
    await requireApi().manager.waitForState(BROKEN, 'running', 30_000);
  });

  suite.test(
    'a broken tool shows its errors on its row, and the findings in its tooltip; a clean one is fine',
    async () => {
      const item = await waitUntil(
        'the lint badge on the row of the tool "portability"',
        async () => {
          const shown = await requireApi().tree.getTreeItem(await toolNode('portability'));
          return String(shown.description ?? '').includes('lint:') ? shown : undefined;
        },
        15_000,
      );
      assert(
        /\[lint: 1 error\(s\), \d+ warning\(s\)\]/.test(String(item.description)),
        `badge: ${String(item.description)}`,
      );
      const resolved = requireApi().tree.resolveTreeItem(item, await toolNode('portability'));
      // Markdown escapes removed (the findings are appended as text), so the text can be compared.
      const tooltip = tooltipText(resolved).replace(/\\(.)/g, '$1');
      assert(tooltip.includes('schema/boolean-schema'), `tooltip: ${tooltip}`);
      assert(tooltip.includes('inputSchema.properties.anything'), `tooltip: ${tooltip}`);
      const clean = await requireApi().tree.getTreeItem(await toolNode('filler_0'));
      assert(String(clean.description).includes('[lint: fine]'), `clean tool: ${String(clean.description)}`);
    },
  );

  suite.test(
    'Problems has one entry for the server, and a diagnostic sits on the tool in its lint document',
    async () => {
      const entry = await waitUntil(
        'the lint entry in Problems',
        () =>
          vscode.languages
            .getDiagnostics()
            .find(([uri]) => uri.scheme === 'mcp-workbench-lint' && uri.path.includes(BROKEN)),
        15_000,
      );
      const entries = vscode.languages
        .getDiagnostics()
        .filter(([uri]) => uri.scheme === 'mcp-workbench-lint' && uri.path.includes(BROKEN));
      assertEqual(entries.length, 1, 'Problems entries of the server');
      const [uri, diagnostics] = entry;
      const boolean = diagnostics.find((d) => typeof d.code === 'object' && d.code.value === 'schema/boolean-schema');
      assert(boolean, `no boolean-schema diagnostic among ${diagnostics.length}`);
      assertEqual(boolean.severity, vscode.DiagnosticSeverity.Error, 'severity');
      const document = await vscode.workspace.openTextDocument(uri);
      assertEqual(
        document.lineAt(boolean.range.start.line).text,
        '// "tool:portability"',
        'the line the diagnostic is on',
      );

      await vscode.commands.executeCommand('mcpWorkbench.showLintFindings', {
        kind: 'server',
        controller: controllerOf(BROKEN),
      });
      await waitUntil(
        'the lint document in the editor',
        () => (vscode.window.activeTextEditor?.document.uri.toString() === uri.toString() ? true : undefined),
        10_000,
      );
    },
  );

  suite.test(
    'a tool, template or prompt listed twice has a row of its own: every row of a group has its own id',
    async () => {
      const server = (await children()).find((n) => n.kind === 'server' && n.controller === controllerOf(BROKEN));
      assert(server, `no row for ${BROKEN}`);
      for (const group of ['tools', 'templates', 'prompts'] as const) {
        const node = (await children(server)).find((n) => n.kind === 'group' && n.group === group);
        assert(node, `no ${group} group`);
        const rows = await children(node);
        const ids = await Promise.all(rows.map(async (row) => (await requireApi().tree.getTreeItem(row)).id));
        // VS Code refuses a second row of the same id: the rest of the group is not drawn, and a refresh fails.
        assertEqual(new Set(ids).size, ids.length, `distinct ids among the ${group}: ${JSON.stringify(ids)}`);
      }
    },
  );

  suite.test('the lint runs again when the tool list changes: the fixed tool is fine', async () => {
    await controllerOf(BROKEN).callTool('fix_portability', {}, {});
    await waitUntil(
      'the badge of the fixed tool to say fine',
      async () => {
        const item = await requireApi().tree.getTreeItem(await toolNode('portability'));
        return String(item.description ?? '').includes('[lint: fine]') ? true : undefined;
      },
      15_000,
    );
  });

  suite.after(async () => {
    if (mcpJsonPath && originalMcpJson !== undefined) {
      fs.writeFileSync(mcpJsonPath, originalMcpJson);
      await api?.reload();
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await leaveCleanState(vscode, api);
  });

  return suite;
}
