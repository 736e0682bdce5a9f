/**
 * Configuration and lifecycle inside the real extension host: user-level servers, stored inputs, live edits, crash
 * recovery, missing commands, the first-start confirmation, Add Server, Import, log levels and the masked trace.
 * Servers are the dependency-free fixture (test/fixtures/lifecycle/fixtureServer.ts), written into the workspace.
 * UI steps are answered through the extension's test hooks; storage and everything else run on their real paths.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { McpWorkbenchApi } from '../../../src/extension/extension';
import type { ImportPickItem } from '../../../src/extension/features/config/importServers';
import type { LaunchConfirmer } from '../../../src/extension/platform/servers/launchConfirmation';
import claudeDesktopConfig from '../../fixtures/configs/claude_desktop_config.json';
import { FIXTURE_SERVER_SOURCE } from '../../fixtures/lifecycle/fixtureServer';
import { Suite, assert, assertEqual, waitUntil, type VscodeApi } from './framework';
import {
  activateWorkbench as activate,
  leaveCleanState,
  startFromCleanState,
  workbenchAccess,
  writeWorkspaceFile,
} from './workbench';

const SECRET_INPUT_VALUE = 'pw-Sup3rSecret-input-7731';
const SECRET_ENV_VALUE = 'ghp_LiteralEnvSecret0000000042';
const MASK = '••••';

export function configSuite(vscode: VscodeApi): Suite {
  const suite = new Suite('config');
  let api: McpWorkbenchApi | undefined;
  const { folder, configFile, requireApi, controllerOf, snapshotOf } = workbenchAccess(vscode, () => api);
  const fixture = () => path.join(folder().uri.fsPath, '.fixtures', 'fixture-server.cjs');
  let originalConfig = '';
  const stdio = (...args: string[]) => ({ type: 'stdio', command: process.execPath, args: [fixture(), ...args] });

  /** Rewrites mcp.json with "everything" from the original file plus `servers`, and reloads. */
  const writeWorkspaceServers = async (servers: Record<string, object>, inputs: object[] = []) => {
    const original = JSON.parse(originalConfig) as { servers: Record<string, object> };
    const text = `// written by config.suite.ts\n${JSON.stringify({ inputs, servers: { ...original.servers, ...servers } }, null, 2)}\n`;
    await writeWorkspaceFile(vscode, configFile(), text);
    await requireApi().reload();
  };

  // Workspace servers need the first-start confirmation: startFromCleanState answers it "allow".
  suite.before(async () => {
    api = await startFromCleanState(vscode);
  });

  suite.test('setup: fixture server and API', async () => {
    api = await activate(vscode);
    originalConfig = fs.readFileSync(configFile(), 'utf8');
    fs.mkdirSync(path.dirname(fixture()), { recursive: true });
    fs.writeFileSync(fixture(), FIXTURE_SERVER_SOURCE);
  });

  suite.test('user-level servers from settings appear with their origin and start without confirmation', async () => {
    const asked: string[] = [];
    requireApi().config.setLaunchConfirmer(async ({ serverName }) => (asked.push(serverName), true));
    await vscode.workspace
      .getConfiguration('mcpWorkbench')
      .update('servers', { servers: { 'user-fixture': stdio() } }, vscode.ConfigurationTarget.Global);
    await requireApi().reload();
    const snapshot = await waitUntil('user-fixture in the snapshot', () => snapshotOf('user-fixture'), 10_000);
    assertEqual(snapshot.scope, 'user', 'scope of user-fixture');
    assert(snapshot.origin.includes('mcpWorkbench.servers'), `origin of user-fixture: ${snapshot.origin}`);
    await controllerOf('user-fixture').start();
    assertEqual(snapshotOf('user-fixture')?.state, 'running', 'state of user-fixture');
    assertEqual(asked.length, 0, 'confirmations asked for a user-level server');
    assert(
      requireApi().config.statusBarText().startsWith('$(server)'),
      `status bar: ${requireApi().config.statusBarText()}`,
    );
    await controllerOf('user-fixture').stop();
  });

  suite.test('a password input is asked once, kept in SecretStorage, and never written to a file or log', async () => {
    await vscode.workspace
      .getConfiguration('mcpWorkbench')
      .update('trace.server', 'verbose', vscode.ConfigurationTarget.Global);
    const prompts: string[] = [];
    requireApi().config.setPromptAnswerer(
      async ({ inputId }) => (prompts.push(inputId), inputId === 'token' ? SECRET_INPUT_VALUE : undefined),
    );
    await writeWorkspaceServers({ 'secret-fixture': { ...stdio(), env: { SERVICE_PASSWORD: '${input:token}' } } }, [
      { type: 'promptString', id: 'token', description: 'Token', password: true },
    ]);
    const controller = await waitUntil(
      'secret-fixture',
      () => requireApi().manager.byName('secret-fixture')[0],
      10_000,
    );
    await controller.start();
    const outcome = await controller.callTool('env', { name: 'SERVICE_PASSWORD' }, {});
    assert(
      JSON.stringify(outcome.result).includes(SECRET_INPUT_VALUE),
      'the server did not receive the input value in its env',
    );
    await controller.restart();
    assertEqual(prompts.join(','), 'token', 'prompts asked (once, across a restart)');
    const stored = await requireApi().config.storedSecret(vscode.Uri.file(configFile()).toString(), 'token');
    assertEqual(stored, SECRET_INPUT_VALUE, 'value in SecretStorage');
    await controller.callTool('env', { name: 'SERVICE_PASSWORD' }, {});
    // Log channels write asynchronously: the masked trace of the last call on disk shows the writes have happened.
    await waitUntil(
      'the masked verbose trace of secret-fixture on disk',
      () => {
        const written = channelLog(requireApi().config.storageFolders()[0], 'secret-fixture');
        return written.includes('[trace]') && written.includes(MASK) && written.includes('tools/call')
          ? true
          : undefined;
      },
      15_000,
    );
    const leaks = filesContaining([folder().uri.fsPath, ...requireApi().config.storageFolders()], SECRET_INPUT_VALUE);
    assertEqual(leaks.join(', '), '', 'files containing the password input value');
    await controller.stop();
  });

  suite.test(
    '"Forget Stored Inputs" lists the stored inputs to pick from, asks to confirm, and forgets only what was picked',
    async () => {
      const configUri = vscode.Uri.file(configFile()).toString();
      const listed: string[] = [];
      let confirmations = 0;
      let confirm = false;
      const pickToken = {
        pick: (stored: readonly { key: string; inputId: string; configUri: string; secret: boolean }[]) => {
          listed.push(...stored.map((input) => `${input.inputId}${input.secret ? ' (password)' : ''}`));
          return stored
            .filter((input) => input.inputId === 'token' && input.configUri === configUri)
            .map((input) => input.key);
        },
        confirm: () => (confirmations++, confirm),
      };
      requireApi().config.setForgetAnswerer(pickToken);
      try {
        // Declined at the confirmation: nothing is forgotten.
        assertEqual(
          await vscode.commands.executeCommand<number>('mcpWorkbench.forgetInputs'),
          0,
          'forgotten when the confirmation is declined',
        );
        assertEqual(confirmations, 1, 'confirmations asked');
        assert(
          listed.includes('token (password)'),
          `the pick does not list the stored password input: ${JSON.stringify(listed)}`,
        );
        assertEqual(
          await requireApi().config.storedSecret(configUri, 'token'),
          SECRET_INPUT_VALUE,
          'stored secret after a declined confirmation',
        );
        confirm = true;
        assertEqual(
          await vscode.commands.executeCommand<number>('mcpWorkbench.forgetInputs'),
          1,
          'forgotten after the confirmation',
        );
        assertEqual(
          await requireApi().config.storedSecret(configUri, 'token'),
          undefined,
          'stored secret after forgetting',
        );
      } finally {
        requireApi().config.setForgetAnswerer(undefined);
        requireApi().config.setPromptAnswerer(undefined);
      }
    },
  );

  suite.test('the trace masks a secret env value written literally in mcp.json', async () => {
    await writeWorkspaceServers({ traced: { ...stdio(), env: { GITHUB_TOKEN: SECRET_ENV_VALUE } } });
    const controller = await waitUntil('traced', () => requireApi().manager.byName('traced')[0], 10_000);
    await controller.start();
    const outcome = await controller.callTool('env', { name: 'GITHUB_TOKEN' }, {});
    assert(JSON.stringify(outcome.result).includes(SECRET_ENV_VALUE), 'the tool did not return the env value');
    const log = await waitUntil(
      'a masked tools/call in the trace of "traced"',
      () => {
        const written = channelLog(requireApi().config.storageFolders()[0], 'traced');
        return written.includes('tools/call') && written.includes(MASK) ? written : undefined;
      },
      15_000,
    );
    assert(!log.includes(SECRET_ENV_VALUE), 'the env secret appears in the log of "traced"');
    await controller.stop();
  });

  suite.test('editing mcp.json restarts only the server whose definition changed', async () => {
    await vscode.workspace
      .getConfiguration('mcpWorkbench')
      .update('trace.server', undefined, vscode.ConfigurationTarget.Global);
    await writeWorkspaceServers({ 'fixture-a': stdio('--name=a'), 'fixture-b': stdio('--name=b') });
    const a = controllerOf('fixture-a');
    const b = controllerOf('fixture-b');
    await Promise.all([a.start(), b.start()]);
    const pidA = a.pid;
    const pidB = b.pid;
    assert(pidA && pidB, 'fixture-a and fixture-b have pids');
    await writeWorkspaceServers({ 'fixture-a': stdio('--name=a'), 'fixture-b': stdio('--name=b', '--changed') });
    await waitUntil(
      'fixture-b restarted with a new pid',
      () => (b.state.kind === 'running' && b.pid !== pidB ? true : undefined),
      20_000,
    );
    assertEqual(a.pid, pidA, 'pid of the unchanged fixture-a');
    assertEqual(a.state.kind, 'running', 'state of fixture-a');
  });

  suite.test(
    'a save that does not parse keeps the servers running, shows the error row with an Open action, and applies the file once it parses',
    async () => {
      const a = controllerOf('fixture-a');
      const pid = a.pid;
      assert(pid !== undefined && a.state.kind === 'running', 'fixture-a runs before the broken save');
      const good = fs.readFileSync(configFile(), 'utf8');
      // A half-typed edit: a comma, then a value where the next property's name belongs.
      const broken = good.replace(/\}\s*$/, ',\n  12\n}\n');
      const brokenLine = broken.split('\n').findIndex((line) => line.trim() === '12') + 1;
      await writeWorkspaceFile(vscode, configFile(), broken);
      await requireApi().reload();
      const tree = requireApi().tree;
      const errorRow = tree.getChildren().find((node) => node.kind === 'configError');
      assert(
        errorRow,
        `no error row; the view shows: ${tree
          .getChildren()
          .map((node) => String(tree.getTreeItem(node).label))
          .join(' | ')}`,
      );
      const item = tree.getTreeItem(errorRow);
      assertEqual(
        item.label,
        `.vscode/mcp.json: expected a property name at line ${brokenLine}, column 3`,
        'error row label',
      );
      assertEqual(a.pid, pid, 'pid of fixture-a while mcp.json does not parse');
      assertEqual(a.state.kind, 'running', 'state of fixture-a while mcp.json does not parse');
      assert(
        tree.getChildren().some((node) => node.kind === 'server' && node.controller === a),
        'fixture-a left the view',
      );
      assert(item.command, 'the error row has no Open action');
      // The file was written behind VS Code's back (a person saves it from the editor): VS Code 1.139 can still hold
      // the text it had before when Open reveals the line, and a line past that text's end is revealed at its last
      // line. Open comes once VS Code reads the broken save, as it would after a person's save.
      await waitUntil(
        'VS Code to read the broken save of mcp.json',
        async () => ((await vscode.workspace.openTextDocument(configFile())).getText() === broken ? true : undefined),
        10_000,
      );
      await vscode.commands.executeCommand(item.command.command, ...(item.command.arguments ?? []));
      const editor = await waitUntil(
        'mcp.json open in an editor',
        () => {
          const active = vscode.window.activeTextEditor;
          return active?.document.uri.fsPath === configFile() ? active : undefined;
        },
        10_000,
      );
      assertEqual(editor.selection.start.line, brokenLine - 1, 'line revealed by Open');
      assertEqual(editor.selection.start.character, 2, 'column revealed by Open');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

      await writeWorkspaceFile(vscode, configFile(), good);
      await requireApi().reload();
      assertEqual(
        tree.getChildren().filter((node) => node.kind === 'configError').length,
        0,
        'error rows once mcp.json parses',
      );
      assertEqual(a.pid, pid, 'pid of fixture-a once mcp.json parses again');
      assertEqual(a.state.kind, 'running', 'state of fixture-a once mcp.json parses again');
    },
  );

  suite.test(
    'entries with schema errors stay in the view as error rows, among the servers, that open the file at the entry and cannot start',
    async () => {
      const kept = { 'fixture-a': stdio('--name=a'), 'fixture-b': stdio('--name=b', '--changed') };
      const a = controllerOf('fixture-a');
      const pid = a.pid;
      requireApi().config.clearNotifications();
      const problemToasts = () =>
        requireApi()
          .config.notifications()
          .filter((n) => n.message.includes('has problems'))
          .map((n) => n.message);
      const bad = { nourl: { type: 'http' }, badtype: { type: 'htp', url: 'http://127.0.0.1:1/mcp' } };
      await writeWorkspaceServers({ ...kept, ...bad });
      await waitUntil('the problems warning', () => (problemToasts().length === 1 ? true : undefined), 10_000);
      const tree = requireApi().tree;
      const rows = tree.getChildren();
      const labels = rows.map((node) => String(tree.getTreeItem(node).label));
      const badRows = rows.filter((node) => node.kind === 'badEntry');
      assertEqual(
        badRows.map((node) => String(tree.getTreeItem(node).label)).join(','),
        'badtype,nourl',
        `bad entries shown as rows; the view shows: ${labels.join(' | ')}`,
      );
      assert(
        labels.indexOf('badtype') < labels.indexOf('fixture-a') &&
          labels.indexOf('fixture-a') < labels.indexOf('nourl'),
        `a bad entry stands among the servers by name: ${labels.join(' | ')}`,
      );
      const nourl = tree.getTreeItem(badRows[1]);
      assert(
        String(nourl.description).includes('an http server needs a "url" string'),
        `description of nourl: ${String(nourl.description)}`,
      );
      assertEqual((nourl.iconPath as { id?: string } | undefined)?.id, 'error', 'icon of nourl');
      assertEqual(nourl.contextValue, 'badEntry', 'context value of nourl (no server command matches it)');
      assert(String(nourl.tooltip).includes('is not loaded'), `tooltip of nourl: ${String(nourl.tooltip)}`);
      assertEqual(snapshotOf('nourl'), undefined, 'nourl has no server behind it, so nothing can start it');
      assertEqual(a.pid, pid, 'the good servers keep running');

      assert(nourl.command, 'the row has no Open action');
      await vscode.commands.executeCommand(nourl.command.command, ...(nourl.command.arguments ?? []));
      const nourlLine = fs
        .readFileSync(configFile(), 'utf8')
        .split('\n')
        .findIndex((line) => line.includes('"nourl"'));
      const editor = await waitUntil(
        'mcp.json open at the entry',
        () => {
          const active = vscode.window.activeTextEditor;
          return active?.document.uri.fsPath === configFile() && active.selection.start.line === nourlLine
            ? active
            : undefined;
        },
        10_000,
      );
      assertEqual(editor.document.getText(editor.selection), '"nourl"', "the selection is the entry's name");
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

      // An edit that only moves the entries is no new problem: no second warning. A real change then warns once
      // more, and the warnings are recorded in order, so two in all means the move warned nothing.
      const moved = `// moved down a line\n${fs.readFileSync(configFile(), 'utf8')}`;
      await writeWorkspaceFile(vscode, configFile(), moved);
      await requireApi().reload();
      const movedRow = tree
        .getChildren()
        .find((node) => node.kind === 'badEntry' && tree.getTreeItem(node).label === 'nourl');
      assert(movedRow, 'nourl is still a row after the move');
      const movedTooltip = String(tree.getTreeItem(movedRow).tooltip);
      assert(movedTooltip.includes(`line ${nourlLine + 2}:`), `the row follows the moved entry: ${movedTooltip}`);
      await writeWorkspaceServers({ ...kept, ...bad, alsobad: { type: 'sse' } });
      await waitUntil(
        'the warning about the new problem',
        () => (problemToasts().length >= 2 ? true : undefined),
        10_000,
      );
      assertEqual(problemToasts().length, 2, `problem warnings: ${JSON.stringify(problemToasts())}`);

      await writeWorkspaceServers(kept);
      assertEqual(
        tree.getChildren().filter((node) => node.kind === 'badEntry').length,
        0,
        'bad-entry rows once the entries are gone',
      );
    },
  );

  suite.test('setting the log level sends logging/setLevel and the server logs at that level', async () => {
    const a = controllerOf('fixture-a');
    const sent = await vscode.commands.executeCommand<boolean>(
      'mcpWorkbench.setLogLevel',
      { kind: 'server', controller: a },
      'debug',
    );
    assertEqual(sent, true, 'setLogLevel result');
    await waitUntil(
      'a debug message from fixture-a',
      () => (a.serverMessages.some((m) => m.data === 'message at debug') ? true : undefined),
      10_000,
    );
    const before = a.serverMessages.length;
    await vscode.commands.executeCommand('mcpWorkbench.setLogLevel', { kind: 'server', controller: a }, 'error');
    await waitUntil(
      '"level set to error"',
      () => (a.serverMessages.some((m) => m.data === 'level set to error') ? true : undefined),
      10_000,
    );
    const after = await waitUntil(
      'a message from fixture-a after "level set to error"',
      () => {
        const later = a.serverMessages.slice(before).filter((m) => m.data !== 'level set to error');
        return later.length > 0 ? later : undefined;
      },
      10_000,
    );
    assert(
      after.length > 0 && after.every((m) => ['error', 'critical', 'alert', 'emergency'].includes(m.level)),
      `messages after "error": ${JSON.stringify(after)}`,
    );
    await Promise.all([a.stop(), controllerOf('fixture-b').stop()]);
  });

  suite.test(
    'the first start of a workspace server asks once per definition; a declined server stays stopped',
    async () => {
      const asked: string[] = [];
      requireApi().config.setLaunchConfirmer(async ({ serverName, commandLine }) => {
        asked.push(`${serverName}: ${commandLine}`);
        return serverName !== 'declined';
      });
      await writeWorkspaceServers({ 'confirm-me': stdio('--v1'), declined: stdio() });
      const controller = controllerOf('confirm-me');
      await controller.start();
      await controller.stop();
      await controller.start();
      await controller.stop();
      assertEqual(
        asked.filter((line) => line.startsWith('confirm-me')).length,
        1,
        'confirmations for an unchanged definition',
      );
      assert(
        asked[0].includes(fixture()) && asked[0].includes('--v1'),
        `the confirmation does not show the command line: ${asked[0]}`,
      );
      await writeWorkspaceServers({ 'confirm-me': stdio('--v2'), declined: stdio() });
      await controllerOf('confirm-me').start();
      assertEqual(
        asked.filter((line) => line.startsWith('confirm-me')).length,
        2,
        'confirmations after the definition changed',
      );
      await controllerOf('confirm-me').stop();
      const declined = await controllerOf('declined')
        .start()
        .then(
          () => 'started',
          (error: Error) => error.name,
        );
      assertEqual(declined, 'LaunchDeclinedError', 'outcome of a declined start');
      assertEqual(snapshotOf('declined')?.state, 'stopped', 'state of the declined server');
      requireApi().config.setLaunchConfirmer(async () => true);
    },
  );

  suite.test(
    'while the first-start consent is asked the row says "waiting for your answer", not "starting"',
    async () => {
      const api = requireApi();
      const rowsWhileAsked: string[] = [];
      api.config.setLaunchConfirmer(async ({ serverName }) => {
        rowsWhileAsked.push(
          String(api.tree.getTreeItem({ kind: 'server', controller: controllerOf(serverName) }).description),
        );
        return true;
      });
      try {
        await writeWorkspaceServers({ 'answer-me': stdio('--answer') });
        await controllerOf('answer-me').start();
        assertEqual(rowsWhileAsked.length, 1, 'consents asked');
        assert(
          rowsWhileAsked[0].includes('waiting for your answer') && !rowsWhileAsked[0].includes('starting'),
          `the row while the consent is asked: ${rowsWhileAsked[0]}`,
        );
        assertEqual(snapshotOf('answer-me')?.state, 'running', 'state after the answer');
      } finally {
        api.config.setLaunchConfirmer(async () => true);
        await controllerOf('answer-me').stop();
      }
    },
  );

  suite.test(
    'a start the workspace triggered never raises the consent: the row says "changed: review to start"; a person\'s start asks',
    async () => {
      const triggers: string[] = [];
      requireApi().config.setLaunchConfirmer(
        async ({ serverName, trigger }) => (triggers.push(`${serverName}: ${trigger}`), true),
      );
      await writeWorkspaceServers({ 'review-me': stdio('--review-1') });
      // A start from code (as auto-start and a changed mcp.json do) and one from the person's command.
      await controllerOf('review-me').start();
      await controllerOf('review-me').stop();
      await writeWorkspaceServers({ 'review-me': stdio('--review-2') });
      await vscode.commands.executeCommand('mcpWorkbench.startServer', {
        kind: 'server',
        controller: controllerOf('review-me'),
      });
      await controllerOf('review-me').stop();
      assertEqual(triggers.join(' | '), 'review-me: workspace | review-me: person', 'who asked for each start');
      // Without the hook (the real modal): the workspace's start is refused at once instead of raising the modal; a
      // modal would leave start() waiting for an answer that never comes, and the test would time out.
      requireApi().config.setLaunchConfirmer(undefined);
      try {
        await writeWorkspaceServers({ 'review-me': stdio('--review-3') });
        const outcome = await controllerOf('review-me')
          .start()
          .then(
            () => 'started',
            (error: Error) => `${error.name}: ${error.message}`,
          );
        assert(
          outcome.startsWith('LaunchDeclinedError') && outcome.includes('press Enter'),
          `outcome of the workspace's start: ${outcome}`,
        );
        const state = controllerOf('review-me').state;
        assertEqual(
          state.kind === 'stopped' ? state.note : state.kind,
          'changed: review to start',
          'the row of a server waiting for review',
        );
      } finally {
        requireApi().config.setLaunchConfirmer(async () => true);
      }
    },
  );

  suite.test(
    'a running row names its era and counts its tools in the right number: "2025-11-25 (handshake) · 1 tool"',
    async () => {
      // First-hour report 3.3 (the era only in the tooltip) and 5.5 ("1 tools").
      await writeWorkspaceServers({ 'one-tool': stdio('--one-tool') });
      const controller = controllerOf('one-tool');
      try {
        await controller.start();
        const row = String(requireApi().tree.getTreeItem({ kind: 'server', controller }).description);
        assert(
          / · \d{4}-\d{2}-\d{2} \(handshake\) · 1 tool$/.test(row),
          `the row of a running one-tool handshake server: ${row}`,
        );
      } finally {
        await controller.stop();
      }
    },
  );

  suite.test(
    'a missing command is not offered "Allow and Start"; its start names the command, the PATH searched, and the fix',
    async () => {
      const consents: string[] = [];
      requireApi().config.setLaunchConfirmer(async ({ serverName }) => (consents.push(serverName), true));
      await writeWorkspaceServers({ missing: { type: 'stdio', command: 'mcp-workbench-no-such-command', args: [] } });
      const failure = await controllerOf('missing')
        .start()
        .then(
          () => undefined,
          (error: Error) => error.message,
        );
      requireApi().config.setLaunchConfirmer(async () => true);
      assert(failure, 'the start of a missing command succeeded');
      // First-hour report 5.3: the consent said "Program: not found" and still asked to allow and start it.
      assertEqual(
        consents.filter((name) => name === 'missing').length,
        0,
        'consents asked for a program that is not there',
      );
      // VS Code (here code-server) puts its own CLI folder on the extension host's PATH; the message lists the rest.
      const entries = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
      const appRoot = path.resolve(vscode.env.appRoot);
      const editorFolders = entries.filter((entry) => path.resolve(entry).startsWith(appRoot + path.sep));
      const personFolder = entries.find((entry) => !editorFolders.includes(entry)) ?? '';
      for (const part of ['mcp-workbench-no-such-command', personFolder, 'absolute path']) {
        assert(failure.includes(part), `the error does not mention "${part}": ${failure}`);
      }
      for (const folder of editorFolders)
        assert(!failure.includes(folder), `the error lists the editor's own folder ${folder}: ${failure}`);
      assertEqual(snapshotOf('missing')?.recovery, undefined, 'crash recovery for a missing command');
    },
  );

  suite.test(
    'a server that exits before its handshake fails once, with the exit code and last stderr line, and is not restarted',
    async () => {
      requireApi().config.setRestartPolicy({ baseDelayMs: 100 });
      try {
        await writeWorkspaceServers({ 'exits-at-start': stdio('--crash') });
        requireApi().config.clearNotifications();
        await vscode.commands.executeCommand('mcpWorkbench.startServer', {
          kind: 'server',
          controller: controllerOf('exits-at-start'),
        });
        const snapshot = snapshotOf('exits-at-start');
        assertEqual(snapshot?.state, 'error', 'state of exits-at-start');
        assertEqual(snapshot?.recovery, undefined, 'crash recovery of a server that never started');
        const shown = requireApi()
          .config.notifications()
          .filter((n) => n.message.includes('exits-at-start'));
        assertEqual(shown.length, 1, `notifications about exits-at-start (${JSON.stringify(shown)})`);
        assertEqual(
          shown[0].message.split('\n', 1)[0],
          'MCP server "exits-at-start" failed to start: exited with code 1: fixture: crashing on purpose',
          'first line of the notification',
        );
      } finally {
        requireApi().config.setRestartPolicy(undefined);
        await controllerOf('exits-at-start').stop();
      }
    },
  );

  suite.test(
    'an HTTP server whose endpoint refuses connections says "unreachable: connection refused" once and is not restarted',
    async () => {
      const port = await closedPort();
      const url = `http://127.0.0.1:${port}/mcp`;
      await writeWorkspaceServers({ refused: { type: 'http', url } });
      requireApi().config.clearNotifications();
      const consents: Parameters<LaunchConfirmer>[0][] = [];
      requireApi().config.setLaunchConfirmer(async (request) => (consents.push(request), true));
      await vscode.commands.executeCommand('mcpWorkbench.startServer', {
        kind: 'server',
        controller: controllerOf('refused'),
      });
      requireApi().config.setLaunchConfirmer(async () => true);
      // The first-start consent of an HTTP server is about connecting to its URL; it runs nothing.
      const consent = consents.find((request) => request.serverName === 'refused');
      assert(consent, 'no first-start consent was asked for the HTTP server');
      assertEqual(
        consent.prompt.message,
        'Connect to MCP server "refused" defined by this workspace?',
        'consent message',
      );
      assert(
        consent.prompt.detail.includes(url) && !/\brun\b/.test(consent.prompt.detail),
        `consent detail: ${consent.prompt.detail}`,
      );
      assertEqual(consent.prompt.allow, 'Allow and Connect', 'consent button');
      assertEqual(snapshotOf('refused')?.state, 'error', 'state of refused');
      assertEqual(snapshotOf('refused')?.recovery, undefined, 'crash recovery of an endpoint that never answered');
      const shown = requireApi()
        .config.notifications()
        .filter((n) => n.message.includes('refused'));
      assertEqual(shown.length, 1, `notifications about refused (${JSON.stringify(shown)})`);
      assertEqual(
        shown[0].message.split('\n', 1)[0],
        `MCP server "refused" failed to start: unreachable: connection refused (${url})`,
        'first line of the notification',
      );
      await controllerOf('refused').stop();
    },
  );

  suite.test(
    'a running server that crashes is restarted with backoff, then given up with the reason',
    async () => {
      // The backoff arithmetic is unit-tested (restartPolicy.test.ts); a 100 ms base keeps the doubling without the 15 s wait.
      requireApi().config.setRestartPolicy({ baseDelayMs: 100 });
      await writeWorkspaceServers({ crasher: stdio('--crash-after-start') });
      const controller = controllerOf('crasher');
      const delays: number[] = [];
      const subscription = requireApi().manager.onDidChangeServerState((changed) => {
        const state = changed.state;
        if (changed === controller && state.kind === 'error' && state.recovery?.kind === 'restarting')
          delays.push(state.recovery.delayMs);
      });
      try {
        await controller.start();
        const gaveUp = await waitUntil(
          'crasher to give up',
          () => {
            const recovery = snapshotOf('crasher')?.recovery;
            return recovery?.kind === 'gave-up' ? recovery.reason : undefined;
          },
          60_000,
        );
        assertEqual(delays.join(','), '100,200,400,800', 'backoff delays');
        assert(gaveUp.includes('crashed 5 times'), `reason: ${gaveUp}`);
        assert(
          requireApi().config.statusBarText().includes('$(error)'),
          `status bar: ${requireApi().config.statusBarText()}`,
        );
        await controller.start();
        const recovery = await waitUntil('crasher to crash again after a manual start', () => {
          const current = snapshotOf('crasher')?.recovery;
          return current?.kind === 'restarting' ? current : undefined;
        });
        assertEqual(recovery.attempt, 1, 'crash count after a manual start (it resets recovery)');
      } finally {
        subscription.dispose();
        requireApi().config.setRestartPolicy(undefined);
        await controller.stop();
      }
    },
    { timeoutMs: 90_000 },
  );

  suite.test('granting workspace trust updates the rows at once and starts what autoStart allows', async () => {
    const api = requireApi();
    await writeWorkspaceServers({ 'trust-me': stdio() });
    const row = () =>
      String(api.tree.getTreeItem({ kind: 'server', controller: controllerOf('trust-me') }).description);
    api.simulateWorkspaceTrust(false);
    try {
      await vscode.commands.executeCommand('mcpWorkbench.startServer', {
        kind: 'server',
        controller: controllerOf('trust-me'),
      });
      assertEqual(
        snapshotOf('trust-me')?.note,
        'not started: workspace not trusted',
        'note of a workspace server in an untrusted workspace',
      );
      assert(row().includes('workspace not trusted'), `row before trust: ${row()}`);
      await vscode.workspace
        .getConfiguration('mcpWorkbench')
        .update('autoStart', true, vscode.ConfigurationTarget.Global);
      api.simulateWorkspaceTrust(true);
      // The grant handler runs synchronously: no wait before looking at the row.
      assertEqual(snapshotOf('trust-me')?.note, undefined, 'note right after trust was granted');
      assert(!row().includes('workspace not trusted'), `row right after trust was granted: ${row()}`);
      await api.manager.waitForState('trust-me', 'running', 20_000);
    } finally {
      api.simulateWorkspaceTrust(true);
      await vscode.workspace
        .getConfiguration('mcpWorkbench')
        .update('autoStart', undefined, vscode.ConfigurationTarget.Global);
      await controllerOf('trust-me').stop();
    }
  });

  suite.test(
    'a dev server that could not start in an untrusted workspace starts when trust is granted, with autoStart off',
    async () => {
      const api = requireApi();
      api.simulateWorkspaceTrust(false);
      try {
        // Dev mode starts a dev server by itself, but not without trust: configured now, it stays stopped.
        await writeWorkspaceServers({ 'dev-trust': { ...stdio(), dev: { watch: 'dev-trust-unwatched/**' } } });
        assertEqual(snapshotOf('dev-trust')?.state, 'stopped', 'a dev server in an untrusted workspace');
        api.simulateWorkspaceTrust(true);
        await api.manager.waitForState('dev-trust', 'running', 20_000);
      } finally {
        api.simulateWorkspaceTrust(true);
        await controllerOf('dev-trust').stop();
      }
    },
  );

  suite.test(
    'in an untrusted workspace a workspace server\'s row says "not started: workspace not trusted" before anyone tries to start it',
    async () => {
      const api = requireApi();
      api.simulateWorkspaceTrust(false);
      try {
        // Configured while the workspace is not trusted: its controller is new, and nothing has started it.
        await writeWorkspaceServers({ 'untrusted-row': stdio() });
        const row = String(
          api.tree.getTreeItem({ kind: 'server', controller: controllerOf('untrusted-row') }).description,
        );
        assertEqual(snapshotOf('untrusted-row')?.state, 'stopped', 'state of the new server');
        assert(row.includes('not started: workspace not trusted'), `row before any start: ${row}`);
      } finally {
        api.simulateWorkspaceTrust(true);
      }
      assert(
        !String(
          api.tree.getTreeItem({ kind: 'server', controller: controllerOf('untrusted-row') }).description,
        ).includes('not trusted'),
        'the row after trust was granted',
      );
    },
  );

  suite.test('"Add Server" writes the entry with a JSONC edit that keeps comments', async () => {
    await writeWorkspaceServers({});
    await vscode.commands.executeCommand('mcpWorkbench.addServer', {
      transport: 'stdio',
      commandLine: `"${process.execPath}" "${fixture()}" --added`,
      name: 'added-by-command',
      target: folder().uri.toString(),
    });
    const text = fs.readFileSync(configFile(), 'utf8');
    assert(text.startsWith('// written by config.suite.ts'), `the comment was lost:\n${text}`);
    assert(text.includes('"added-by-command"') && text.includes('--added'), `the entry is missing:\n${text}`);
    await requireApi().reload();
    await waitUntil('added-by-command in the snapshot', () => snapshotOf('added-by-command'), 10_000);
  });

  suite.test(
    '"Add Server" edits the file on disk when its open editor has not caught up with a change yet (a git pull)',
    async () => {
      await writeWorkspaceServers({});
      const uri = vscode.Uri.file(configFile());
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
      // A `git pull` while the editor is open: written behind VS Code's back, and Add Server runs at once.
      const pulled = `// pulled\n${JSON.stringify({ servers: { ...(JSON.parse(originalConfig) as { servers: object }).servers, 'pulled-in': stdio() } }, null, 2)}\n`;
      fs.writeFileSync(configFile(), pulled);
      await vscode.commands.executeCommand('mcpWorkbench.addServer', {
        transport: 'stdio',
        commandLine: `"${process.execPath}" "${fixture()}" --after-pull`,
        name: 'added-after-pull',
        target: folder().uri.toString(),
      });
      const afterPull = fs.readFileSync(configFile(), 'utf8');
      assert(
        afterPull.startsWith('// pulled') &&
          afterPull.includes('"pulled-in"') &&
          afterPull.includes('"added-after-pull"'),
        `the pulled change or the new entry is missing:\n${afterPull}`,
      );

      await writeWorkspaceServers({});
    },
  );

  suite.test(
    '"Import Servers" reads a Claude Desktop file, reports what it skipped, and adds the chosen servers',
    async () => {
      const claudeFile = path.join(folder().uri.fsPath, '.fixtures', 'Claude', 'claude_desktop_config.json');
      fs.mkdirSync(path.dirname(claudeFile), { recursive: true });
      fs.writeFileSync(claudeFile, JSON.stringify(claudeDesktopConfig, null, 2));
      const outcome = await vscode.commands.executeCommand<{
        found: { name: string }[];
        skipped: { name: string; reason: string }[];
        added: string[];
      }>('mcpWorkbench.importServers', {
        sources: [{ kind: 'claude-desktop', path: claudeFile }],
        target: folder().uri.toString(),
        select: ['filesystem', 'remote-docs'],
      });
      assert(outcome, 'the import returned nothing');
      assert(
        outcome.found.some((item) => item.name === 'filesystem'),
        `found: ${JSON.stringify(outcome.found)}`,
      );
      assert(
        outcome.skipped.some((item) => item.name.startsWith('broken') && item.reason.length > 0),
        `skipped: ${JSON.stringify(outcome.skipped)}`,
      );
      assertEqual(outcome.added.join(','), 'filesystem,remote-docs', 'added servers');
      const text = fs.readFileSync(configFile(), 'utf8');
      assert(
        text.startsWith('// written by config.suite.ts') && text.includes('"remote-docs"'),
        `mcp.json after import:\n${text}`,
      );
    },
  );

  suite.test('"Import Servers" into a shared mcp.json turns a literal Bearer token into a password input', async () => {
    const cursorFile = path.join(folder().uri.fsPath, '.fixtures', 'secret', 'mcp.json');
    fs.mkdirSync(path.dirname(cursorFile), { recursive: true });
    fs.writeFileSync(
      cursorFile,
      JSON.stringify({
        mcpServers: {
          'with-token': { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer sk-literal-import' } },
        },
      }),
    );
    const outcome = await vscode.commands.executeCommand<{ added: string[] }>('mcpWorkbench.importServers', {
      sources: [{ kind: 'cursor', path: cursorFile }],
      target: folder().uri.toString(),
      select: 'all',
      // The modal's default answer (a person's Enter): password inputs.
      secrets: 'password-inputs',
    });
    assertEqual(outcome?.added.join(','), 'with-token', 'added servers');
    const text = fs.readFileSync(configFile(), 'utf8');
    assert(!text.includes('sk-literal-import'), `the token was written into the shared file:\n${text}`);
    assert(
      text.includes('"Bearer ${input:with-token-authorization}"') && /"password": true/.test(text),
      `no password input in mcp.json:\n${text}`,
    );
  });

  suite.test(
    '"Import Servers" scans first, lists what it found with file paths, offers "Choose File…", then asks where to write',
    async () => {
      const claudeFile = path.join(folder().uri.fsPath, '.fixtures', 'Claude', 'claude_desktop_config.json');
      const otherFile = path.join(folder().uri.fsPath, '.fixtures', 'elsewhere', 'servers.json');
      fs.mkdirSync(path.dirname(otherFile), { recursive: true });
      fs.writeFileSync(
        otherFile,
        JSON.stringify({ mcpServers: { 'from-chosen-file': { command: 'node', args: ['chosen.js'] } } }),
      );
      const steps: string[] = [];
      const lists: ImportPickItem[][] = [];
      requireApi().config.answerImport({
        pickServers: (items) => {
          steps.push('list');
          lists.push([...items]);
          return lists.length === 1 ? 'choose-file' : ['from-chosen-file'];
        },
        chooseFile: () => (steps.push('choose file'), otherFile),
        pickTarget: () => (steps.push('target'), folder().uri.toString()),
      });
      try {
        const outcome = await vscode.commands.executeCommand<{ added: string[] }>('mcpWorkbench.importServers', {
          sources: [{ kind: 'claude-desktop', path: claudeFile }],
        });
        assertEqual(steps.join(' → '), 'list → choose file → list → target', 'order of the steps');
        const first = lists[0].find((item) => item.name === 'filesystem');
        assert(
          first && first.description.includes('claude_desktop_config.json'),
          `the first list does not show the file: ${JSON.stringify(lists[0])}`,
        );
        const chosen = lists[1].find((item) => item.name === 'from-chosen-file');
        assert(
          chosen && chosen.description.includes('servers.json'),
          `the chosen file's server is not listed with its path: ${JSON.stringify(lists[1])}`,
        );
        assertEqual(outcome?.added.join(','), 'from-chosen-file', 'added servers');
        assert(
          fs.readFileSync(configFile(), 'utf8').includes('"from-chosen-file"'),
          'mcp.json lacks the imported server',
        );
      } finally {
        requireApi().config.answerImport(undefined);
      }
    },
  );

  suite.test(
    "with VS Code's own MCP support on, a one-time notice says two clients act here and can turn VS Code's off for the workspace",
    async () => {
      const config = requireApi().config;
      const chat = () => vscode.workspace.getConfiguration('chat.mcp');
      // The switch of VS Code's own client: chat.mcp.enabled in VS Code 1.100, chat.mcp.access ('none' | 'registry' |
      // 'all') in 1.139, which migrates the old key and no longer registers it (the two VS Codes the suites run in).
      const modern = Number(vscode.version.split('.')[1]) > 100;
      const key = modern ? 'access' : 'enabled';
      assertEqual(
        chat().inspect<boolean | string>(key)?.defaultValue,
        modern ? 'all' : true,
        `VS Code ${vscode.version}'s default for chat.mcp.${key}`,
      );
      // The notice where chat cannot take the workbench's servers (VS Code before 1.101, or a provider that did not
      // register); where it can, the notice asks how chat reaches them instead (the gateway suite).
      const { gateway } = requireApi();
      const available = gateway.providerRegistered;
      gateway.setChatRouteAvailable(false);
      config.clearNotifications();
      const isNotice = (message: string) => message.startsWith("VS Code's own MCP support is also on");
      config.answerNotifications((notification) =>
        isNotice(notification.message) ? notification.actions[0] : undefined,
      );
      try {
        const outcome = await config.recheckBuiltInMcpNotice();
        assertEqual(outcome, 'turned-off', 'outcome of the notice answered with its first action');
        const shown = config.notifications().filter((n) => isNotice(n.message));
        assertEqual(shown.length, 1, 'notices shown');
        assert(
          shown[0].message.includes('.vscode/mcp.json') && shown[0].message.includes('MCP Workbench:'),
          `notice: ${shown[0].message}`,
        );
        assertEqual(shown[0].actions[0], "Turn Off VS Code's MCP for This Workspace", 'first action of the notice');
        assertEqual(
          chat().inspect<boolean | string>(key)?.workspaceValue,
          modern ? 'none' : false,
          `chat.mcp.${key} in the workspace settings`,
        );
        assertEqual(
          await config.recheckBuiltInMcpNotice(),
          'not-needed',
          "outcome once VS Code's MCP support is off here",
        );
      } finally {
        config.answerNotifications(undefined);
        gateway.setChatRouteAvailable(available);
        await chat().update(key, undefined, vscode.ConfigurationTarget.Workspace);
      }
    },
  );

  suite.after(async () => {
    for (const controller of api?.manager.servers ?? [])
      if (controller.state.kind !== 'stopped') await controller.stop();
    if (originalConfig) await writeWorkspaceFile(vscode, configFile(), originalConfig);
    const settings = vscode.workspace.getConfiguration('mcpWorkbench');
    // The trace was turned on by the password test; verbose traces slow every later server down.
    await settings.update('servers', undefined, vscode.ConfigurationTarget.Global);
    await settings.update('trace.server', undefined, vscode.ConfigurationTarget.Global);
    await api?.reload();
  });
  suite.after(() => leaveCleanState(vscode, api));

  return suite;
}

/** A local port nobody listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  assert(address !== null && typeof address === 'object', 'no port was bound');
  await new Promise((resolve) => server.close(resolve));
  return address.port;
}

/** Files under `roots` whose content contains `needle` (text search; binary files are read as latin1). */
function filesContaining(roots: readonly string[], needle: string): string[] {
  const hits: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && fs.readFileSync(full, 'latin1').includes(needle)) hits.push(full);
    }
  };
  for (const root of roots) walk(root);
  return hits;
}

/** The content of the log file of the channel "MCP Workbench: <name>" under the window's exthost log folder. */
function channelLog(exthostFolder: string, name: string): string {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      // Log output channels are files named after the channel, without the colon ("MCP Workbench fixture-a.log").
      else if (entry.name.replace(/^\d+-/, '') === `MCP Workbench ${name}.log`) found.push(full);
    }
  };
  walk(exthostFolder);
  return found.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
}
