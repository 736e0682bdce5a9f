/**
 * Every config file people keep servers in, live (issue 38): a server written by hand into the workspace-root
 * `.mcp.json` shows up through the file watcher, names its source on its row, opens its file at the entry and starts;
 * Claude Code's `~/.claude.json` (in a temporary home folder: mcpWorkbench.sources.homeFolder, never the real ~) is
 * offered once it is there and read only once the person takes the offer, its servers are the person's own (no
 * first-start confirmation) and the file is never rewritten; the same server in two files is one row naming both;
 * Copilot's `tools` allow-list in `.github/mcp.json` is applied (only its tools offered, a call to another refused).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { McpWorkbenchApi } from '../../../src/extension/extension';
import type { ServerController } from '../../../src/extension/platform/servers/serverController';
import { FIXTURE_SERVER_SOURCE } from '../../fixtures/lifecycle/fixtureServer';
import { Suite, assert, assertEqual, waitUntil, type VscodeApi } from './framework';
import { leaveCleanState, startFromCleanState, workbenchAccess, writeWorkspaceFile } from './workbench';

export function sourcesSuite(vscode: VscodeApi): Suite {
  const suite = new Suite('sources');
  let api: McpWorkbenchApi | undefined;
  const { folder, requireApi, controllerOf, snapshotOf } = workbenchAccess(vscode, () => api);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-sources-home-'));
  const fixture = path.join(home, 'fixture-server.cjs');
  const dotMcp = () => path.join(folder().uri.fsPath, '.mcp.json');
  const githubMcp = () => path.join(folder().uri.fsPath, '.github', 'mcp.json');
  const stdio = () => ({ command: process.execPath, args: [fixture] });
  const sources = () => vscode.workspace.getConfiguration('mcpWorkbench.sources');
  const asked: string[] = [];

  /** Open Source File on the server's row opens its file with the entry's name selected. */
  const assertOpensAtEntry = async (controller: ServerController, file: string, name: string) => {
    await vscode.commands.executeCommand('mcpWorkbench.openServerSource', { kind: 'server', controller });
    const editor = await waitUntil(
      `${file} in the active editor`,
      () => {
        const active = vscode.window.activeTextEditor;
        return active?.document.uri.fsPath === file ? active : undefined;
      },
      10_000,
    );
    assertEqual(editor.document.getText(editor.selection), JSON.stringify(name), `the selection in ${file}`);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  };

  suite.before(async () => {
    api = await startFromCleanState(vscode);
    fs.writeFileSync(fixture, FIXTURE_SERVER_SOURCE);
    requireApi().config.setLaunchConfirmer(async ({ serverName }) => (asked.push(serverName), true));
  });

  suite.test('a server added by hand in .mcp.json shows up, starts, and its row names its source', async () => {
    await writeWorkspaceFile(
      vscode,
      dotMcp(),
      `// written by hand\n${JSON.stringify({ mcpServers: { 'dot-mcp-fixture': { type: 'stdio', ...stdio() } } })}\n`,
    );
    // No reload: the file's watcher brings it in.
    const snapshot = await waitUntil(
      'dot-mcp-fixture in the Servers view',
      () => snapshotOf('dot-mcp-fixture'),
      30_000,
    );
    assertEqual(snapshot.origin, '.mcp.json', 'origin of dot-mcp-fixture');
    assertEqual(snapshot.scope, 'workspace', 'a file inside the workspace holds workspace servers');
    const controller = controllerOf('dot-mcp-fixture');
    const row = requireApi().tree.getTreeItem({ kind: 'server', controller });
    assert(String(row.description).includes('.mcp.json'), `row description: ${String(row.description)}`);
    assert(String((row.tooltip as { value?: string })?.value).includes('.mcp.json'), 'the tooltip names the file');
    await assertOpensAtEntry(controller, dotMcp(), 'dot-mcp-fixture');
    await controller.start();
    assertEqual(snapshotOf('dot-mcp-fixture')?.state, 'running', 'state of dot-mcp-fixture');
    assert(asked.includes('dot-mcp-fixture'), 'a workspace server asks the first-start confirmation');
    await controller.stop();
  });

  suite.test(
    'Add Server writes to .mcp.json in its dialect, keeping the comment, and the server shows up',
    async () => {
      await vscode.commands.executeCommand('mcpWorkbench.addServer', {
        transport: 'stdio',
        // Another argument: the same command line as dot-mcp-fixture's would be the same server, one row for both.
        commandLine: `${JSON.stringify(process.execPath)} ${JSON.stringify(fixture)} --added`,
        name: 'added-to-dot-mcp',
        target: vscode.Uri.file(dotMcp()).toString(),
      });
      const text = fs.readFileSync(dotMcp(), 'utf8');
      assert(text.startsWith('// written by hand\n'), `the comment is kept:\n${text}`);
      const written = (JSON.parse(text.slice(text.indexOf('\n'))) as { mcpServers: Record<string, { type?: string }> })
        .mcpServers;
      assertEqual(written['added-to-dot-mcp']?.type, 'stdio', "the new entry, in .mcp.json's mcpServers");
      assert(written['dot-mcp-fixture'] !== undefined, 'the entry written by hand is still there');
      const snapshot = await waitUntil(
        'added-to-dot-mcp in the Servers view',
        () => snapshotOf('added-to-dot-mcp'),
        10_000,
      );
      assertEqual(snapshot.origin, '.mcp.json', 'origin of added-to-dot-mcp');
    },
  );

  suite.test(
    'a Claude Code ~/.claude.json project server is offered once the file is there and appears after one click',
    async () => {
      const claudeFile = path.join(home, '.claude.json');
      fs.writeFileSync(
        claudeFile,
        JSON.stringify({
          numStartups: 1,
          projects: { [folder().uri.fsPath]: { mcpServers: { 'claude-fixture': { type: 'stdio', ...stdio() } } } },
        }),
      );
      const written = fs.readFileSync(claudeFile, 'utf8');
      const offers: string[] = [];
      let listedWhenOffered: boolean | undefined;
      requireApi().config.answerNotifications((notification) => {
        if (!notification.message.includes('.claude.json')) return undefined;
        offers.push(notification.message);
        listedWhenOffered = snapshotOf('claude-fixture') !== undefined;
        return notification.actions[0];
      });
      let snapshot;
      try {
        // The home folder moves to one holding ~/.claude.json: the file is found and offered, not read.
        await sources().update('homeFolder', home, vscode.ConfigurationTarget.Global);
        snapshot = await waitUntil('claude-fixture in the Servers view', () => snapshotOf('claude-fixture'), 10_000);
      } finally {
        requireApi().config.answerNotifications(undefined);
      }
      assertEqual(offers.length, 1, `offers of ~/.claude.json: ${offers.join(' | ')}`);
      assert(offers[0].includes('~/.claude.json'), `the offer names the file: ${offers[0]}`);
      assertEqual(listedWhenOffered, false, "Claude Code's file is off until the person turns it on");
      assertEqual(
        sources().inspect('claudeCode')?.globalValue,
        true,
        "the offer's button turned the source on in the user settings",
      );
      assertEqual(snapshot.scope, 'user', "a home-folder file holds the person's own servers");
      assert(snapshot.origin.endsWith('.claude.json'), `origin of claude-fixture: ${snapshot.origin}`);
      await assertOpensAtEntry(controllerOf('claude-fixture'), claudeFile, 'claude-fixture');
      asked.length = 0;
      await controllerOf('claude-fixture').start();
      assertEqual(snapshotOf('claude-fixture')?.state, 'running', 'state of claude-fixture');
      assertEqual(asked.length, 0, "confirmations asked for the person's own server");
      await controllerOf('claude-fixture').stop();
      assertEqual(fs.readFileSync(claudeFile, 'utf8'), written, "Claude Code's file is read, never rewritten");
    },
  );

  suite.test("a workspace's settings cannot turn on another client's file in the home folder", async () => {
    // The person's own setting from the test before, taken back; the workspace's settings say on instead.
    await sources().update('claudeCode', undefined, vscode.ConfigurationTarget.Global);
    const settingsFile = path.join(folder().uri.fsPath, '.vscode', 'settings.json');
    const before = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : undefined;
    const settings = before === undefined ? {} : (JSON.parse(before) as Record<string, unknown>);
    try {
      fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
      // With a window-scoped setting beside it, whose workspace value tells when VS Code has read the file.
      fs.writeFileSync(
        settingsFile,
        JSON.stringify({
          ...settings,
          'mcpWorkbench.sources.claudeCode': true,
          'mcpWorkbench.sources.codeWorkspace': true,
        }),
      );
      await waitUntil(
        "the workspace's settings file as VS Code reads it",
        () => (sources().inspect('codeWorkspace')?.workspaceValue === true ? true : undefined),
        30_000,
      );
      await requireApi().reload();
      assertEqual(snapshotOf('claude-fixture'), undefined, "claude-fixture with only the workspace's setting on");
    } finally {
      if (before === undefined) fs.rmSync(settingsFile, { force: true });
      else fs.writeFileSync(settingsFile, before);
    }
  });

  suite.test(
    'the same server in .mcp.json and .github/mcp.json is one row naming both files; removing one copy leaves it',
    async () => {
      fs.mkdirSync(path.dirname(githubMcp()), { recursive: true });
      // dot-mcp-fixture's command line under another name: the same server (dedupe.ts keys on what runs, not names).
      await writeWorkspaceFile(
        vscode,
        githubMcp(),
        JSON.stringify({ mcpServers: { 'same-in-github': { type: 'stdio', ...stdio() } } }),
      );
      const described = () =>
        String(
          requireApi().tree.getTreeItem({ kind: 'server', controller: controllerOf('dot-mcp-fixture') }).description,
        );
      await waitUntil(
        'the row of dot-mcp-fixture naming .github/mcp.json',
        () => (described().includes('.github/mcp.json') ? true : undefined),
        30_000,
      );
      assert(described().includes('.mcp.json + .github/mcp.json'), `row description: ${described()}`);
      assertEqual(snapshotOf('same-in-github'), undefined, 'no second row for the copy in .github/mcp.json');
      const tooltip = String(
        (
          requireApi().tree.getTreeItem({ kind: 'server', controller: controllerOf('dot-mcp-fixture') }).tooltip as {
            value?: string;
          }
        )?.value,
      );
      assert(
        tooltip.includes('Also in') && tooltip.includes(githubMcp()),
        `the tooltip names the other file: ${tooltip}`,
      );
      fs.rmSync(githubMcp());
      await waitUntil(
        'the row of dot-mcp-fixture naming only .mcp.json',
        () => (described().includes('.github') ? undefined : true),
        30_000,
      );
      assert(snapshotOf('dot-mcp-fixture') !== undefined, 'the server stays, from .mcp.json');
    },
  );

  suite.test(
    'a registry entry (Import server.json) goes into .mcp.json in its dialect; one with a secret is refused there',
    async () => {
      const serverJson = (name: string, environmentVariables: object[]) => {
        const file = path.join(home, `${name}.server.json`);
        fs.writeFileSync(
          file,
          JSON.stringify({
            name: `io.github.example/${name}`,
            description: 'A registry entry',
            version: '1.0.0',
            packages: [
              {
                registryType: 'npm',
                identifier: `@example/${name}`,
                version: '1.0.0',
                transport: { type: 'stdio' },
                environmentVariables,
              },
            ],
          }),
        );
        return file;
      };
      const target = vscode.Uri.file(dotMcp()).toString();
      const key = await vscode.commands.executeCommand<string | undefined>('mcpWorkbench.importServerJson', {
        file: serverJson('plain', []),
        target,
      });
      assertEqual(key, 'plain', 'the key the entry was added under');
      const text = fs.readFileSync(dotMcp(), 'utf8');
      assert(text.startsWith('// written by hand\n'), `the comment is kept:\n${text}`);
      const servers = (JSON.parse(text.slice(text.indexOf('\n'))) as { mcpServers: Record<string, object> }).mcpServers;
      assertEqual(
        Object.keys(servers).join(),
        'dot-mcp-fixture,added-to-dot-mcp,plain',
        'the entries, in their order, the new one last',
      );
      assertEqual(
        JSON.stringify(servers.plain),
        JSON.stringify({ type: 'stdio', command: 'npx', args: ['-y', '@example/plain@1.0.0'] }),
        "the entry in .mcp.json's dialect",
      );
      const secret = await vscode.commands.executeCommand<string | undefined>('mcpWorkbench.importServerJson', {
        file: serverJson('secret', [{ name: 'API_KEY', isRequired: true, isSecret: true }]),
        target,
      });
      assertEqual(secret, undefined, 'nothing added');
      assertEqual(fs.readFileSync(dotMcp(), 'utf8'), text, '.mcp.json unchanged by the refused entry');
      const refusal = requireApi()
        .config.notifications()
        .find((shown) => shown.message.includes('secret.server.json'));
      assert(
        refusal !== undefined && refusal.message.includes('API_KEY') && refusal.message.includes('.vscode/mcp.json'),
        `the refusal names the input and where it can go: ${refusal?.message}`,
      );
    },
  );

  suite.test(
    "Copilot's tools allow-list in .github/mcp.json: only the listed tool is offered, a call to another is refused",
    async () => {
      fs.mkdirSync(path.dirname(githubMcp()), { recursive: true });
      await writeWorkspaceFile(
        vscode,
        githubMcp(),
        JSON.stringify({
          mcpServers: {
            'copilot-fixture': { type: 'local', ...stdio(), args: [fixture, '--copilot'], tools: ['echo'] },
          },
        }),
      );
      await requireApi().reload();
      await waitUntil('copilot-fixture in the Servers view', () => snapshotOf('copilot-fixture'), 30_000);
      const controller = controllerOf('copilot-fixture');
      const row = requireApi().tree.getTreeItem({ kind: 'server', controller });
      const tooltip = String((row.tooltip as { value?: string })?.value);
      assert(
        tooltip.includes('is applied: only these tools are shown and callable: echo'),
        `the row says the allow-list is applied: ${tooltip}`,
      );
      await controller.start();
      const state = controller.state;
      assert(state.kind === 'running', `state of copilot-fixture: ${state.kind}`);
      assertEqual(state.tools.map((tool) => tool.name).join(), 'echo', 'tools offered (the fixture has echo and env)');
      let refusal = '';
      await controller.callTool('env', { name: 'HOME' }, {}).then(
        () => undefined,
        (error: Error) => (refusal = error.message),
      );
      assert(
        refusal.includes('"env" is not offered') && refusal.includes('.github/mcp.json') && refusal.includes('echo'),
        `the refusal names the tool, the file and the list: ${refusal}`,
      );
      const echoed = await controller.callTool('echo', { text: 'allowed' }, {});
      assert(JSON.stringify(echoed).includes('allowed'), `echo answered: ${JSON.stringify(echoed)}`);
      await controller.stop();
    },
  );

  suite.after(async () => {
    for (const controller of api?.manager.servers ?? [])
      if (controller.state.kind !== 'stopped') await controller.stop();
    fs.rmSync(dotMcp(), { force: true });
    fs.rmSync(path.dirname(githubMcp()), { recursive: true, force: true });
    await sources().update('claudeCode', undefined, vscode.ConfigurationTarget.Global);
    await sources().update('homeFolder', undefined, vscode.ConfigurationTarget.Global);
    await api?.reload();
    fs.rmSync(home, { recursive: true, force: true });
  });
  suite.after(() => leaveCleanState(vscode, api));

  return suite;
}
