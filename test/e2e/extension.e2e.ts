/**
 * End-to-end test of the MCP Workbench extension in a real VS Code (code-server 4.100.3), driven from Chromium:
 * package the VSIX, install it, open a workspace whose .vscode/mcp.json lists a stdio and a Streamable HTTP
 * server, start the stdio one, call a tool, stop it, and check that no server process is left behind.
 *
 * Run: node --import tsx --test test/e2e/extension.e2e.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { processesMatching, signalQuietly } from '../support/processes';
import { VsCodeFixture, everythingStdio, type McpJson } from './fixture';
import {
  answerDialog,
  clickUncovered,
  EVERYTHING_SERVER_JS,
  freePort,
  openViewContainer,
  quickPick,
  runPickerCommand,
  screenshot,
  serverRowText,
  waitFor,
  waitForNotification,
  waitForRows,
  waitUntil,
  webviewFrame,
} from './harness';

const EVERYTHING = EVERYTHING_SERVER_JS;
const STDIO_SERVER = 'everything-stdio';
const HTTP_SERVER = 'everything-http';

/**
 * Starts server-everything over Streamable HTTP on a free port; resolves once it listens. The port is free when picked
 * and may be taken before the server binds it (a concurrent session's code-server binds ports of the kernel's
 * choosing): the server then says so and exits, and a new port is picked.
 */
async function startHttpServer(marker: string): Promise<{ child: ChildProcess; port: number }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startHttpServerOn(await freePort(), marker);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt >= 5) throw error;
    }
  }
}

class PortTaken extends Error {}

async function startHttpServerOn(port: number, marker: string): Promise<{ child: ChildProcess; port: number }> {
  // The trailing marker is ignored by the server and lets the test find its process later.
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp', marker], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`HTTP server did not listen within 30 s:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening on port/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      const message = `HTTP server exited with code ${code}:\n${output}`;
      reject(/already in use/i.test(output) ? new PortTaken(message) : new Error(message));
    });
  });
  return { child, port };
}

/** The workspace's mcp.json: VS Code's format, comments included, with a stdio and a Streamable HTTP server. */
function workspaceServers(httpPort: number): McpJson {
  return {
    kind: 'servers',
    comment: 'Servers for the MCP Workbench end-to-end test.',
    servers: {
      [STDIO_SERVER]: everythingStdio(),
      [HTTP_SERVER]: { type: 'http', url: `http://127.0.0.1:${httpPort}/mcp` },
    },
  };
}

const README = { 'README.txt': 'MCP Workbench e2e workspace\n' };

test('MCP Workbench in real VS Code: servers view, start, call tool, stop', { timeout: 600_000 }, async () => {
  // 1. The VSIX, built the way a release does (see productVsix), installed into a fresh VS Code.
  let vscode: VsCodeFixture | undefined;
  try {
    vscode = await VsCodeFixture.prepare({ name: 'ext', files: README });
    const { tmp, workspace, extensionsDir } = vscode;
    assert.ok(
      fs.readdirSync(extensionsDir).some((name) => name.startsWith('mcp-workbench.mcp-workbench-')),
      `extension not installed: ${fs.readdirSync(extensionsDir).join(', ')}`,
    );

    // 2. The workspace and the HTTP server it points at.
    const http = await startHttpServer(tmp);
    const httpPid = http.child.pid;
    vscode.onDispose(() => signalQuietly(httpPid === undefined ? undefined : -httpPid, 'SIGKILL'));
    vscode.writeMcpJson(workspaceServers(http.port));

    const page = await vscode.start();

    // 3. Both servers appear in the MCP view.
    await openViewContainer(page, 'MCP Workbench');
    const initialRows = await waitForRows(
      page,
      'both servers in the Servers view',
      (rows) => rows.includes(STDIO_SERVER) && rows.includes(HTTP_SERVER),
    );
    assert.ok(initialRows.includes(STDIO_SERVER) && initialRows.includes(HTTP_SERVER), JSON.stringify(initialRows));
    await screenshot(page, 'ext-01-servers-view');
    assert.deepEqual(
      processesMatching(EVERYTHING, 'stdio', workspace),
      [],
      'no server should run before it is started (autoStart is off)',
    );

    // Start the stdio server from the palette; its tools appear under it.
    await runPickerCommand(page, 'MCP Workbench: Start Server');
    await quickPick(page, STDIO_SERVER);
    // The first start of a workspace-defined server shows its command line and waits for consent.
    const consent = await answerDialog(page, 'Allow and Start');
    assert.ok(consent.includes(EVERYTHING), `the confirmation shows the command line: ${consent}`);
    const runningRows = await waitForRows(
      page,
      'the tools of the stdio server',
      (rows) => rows.includes('echo') && rows.includes('get-sum'),
    );
    assert.ok(runningRows.includes('echo') && runningRows.includes('get-sum'), JSON.stringify(runningRows));
    await screenshot(page, 'ext-02-stdio-running-tools');

    const pids = processesMatching(EVERYTHING, 'stdio', workspace);
    assert.equal(pids.length, 1, `expected one stdio server process for ${workspace}, found ${JSON.stringify(pids)}`);
    const serverPid = pids[0];

    // 4. Call Tool… through the palette: a form generated from the tool's input schema, then the result view.
    await runPickerCommand(page, 'MCP Workbench: Call Tool…');
    await quickPick(page, STDIO_SERVER);
    await quickPick(page, 'echo');
    const form = await webviewFrame(page, 'the Call Tool form for echo', 'form input');
    const messageField = form.getByLabel(/message/);
    await messageField.fill('hello from e2e');
    await screenshot(page, 'ext-03-call-tool-form');
    await messageField.press('Control+Enter');
    const resultView = await webviewFrame(page, 'the tool result view', 'text=Echo: hello from e2e');
    assert.ok(await resultView.getByText('Echo: hello from e2e').first().isVisible());
    await screenshot(page, 'ext-04-call-tool-result');

    // 5. Stop through the palette; the process must be gone.
    await runPickerCommand(page, 'MCP Workbench: Stop Server');
    await quickPick(page, STDIO_SERVER);
    await waitFor(page, `server process ${serverPid} to exit`, () =>
      waitUntil(
        `process ${serverPid} to exit`,
        () => (processesMatching(EVERYTHING, 'stdio', workspace).length === 0 ? true : undefined),
        30_000,
      ),
    );
    const stoppedRows = await waitForRows(page, 'the tools to disappear after stop', (rows) => !rows.includes('echo'));
    assert.ok(stoppedRows.includes(STDIO_SERVER), JSON.stringify(stoppedRows));
    assert.throws(
      () => process.kill(serverPid, 0),
      /ESRCH/,
      `server process ${serverPid} is still alive after Stop Server`,
    );
    await screenshot(page, 'ext-05-stopped');

    // Expanding a stopped server starts it on demand (here the Streamable HTTP one).
    await clickUncovered(page, page.locator('.part.sidebar .monaco-list-row').filter({ hasText: HTTP_SERVER }).first());
    const httpConsent = await answerDialog(page, 'Allow and Connect');
    assert.match(httpConsent, /Connect to MCP server/);
    const httpRows = await waitForRows(
      page,
      'the tools of the HTTP server after expanding it',
      (rows) => rows.includes('echo') && rows.includes('get-sum'),
    );
    assert.ok(httpRows.indexOf(HTTP_SERVER) < httpRows.indexOf('echo'), JSON.stringify(httpRows));
    await screenshot(page, 'ext-06-http-expanded');

    // A bad entry is reported once, naming the file and the reason; the good servers keep working, and the
    // unchanged running one is not restarted.
    const configFile = vscode.mcpJsonPath;
    const broken = fs
      .readFileSync(configFile, 'utf8')
      .replace('"servers": {', '"servers": {\n    "broken": { "type": "stdio" },');
    fs.writeFileSync(configFile, broken);
    const warning = await waitForNotification(page, /has problems/);
    assert.match(warning, /mcp\.json/);
    assert.match(warning, /broken/);
    const afterReload = await waitForRows(
      page,
      'the servers after the config reload',
      (rows) => rows.includes(STDIO_SERVER) && rows.includes(HTTP_SERVER),
    );
    assert.ok(afterReload.includes('echo'), `the HTTP server should still be running: ${JSON.stringify(afterReload)}`);
    // The bad entry stays where its server would be, as a row that says why it is not loaded (no server behind it).
    assert.ok(afterReload.includes('broken'), JSON.stringify(afterReload));
    assert.match(await serverRowText(page, 'broken'), /not loaded: /);
    await screenshot(page, 'ext-07-config-problem');
  } finally {
    // 6. Nothing this test started may survive it.
    await vscode?.dispose();
  }
});

test(
  'MCP Workbench in an untrusted workspace: servers are listed but never started',
  { timeout: 600_000 },
  async () => {
    let vscode: VsCodeFixture | undefined;
    try {
      // Nothing listens on port 9: the HTTP entry only has to be listed, never reached.
      vscode = await VsCodeFixture.prepare({ name: 'untrusted', files: README, mcpJson: workspaceServers(9) });
      const { workspace } = vscode;
      const page = await vscode.start({
        trust: 'untrusted',
        settings: { 'mcpWorkbench.autoStart': true, 'security.workspace.trust.startupPrompt': 'never' },
      });
      await waitForNotification(page, /not trusted/);
      await openViewContainer(page, 'MCP Workbench');
      await waitForRows(
        page,
        'both servers in the Servers view',
        (rows) => rows.includes(STDIO_SERVER) && rows.includes(HTTP_SERVER),
      );
      await screenshot(page, 'ext-08-untrusted');
      // The "not trusted" notice is shown by activation's auto-start decision in place of starting the servers, and a
      // start requested later (a click, an expanded row) is refused while untrusted, so no process can follow it.
      assert.deepEqual(processesMatching(EVERYTHING, workspace), [], 'a server was started in an untrusted workspace');
    } finally {
      await vscode?.dispose();
    }
  },
);
