/**
 * End-to-end dev mode in a real VS Code (code-server) driven from Chromium. The workspace's mcp.json gives the
 * greeter fixture `"dev": {"watch": ["watched/**\/*.txt", "!watched/ignored/**"]}`:
 * - it starts by itself (only the first-start consent is answered), and a change to watched/greeting.txt restarts
 *   it: a new process replaces the old one and the tool answers with the new greeting;
 * - with `"debug": {"type": "node"}` it runs under VS Code's JavaScript debugger (code-server bundles
 *   ms-vscode.js-debug): a breakpoint set in the tool handler stops when the tool is called from the form.
 *
 * Run: node --import tsx --test test/e2e/devMode.e2e.ts (MCP_E2E_VSIX=<vsix> to skip packaging)
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { promisify } from 'node:util';
import type { Frame, Page } from 'playwright-core';
import { processesMatching } from '../integration/support';
import {
  answerDialog,
  inlineAction,
  installVsix,
  openViewContainer,
  openWorkbench,
  pane,
  prepareCodeServer,
  PRODUCT_VSIX,
  REPO_ROOT,
  screenshot,
  startCodeServer,
  visibleRow,
  waitFor,
  waitUntil,
  webviewFrame,
  vscodeVersion,
  type CodeServerHandle,
  type Workbench,
} from './harness';

const execFileAsync = promisify(execFile);
const GREETER = path.join(REPO_ROOT, 'test', 'fixtures', 'dev', 'greeter.mjs');

interface Session {
  tmp: string;
  workspace: string;
  server: CodeServerHandle;
  workbench: Workbench;
}

/** `consent`: the first-start consent stays on (the person's default), so dev mode's own start waits for a review. */
async function openSession(
  name: string,
  dev: unknown,
  env: Record<string, string> = {},
  consent = false,
): Promise<Session> {
  await prepareCodeServer();
  if (!process.env.MCP_E2E_VSIX && !fs.existsSync(PRODUCT_VSIX))
    await execFileAsync('npm', ['run', 'package'], {
      cwd: REPO_ROOT,
      timeout: 180_000,
      env: { ...process.env, CI: 'true' },
    });
  assert.ok(fs.existsSync(PRODUCT_VSIX), `the VSIX ${PRODUCT_VSIX} is missing (npm run package writes it)`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `mcp-e2e-${name}-`));
  const workspace = path.join(tmp, 'workspace');
  const extensionsDir = path.join(tmp, 'extensions');
  const userDataDir = path.join(tmp, 'user-data');
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  fs.mkdirSync(path.join(workspace, 'watched', 'ignored'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'watched', 'greeting.txt'), 'hello');
  fs.writeFileSync(
    path.join(workspace, '.vscode', 'mcp.json'),
    JSON.stringify(
      {
        servers: {
          greeter: {
            type: 'stdio',
            command: 'node',
            args: [GREETER, '${workspaceFolder}'],
            cwd: '${workspaceFolder}',
            env,
            dev,
          },
        },
      },
      null,
      2,
    ),
  );
  await installVsix(PRODUCT_VSIX, extensionsDir, userDataDir);
  // Without `consent`, the person's own setting turns the first-start consent off, so nothing but dev mode can start
  // the server (autoStart is off by default): the server running without a click is dev mode's doing.
  const server = await startCodeServer({
    workspace,
    extensionsDir,
    userDataDir,
    settings: {
      'mcpWorkbench.dev.restartDelayMs': 200,
      'mcpWorkbench.confirmWorkspaceServers': consent,
      'mcpWorkbench.autoStart': false,
      // VS Code 1.139's own MCP client starts a server that has `dev` by itself too, from the same mcp.json (1.100's
      // does not): a second greeter process, which this test would count as ours. Off, as our notice offers.
      ...(vscodeVersion().minor > 100 ? { 'chat.mcp.access': 'none' } : {}),
    },
  });
  try {
    const workbench = await openWorkbench(server.url, workspace);
    return { tmp, workspace, server, workbench };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

async function closeSession(session: Session | undefined): Promise<void> {
  const script = GREETER;
  if (!session) return;
  await session.workbench.close();
  await session.server.stop();
  const left = await waitUntil(
    'greeter processes to end',
    () => (processesMatching(script, session.workspace).length === 0 ? [] : undefined),
    15_000,
  ).catch(() => processesMatching(script, session.workspace));
  fs.rmSync(session.tmp, { recursive: true, force: true });
  assert.deepEqual(left, [], 'greeter processes from this test are still running');
}

/**
 * Calls greet from its form and returns the form's frame. A restart gives the server new tools, so Call Tool then
 * replaces the form of the old process (`replaced`, its frame): the old frame is gone before the new one is looked
 * for, or the click could land on a page that is being closed.
 */
async function callGreet(page: Page, replaced?: Frame): Promise<Frame> {
  const servers = pane(page, 'Servers');
  await inlineAction(page, await visibleRow(page, servers, 'greet'), 'Call Tool');
  if (replaced)
    await waitUntil('the form of the old process to close', () => (replaced.isDetached() ? true : undefined), 30_000);
  const form = await webviewFrame(page, 'the Call Tool form for greet', 'form #submit');
  await form.locator('#submit').click();
  return form;
}

/**
 * What a failure to stop at the breakpoint is read from, beside what the harness's waitFor adds (the notifications and
 * the end of each log): what the form and the debug toolbar show, and which greeter processes run.
 */
async function notPausedReport(page: Page, form: Frame, session: Session): Promise<string> {
  const text = async (read: () => Promise<string | null>) =>
    (await read().catch((error: unknown) => `(unreadable: ${String(error).split('\n')[0]})`))
      ?.replace(/\s+/g, ' ')
      .trim();
  const toolbar = await text(() =>
    page
      .locator('.debug-toolbar')
      .first()
      .evaluate(
        (element) =>
          Array.from(element.querySelectorAll('[aria-label]'))
            .map((item) => item.getAttribute('aria-label'))
            .join(', '),
        undefined,
        { timeout: 2_000 },
      ),
  );
  return [
    `form: "${await text(() => form.locator('body').innerText({ timeout: 2_000 }))}"`,
    `debug toolbar actions: ${toolbar || '(none)'}`,
    `greeter processes: ${processesMatching(GREETER, session.workspace).join(', ') || '(none)'}`,
  ].join('; ');
}

/** Calls greet from its form and returns the answer's text and the form's frame. */
async function greet(page: Page, expected: RegExp, replaced?: Frame): Promise<{ text: string; form: Frame }> {
  const form = await callGreet(page, replaced);
  return { text: await answer(page, expected), form };
}

function answer(page: Page, expected: RegExp): Promise<string> {
  return waitUntil(
    `the answer ${String(expected)}`,
    async () => {
      for (const frame of page.frames()) {
        const text = await frame
          .locator('body')
          .textContent({ timeout: 1_000 })
          .catch(() => '');
        const match = text ? expected.exec(text) : null;
        if (match) return match[0];
      }
      return undefined;
    },
    30_000,
  );
}

test(
  'dev mode in real VS Code: the server starts by itself and a watched file change restarts it',
  { timeout: 600_000 },
  async () => {
    let session: Session | undefined;
    try {
      session = await openSession('dev-watch', { watch: ['watched/**/*.txt', '!watched/ignored/**'] });
      const { page } = session.workbench;
      await openViewContainer(page, 'MCP');
      // Nothing is clicked to start it: dev mode starts it.
      const servers = pane(page, 'Servers');
      await visibleRow(page, servers, 'greet');
      const [first] = await waitUntil('the greeter process', () => {
        const pids = processesMatching(GREETER, session!.workspace);
        return pids.length === 1 ? pids : undefined;
      });
      const before = await greet(page, /hello \(pid \d+\)/);
      assert.match(before.text, new RegExp(`hello \\(pid ${first}\\)`));

      fs.writeFileSync(path.join(session.workspace, 'watched', 'greeting.txt'), 'bonjour');
      const [second] = await waitUntil(
        'a new greeter process after the change',
        () => {
          const pids = processesMatching(GREETER, session!.workspace);
          return pids.length === 1 && pids[0] !== first ? pids : undefined;
        },
        60_000,
      );
      await visibleRow(page, servers, 'greet');
      assert.match(
        (await greet(page, /bonjour \(pid \d+\)/, before.form)).text,
        new RegExp(`bonjour \\(pid ${second}\\)`),
      );
      await screenshot(page, 'dev-mode-restarted');
    } finally {
      await closeSession(session);
    }
  },
);

test(
  'dev mode in real VS Code: with debug node, a breakpoint in the tool handler stops when the tool is called from the form',
  { timeout: 600_000 },
  async () => {
    let session: Session | undefined;
    try {
      session = await openSession('dev-debug', { debug: { type: 'node' } }, { GREETER_BREAK: '1' }, true);
      const { page } = session.workbench;
      await openViewContainer(page, 'MCP');
      const servers = pane(page, 'Servers');
      // Dev mode's own start is the workspace's: it waits for the person to review what runs. The row is read once it
      // says so (its final layout) before it is clicked.
      const greeter = await visibleRow(page, servers, 'greeter');
      await waitFor(page, 'the greeter row to wait for a review', () =>
        greeter.getByText('changed: review to start').first().waitFor({ state: 'visible', timeout: 60_000 }),
      );
      await inlineAction(page, greeter, 'Start Server');
      // The consent shows the debugger's flag (port 0: the kernel picks one as node binds it, and node announces it):
      // what the person approves is what runs.
      const consent = await answerDialog(page, 'Allow and Start');
      const consentedFlag = /--inspect-brk=127\.0\.0\.1:0(?= )/.exec(consent)?.[0];
      assert.ok(consentedFlag, `the consent names the debugger's flag: ${consent}`);
      assert.ok(
        consent.includes(`Arguments: ${consentedFlag} ${GREETER}`),
        `the flag is in the arguments, before the script: ${consent}`,
      );
      const toolbar = page.locator('.debug-toolbar').first();
      await toolbar.waitFor({ state: 'visible', timeout: 60_000 });
      // The attach shows Run and Debug; the Servers view is brought back as a person would.
      await openViewContainer(page, 'MCP');
      // Started with --inspect-brk, the server runs only once VS Code's debugger attached and continued it.
      await visibleRow(page, servers, 'greet');
      const [pid] = await waitUntil('the greeter process', () => {
        const pids = processesMatching(GREETER, session!.workspace);
        return pids.length === 1 ? pids : undefined;
      });
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      assert.ok(
        cmdline.includes(consentedFlag),
        `node runs with the flag the person approved (${consentedFlag}): ${cmdline.join(' ')}`,
      );

      const form = await callGreet(page);
      // Paused on the breakpoint: the debug toolbar offers Continue, and the editor shows the handler's line.
      const resume = page.locator('.debug-toolbar .codicon-debug-continue').first();
      await waitFor(page, 'the debugger to stop at the breakpoint', () =>
        resume.waitFor({ state: 'visible', timeout: 60_000 }).catch(async (error: unknown) => {
          throw new Error(
            `${error instanceof Error ? error.message.split('\n')[0] : String(error)}; ${await notPausedReport(page, form, session!)}`,
          );
        }),
      );
      await page.locator('.codicon-debug-stackframe').first().waitFor({ state: 'visible', timeout: 30_000 });
      await page.mouse.move(0, 0);
      await screenshot(page, 'dev-mode-breakpoint');
      await resume.click();
      assert.match(await answer(page, /hello \(pid \d+\)/), new RegExp(`hello \\(pid ${pid}\\)`));
    } finally {
      await closeSession(session);
    }
  },
);
