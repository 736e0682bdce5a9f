/**
 * End-to-end test of the MCP Workbench extension in a real VS Code (code-server 4.100.3), driven from Chromium:
 * package the VSIX, install it, open a workspace whose .vscode/mcp.json lists a stdio and a Streamable HTTP
 * server, start the stdio one, call a tool, stop it, and check that no server process is left behind.
 *
 * Run: node --import tsx --test test/e2e/extension.e2e.ts
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { promisify } from 'node:util';
import { processesMatching } from '../integration/support';
import {
  answerDialog,
  EVERYTHING_SERVER_JS,
  freePort,
  installVsix,
  openViewContainer,
  openWorkbench,
  prepareCodeServer,
  PRODUCT_VSIX,
  quickPick,
  REPO_ROOT,
  runPickerCommand,
  screenshot,
  sleep,
  startCodeServer,
  waitFor,
  waitForNotification,
  waitForRows,
  waitUntil,
  webviewFrame,
  type CodeServerHandle,
  type Workbench,
} from './harness';

const execFileAsync = promisify(execFile);

const EVERYTHING = EVERYTHING_SERVER_JS;
const VSIX = PRODUCT_VSIX;
const STDIO_SERVER = 'everything-stdio';
const HTTP_SERVER = 'everything-http';

/** Starts server-everything over Streamable HTTP on a free port; resolves once it listens. */
async function startHttpServer(marker: string): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
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
      reject(new Error(`HTTP server exited with code ${code}:\n${output}`));
    });
  });
  return { child, port };
}

function killGroup(child: ChildProcess | undefined): void {
  if (child?.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function writeWorkspace(workspace: string, httpPort: number): void {
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'README.txt'), 'MCP Workbench e2e workspace\n');
  // VS Code's format, comments included. ${workspaceFolder} is resolved by the extension; the server ignores
  // the extra argument, which makes this test's process easy to find.
  const config = `{
  // Servers for the MCP Workbench end-to-end test.
  "servers": {
    "${STDIO_SERVER}": {
      "type": "stdio",
      "command": ${JSON.stringify(process.execPath)},
      "args": [${JSON.stringify(EVERYTHING)}, "stdio", "\${workspaceFolder}"]
    },
    "${HTTP_SERVER}": {
      "type": "http",
      "url": "http://127.0.0.1:${httpPort}/mcp"
    }
  }
}
`;
  fs.writeFileSync(path.join(workspace, '.vscode', 'mcp.json'), config);
}

test('MCP Workbench in real VS Code: servers view, start, call tool, stop', { timeout: 600_000 }, async () => {
  await prepareCodeServer();
  // 1. Build the VSIX the way a release does.
  if (!process.env.MCP_E2E_VSIX) await execFileAsync('npm', ['run', 'package'], { cwd: REPO_ROOT, timeout: 180_000, env: { ...process.env, CI: 'true' } });
  assert.ok(fs.existsSync(VSIX), `the VSIX ${VSIX} is missing (npm run package writes it)`);

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-e2e-ext-'));
  const extensionsDir = path.join(tmp, 'extensions');
  const userDataDir = path.join(tmp, 'user-data');
  const workspace = path.join(tmp, 'workspace');
  await installVsix(VSIX, extensionsDir, userDataDir);
  assert.ok(
    fs.readdirSync(extensionsDir).some((name) => name.startsWith('mcp-workbench.mcp-workbench-')),
    `extension not installed: ${fs.readdirSync(extensionsDir).join(', ')}`,
  );

  let httpServer: ChildProcess | undefined;
  let server: CodeServerHandle | undefined;
  let workbench: Workbench | undefined;
  try {
    // 2. The workspace and the HTTP server it points at.
    const http = await startHttpServer(tmp);
    httpServer = http.child;
    writeWorkspace(workspace, http.port);

    server = await startCodeServer({ workspace, extensionsDir, userDataDir });
    workbench = await openWorkbench(server.url, workspace);
    const { page } = workbench;

    // 3. Both servers appear in the MCP view.
    await openViewContainer(page, 'MCP Workbench');
    const initialRows = await waitForRows(page, 'both servers in the Servers view', (rows) => rows.includes(STDIO_SERVER) && rows.includes(HTTP_SERVER));
    assert.ok(initialRows.includes(STDIO_SERVER) && initialRows.includes(HTTP_SERVER), JSON.stringify(initialRows));
    await screenshot(page, 'ext-01-servers-view');
    assert.deepEqual(processesMatching(EVERYTHING, 'stdio', workspace), [], 'no server should run before it is started (autoStart is off)');

    // Start the stdio server from the palette; its tools appear under it.
    await runPickerCommand(page, 'MCP Workbench: Start Server');
    await quickPick(page, STDIO_SERVER);
    // The first start of a workspace-defined server shows its command line and waits for consent.
    const consent = await answerDialog(page, 'Allow and Start');
    assert.ok(consent.includes(EVERYTHING), `the confirmation shows the command line: ${consent}`);
    const runningRows = await waitForRows(page, 'the tools of the stdio server', (rows) => rows.includes('echo') && rows.includes('get-sum'));
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
      waitUntil(`process ${serverPid} to exit`, () => (processesMatching(EVERYTHING, 'stdio', workspace).length === 0 ? true : undefined), 30_000),
    );
    const stoppedRows = await waitForRows(page, 'the tools to disappear after stop', (rows) => !rows.includes('echo'));
    assert.ok(stoppedRows.includes(STDIO_SERVER), JSON.stringify(stoppedRows));
    assert.throws(() => process.kill(serverPid, 0), /ESRCH/, `server process ${serverPid} is still alive after Stop Server`);
    await screenshot(page, 'ext-05-stopped');

    // Expanding a stopped server starts it on demand (here the Streamable HTTP one).
    await page.locator('.part.sidebar .monaco-list-row').filter({ hasText: HTTP_SERVER }).first().click();
    const httpConsent = await answerDialog(page, 'Allow and Connect');
    assert.match(httpConsent, /Connect to MCP server/);
    const httpRows = await waitForRows(page, 'the tools of the HTTP server after expanding it', (rows) => rows.includes('echo') && rows.includes('get-sum'));
    assert.ok(httpRows.indexOf(HTTP_SERVER) < httpRows.indexOf('echo'), JSON.stringify(httpRows));
    await screenshot(page, 'ext-06-http-expanded');

    // A bad entry is reported once, naming the file and the reason; the good servers keep working, and the
    // unchanged running one is not restarted.
    const configFile = path.join(workspace, '.vscode', 'mcp.json');
    const broken = fs.readFileSync(configFile, 'utf8').replace('"servers": {', '"servers": {\n    "broken": { "type": "stdio" },');
    fs.writeFileSync(configFile, broken);
    const warning = await waitForNotification(page, /has problems/);
    assert.match(warning, /mcp\.json/);
    assert.match(warning, /broken/);
    const afterReload = await waitForRows(page, 'the servers after the config reload', (rows) => rows.includes(STDIO_SERVER) && rows.includes(HTTP_SERVER));
    assert.ok(afterReload.includes('echo'), `the HTTP server should still be running: ${JSON.stringify(afterReload)}`);
    assert.ok(!afterReload.includes('broken'), JSON.stringify(afterReload));
    await screenshot(page, 'ext-07-config-problem');
  } finally {
    await workbench?.close();
    await server?.stop();
    killGroup(httpServer);
    // 6. Nothing this test started may survive it.
    const left = await waitUntil('server-everything processes to end', () => (processesMatching(EVERYTHING, tmp).length === 0 ? [] : undefined), 15_000).catch(
      () => processesMatching(EVERYTHING, tmp),
    );
    fs.rmSync(tmp, { recursive: true, force: true });
    assert.deepEqual(left, [], 'server-everything processes from this test are still running');
  }
});

test('MCP Workbench in an untrusted workspace: servers are listed but never started', { timeout: 600_000 }, async () => {
  await prepareCodeServer();
  if (!fs.existsSync(VSIX)) await execFileAsync('npm', ['run', 'package'], { cwd: REPO_ROOT, timeout: 180_000, env: { ...process.env, CI: 'true' } });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-e2e-untrusted-'));
  const extensionsDir = path.join(tmp, 'extensions');
  const userDataDir = path.join(tmp, 'user-data');
  const workspace = path.join(tmp, 'workspace');
  await installVsix(VSIX, extensionsDir, userDataDir);
  // Nothing listens on port 9: the HTTP entry only has to be listed, never reached.
  writeWorkspace(workspace, 9);

  let server: CodeServerHandle | undefined;
  let workbench: Workbench | undefined;
  try {
    server = await startCodeServer({
      workspace,
      extensionsDir,
      userDataDir,
      trustWorkspace: false,
      settings: { 'mcpWorkbench.autoStart': true, 'security.workspace.trust.startupPrompt': 'never' },
    });
    workbench = await openWorkbench(server.url, workspace);
    const { page } = workbench;
    await waitForNotification(page, /not trusted/);
    await openViewContainer(page, 'MCP Workbench');
    await waitForRows(page, 'both servers in the Servers view', (rows) => rows.includes(STDIO_SERVER) && rows.includes(HTTP_SERVER));
    await screenshot(page, 'ext-08-untrusted');
    // Give a wrongly started server time to show up before asserting it did not.
    await sleep(2_000);
    assert.deepEqual(processesMatching(EVERYTHING, workspace), [], 'a server was started in an untrusted workspace');
  } finally {
    await workbench?.close();
    await server?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
