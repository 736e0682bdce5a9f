/**
 * `npm run bench:ui`: what a person feels in the real VS Code (code-server 4.100.3 through Chromium, via the e2e
 * harness), printed as a table. Not a test: nothing is asserted, figures vary with the machine.
 *
 *   - activation: activate()'s own time and VS Code's load of the extension's code before it (its marks around the
 *     import; VS Code counts both into the activation), from the extension's "MCP Workbench" log; issue 24's target
 *     is under 50 ms
 *   - first tool rows: from answering the start consent of a server with N tools (test/fixtures/many-tools) to its
 *     first tool row being visible in the Servers view; for N = 5,000 and 50,000 (BENCH_UI_TOOLS overrides)
 *   - extension host memory (RSS) before the server starts and once its rows are shown
 *   - result on screen: from the call's answer to the webview reporting it drew the result, for the first call of a
 *     tool and the next ones (all drawn under the form the call was made from: a message posted to a page already on
 *     screen), and for Call Tool with JSON Arguments (its result tab), from the extension's log; and, measured from
 *     outside, the key press that calls to the text being visible in the result
 *
 *   - app drawn: for a tool with an MCP App (the published basic-vanillajs example's get-time), from the call's answer
 *     to the app's first ui/notifications/size-changed (its first laid-out frame, posted from inside the sandbox),
 *     from the extension's log, for the first call and the next ones (each draws a new app beside the form); and,
 *     measured from outside, the Call button's click to the app showing the tool's result (the server time)
 *
 *   - the Protocol view: what an open Show Protocol costs 10,000 calls (bench/uiProtocol.ts)
 *   - activation over 10 windows, each value and the median against 50 ms (issue 42; bench/uiActivation.ts)
 *   - idle and heap (issue 42; bench/uiIdle.ts, the clients in a Node process of their own): wakeups per server per
 *     minute with 10 servers idle for 5 minutes, the heap 10 servers of 1,000 tools retain, and the heap's slope under
 *     list_changed and log traffic
 *
 *   - the VSIX against issue 42's cap of 400 KB, with each part's compressed share (bench/vsixSize.ts)
 *
 * Run: npm run bench:ui. Knobs (environment):
 *   MCP_E2E_VSIX=<vsix>          skip packaging, measure this product VSIX
 *   BENCH_UI_TOOLS=5000,50000    the tool counts of the first-rows rows
 *   BENCH_PROTOCOL_CALLS=10000, BENCH_PROTOCOL_ROUNDS=5   the Protocol view's runs
 *   BENCH_UI_WINDOWS=10          windows of the activation section (each the first after its install), and
 *   BENCH_UI_WARM_WINDOWS=5      later windows (each the second of its install: from the code cache)
 *   BENCH_IDLE_SECONDS=300       how long 10 servers sit idle while wakeups are counted
 *   BENCH_TRAFFIC_SECONDS=300    how long the heap is watched under traffic (BENCH_HEAP_SAMPLE_SECONDS=30 apart;
 *                                BENCH_TRAFFIC_TOOLS=100, CHATTY_LIST_MS=500, CHATTY_LOG_MS=20 shape the traffic)
 *   BENCH_UI_ONLY=activation,idle  run only these sections of the last three (protocol, activation, idle); the
 *                                tool-count windows run unless BENCH_UI_TOOLS is empty
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { Frame, Page } from 'playwright-core';
import {
  answerDialog,
  descendantsOf,
  installVsix,
  openViewContainer,
  openWorkbench,
  prepareCodeServer,
  PRODUCT_VSIX,
  quickPick,
  REPO_ROOT,
  runPickerCommand,
  screenshot,
  startCodeServer,
  typeInQuickInput,
  waitFor,
  webviewFrame,
} from '../test/e2e/harness';
import { activationReport, measureActivations, ownLogLines } from './uiActivation';
import { measureIdleAndHeap } from './uiIdle';
import { measureProtocolView } from './uiProtocol';
import { measureVsix } from './vsixSize';

const execFileAsync = promisify(execFile);
const MANY_TOOLS_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'many-tools', 'server.mjs');
const BASIC_APP_SERVER = path.join(
  REPO_ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'server-basic-vanillajs',
  'dist',
  'index.js',
);
const APP_CALLS = 3;
const SIZES = (process.env.BENCH_UI_TOOLS ?? '5000,50000')
  .split(',')
  .filter((text) => text.trim() !== '')
  .map((text) => Number(text.trim()));
/** The sections after the tool-count windows that run (BENCH_UI_ONLY narrows them). */
const ONLY = process.env.BENCH_UI_ONLY?.split(',').map((name) => name.trim());
const runs = (section: 'protocol' | 'activation' | 'idle') => ONLY === undefined || ONLY.includes(section);
const CALLS = 3;

interface Figures {
  tools: number;
  activationMs?: number;
  codeLoadMs?: number;
  firstRowsMs: number;
  /** The server's own log lines (they carry their time) from the consent to the first rows: where the window went. */
  firstRowsLogLines: string[];
  hostRssBeforeMiB?: number;
  hostRssAfterMiB?: number;
  resultLogLines: string[];
  submitToVisibleMs: number[];
  /** Call Tool with JSON Arguments (no form): Enter in the arguments box to the text visible in the result tab. */
  directCallMs?: number;
  /** The extension's "app of get-time drawn … the call answered" lines (the basic app server's log). */
  appLogLines: string[];
  /** get-time's Call click to its new app showing the server time, per call. */
  clickToAppShownMs: number[];
}

function rssMiB(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/** The extension host among code-server's descendants (its command line names the process type). */
function extensionHostPid(codeServerPid: number): number | undefined {
  for (const pid of descendantsOf(codeServerPid)) {
    let cmdline = '';
    try {
      cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    } catch {
      continue;
    }
    if (/extensionHost/i.test(cmdline)) return pid;
  }
  return undefined;
}

/** A time of day as the extension's log writes it (local time, milliseconds), to read beside its lines. */
function clockTime(ms: number): string {
  const at = new Date(ms);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}.${pad(at.getMilliseconds(), 3)}`;
}

async function waitForRow(page: Page, label: string, timeoutMs: number): Promise<void> {
  const row = page
    .locator('.part.sidebar .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) })
    .first();
  await row.waitFor({ state: 'visible', timeout: timeoutMs });
}

/** Polls every frame for `text` (finer than the harness's 250 ms, since this is what is timed). */
async function waitForTextInAnyFrame(page: Page, text: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame()) continue;
      if (
        (await frame
          .getByText(text)
          .count()
          .catch(() => 0)) > 0
      )
        return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`"${text}" did not appear in a webview within ${timeoutMs} ms`);
}

/** How many webview frames show `selector` with text matching `pattern` (each app draws in a frame of its own). */
async function framesShowing(page: Page, selector: string, pattern: RegExp): Promise<number> {
  let count = 0;
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    const texts = await frame
      .locator(selector)
      .allTextContents()
      .catch(() => [] as string[]);
    if (texts.some((text) => pattern.test(text.trim()))) count++;
  }
  return count;
}

const SERVER_TIME = /^\d{4}-\d{2}-\d{2}T/;

/**
 * get-time called from its form APP_CALLS times: each call draws its app beside the form. Timed from outside: the
 * click on Call to one more frame showing the server time.
 */
async function measureAppDrawn(page: Page): Promise<number[]> {
  await page.locator('.part.sidebar .monaco-list-row', { hasText: 'basic' }).first().click();
  await answerDialog(page, 'Allow and Start');
  await waitForRow(page, 'get-time', 60_000);
  const row = page
    .locator('.part.sidebar .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: /^get-time$/ }) })
    .first();
  await row.hover();
  await row.locator('.actions .action-label[aria-label^="Call Tool"]').first().click();
  // By its text: echo's form is still open (hidden) and has a #submit too.
  const form: Frame = await webviewFrame(
    page,
    'the Call Tool form for get-time',
    'text=Returns the current server time',
  );
  const clickToShownMs: number[] = [];
  for (let call = 1; call <= APP_CALLS; call++) {
    const before = await framesShowing(page, '#server-time', SERVER_TIME);
    const clicked = Date.now();
    await form
      .locator('#submit')
      .click()
      .catch(async (error: unknown) => {
        await screenshot(page, `bench-ui-app-call-${call}`);
        throw error;
      });
    const deadline = clicked + 60_000;
    while ((await framesShowing(page, '#server-time', SERVER_TIME)) <= before) {
      if (Date.now() > deadline)
        throw new Error(`the app of get-time (call ${call}) did not show the server time within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    clickToShownMs.push(Date.now() - clicked);
  }
  return clickToShownMs;
}

async function measure(tools: number): Promise<Figures> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `mcp-bench-ui-${tools}-`));
  const workspace = path.join(tmp, 'workspace');
  const extensionsDir = path.join(tmp, 'extensions');
  const userDataDir = path.join(tmp, 'user-data');
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  fs.writeFileSync(
    path.join(workspace, '.vscode', 'mcp.json'),
    JSON.stringify(
      {
        servers: {
          many: { type: 'stdio', command: process.execPath, args: [MANY_TOOLS_SERVER, String(tools)] },
          // Sorted above "many" in the tree, so its row stays in view while many's tools are listed.
          ...(tools === SIZES[0]
            ? { basic: { type: 'stdio', command: process.execPath, args: [BASIC_APP_SERVER, '--stdio'] } }
            : {}),
        },
      },
      null,
      2,
    ),
  );
  await installVsix(PRODUCT_VSIX, extensionsDir, userDataDir);
  const server = await startCodeServer({
    workspace,
    extensionsDir,
    userDataDir,
    settings: { 'workbench.colorTheme': 'Default Light Modern' },
  });
  const workbench = await openWorkbench(server.url, workspace).catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });
  try {
    const { page } = workbench;
    await openViewContainer(page, 'MCP');
    await waitForRow(page, 'many', 60_000);
    const host = extensionHostPid(server.pid);
    const hostRssBeforeMiB = host === undefined ? undefined : rssMiB(host);
    await page.locator('.part.sidebar .monaco-list-row', { hasText: 'many' }).first().click();
    await answerDialog(page, 'Allow and Start');
    const consented = Date.now();
    await waitForRow(page, 'echo', 120_000);
    const firstRowsMs = Date.now() - consented;
    const hostRssAfterMiB = host === undefined ? undefined : rssMiB(host);

    const submitToVisibleMs: number[] = [];
    if (tools === SIZES[0]) {
      const echoRow = page
        .locator('.part.sidebar .monaco-list-row')
        .filter({ has: page.locator('.label-name', { hasText: /^echo$/ }) })
        .first();
      await echoRow.hover();
      await echoRow.locator('.actions .action-label[aria-label^="Call Tool"]').first().click();
      const form: Frame = await webviewFrame(page, 'the Call Tool form for echo', 'form input');
      for (let call = 1; call <= CALLS; call++) {
        const text = `bench call ${call} ${Date.now()}`;
        const field = form.getByLabel(/^text\b/);
        await waitFor(page, 'the text field', () => field.fill(text));
        const pressed = Date.now();
        await field.press('Control+Enter');
        await waitForTextInAnyFrame(page, text, 30_000);
        submitToVisibleMs.push(Date.now() - pressed);
      }
    }
    let directCallMs: number | undefined;
    if (tools === SIZES[0]) {
      // A call without a form: its result tab opens when the tool is picked, loads while the arguments are typed,
      // and the result is posted to it. A person takes longer to type than the page to load: Enter is pressed once
      // the tab shows that it waits for the arguments.
      await runPickerCommand(page, 'MCP Workbench: Call Tool with JSON Arguments…');
      await quickPick(page, 'many');
      await page.locator('.quick-input-widget .quick-input-box input').first().fill('echo');
      await quickPick(page, 'echo');
      const text = `bench direct call ${Date.now()}`;
      await typeInQuickInput(page, JSON.stringify({ text }), { submit: false });
      await waitForTextInAnyFrame(page, 'Waiting for the arguments of echo', 30_000);
      const pressed = Date.now();
      await page.keyboard.press('Enter');
      await waitForTextInAnyFrame(page, text, 30_000);
      directCallMs = Date.now() - pressed;
    }
    const clickToAppShownMs = tools === SIZES[0] ? await measureAppDrawn(page) : [];
    const appLines = (lines: string[]) =>
      lines.filter((line) => /app of get-time drawn .* ms (after|before) the call answered \(inline\)/.test(line));
    let appLog = ownLogLines(userDataDir, 'MCP Workbench basic');
    for (let attempt = 0; attempt < 50 && appLines(appLog).length < clickToAppShownMs.length; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      appLog = ownLogLines(userDataDir, 'MCP Workbench basic');
    }
    const expectedResults = submitToVisibleMs.length + (directCallMs === undefined ? 0 : 1) + clickToAppShownMs.length;
    const resultLines = (lines: string[]) =>
      lines.filter((line) => /on screen \d+ ms after the call answered/.test(line));
    // The extension writes its log asynchronously: wait until the last result's line is in the file.
    let log = ownLogLines(userDataDir);
    for (let attempt = 0; attempt < 50 && resultLines(log).length < expectedResults; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      log = ownLogLines(userDataDir);
    }
    const activation = log
      .map((line) => /Activated in (\d+) ms(?:; the extension's code loaded in (\d+) ms)?/.exec(line))
      .find(Boolean);
    // Read once the calls are done: the extension writes its log asynchronously. Its lines up to the first rows.
    const rowsShown = clockTime(consented + firstRowsMs);
    const firstRowsLogLines = [
      `${clockTime(consented)} (bench) consent answered`,
      ...ownLogLines(userDataDir, 'MCP Workbench many').filter(
        (line) => line !== '' && (/\d\d:\d\d:\d\d\.\d{3}/.exec(line)?.[0] ?? '') <= rowsShown,
      ),
      `${rowsShown} (bench) first tool row visible`,
    ];
    return {
      tools,
      activationMs: activation ? Number(activation[1]) : undefined,
      codeLoadMs: activation?.[2] !== undefined ? Number(activation[2]) : undefined,
      firstRowsMs,
      firstRowsLogLines,
      hostRssBeforeMiB,
      hostRssAfterMiB,
      resultLogLines: resultLines(log).map((line) => line.replace(/^.*?\] /, '')),
      submitToVisibleMs,
      directCallMs,
      appLogLines: appLines(appLog).map((line) => line.replace(/^.*?\] /, '')),
      clickToAppShownMs,
    };
  } catch (error) {
    // What the window showed and what the extension logged, for the next person who meets this failure.
    const shot = await screenshot(workbench.page, `bench-ui-failure-${tools}`).catch(() => undefined);
    const logCopy = path.join(REPO_ROOT, 'test-results', `bench-ui-failure-${tools}.log`);
    fs.mkdirSync(path.dirname(logCopy), { recursive: true });
    fs.writeFileSync(logCopy, ownLogLines(userDataDir).join('\n'));
    console.error(
      `[bench:ui] failed with ${tools} tools; screenshot ${shot ?? '(none)'}, the extension's log ${logCopy}`,
    );
    throw error;
  } finally {
    await workbench.close();
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  await prepareCodeServer();
  if (!process.env.MCP_E2E_VSIX)
    await execFileAsync('npm', ['run', 'package'], {
      cwd: REPO_ROOT,
      timeout: 300_000,
      env: { ...process.env, CI: 'true' },
    });
  const all: Figures[] = [];
  for (const tools of SIZES) {
    console.log(`[bench:ui] measuring a server with ${tools} tools…`);
    all.push(await measure(tools));
  }
  const mib = (value: number | undefined) => (value === undefined ? '?' : `${value} MiB`);
  if (all.length > 0) {
    console.log('\nMCP Workbench in code-server 4.100.3 (Chromium, headless)\n');
    console.log(
      '| tools | activation: activate() + code load | first tool rows after consent | ext host RSS before → after |',
    );
    console.log('| ---: | ---: | ---: | ---: |');
  }
  for (const figures of all) {
    const activated =
      figures.activationMs === undefined || figures.codeLoadMs === undefined
        ? undefined
        : figures.activationMs + figures.codeLoadMs;
    const activation = `${figures.activationMs ?? '?'} + ${figures.codeLoadMs ?? '?'} ms ${verdict(activated, ACTIVATION_TARGET_MS)}`;
    const rows = `${figures.firstRowsMs} ms ${verdict(figures.firstRowsMs, FIRST_ROWS_TARGET_MS(figures.tools))}`;
    console.log(
      `| ${figures.tools} | ${activation} | ${rows} | ${mib(figures.hostRssBeforeMiB)} → ${mib(figures.hostRssAfterMiB)} |`,
    );
  }
  for (const figures of all) {
    console.log(`\nFrom the consent to the first rows (${figures.tools} tools), the server's log:`);
    for (const line of figures.firstRowsLogLines) console.log(`  ${line}`);
  }
  const list = (values: (number | undefined)[]) =>
    values.length === 0 ? '-' : values.map((ms) => `${ms ?? '?'} ms`).join(', ');
  for (const figures of all.filter((f) => f.submitToVisibleMs.length > 0)) {
    console.log(`\nResults (server with ${figures.tools} tools), ${CALLS} calls of echo through the form:`);
    for (const line of figures.resultLogLines) console.log(`  extension: ${line}`);
    const onScreen = (lines: string[]) =>
      lines.map((line) => {
        const match = /on screen (\d+) ms/.exec(line);
        return match ? Number(match[1]) : undefined;
      });
    // get-time's results (the app rows below) are drawn under its form too: these rows are echo's.
    const echoLines = figures.resultLogLines.filter((line) => line.includes(' of echo '));
    const inForm = onScreen(echoLines.filter((line) => line.includes('(in the form')));
    const inTab = onScreen(echoLines.filter((line) => line.includes('(in its tab')));
    const results = (values: (number | undefined)[]) => `${list(values)} ${verdicts(values, RESULT_TARGET_MS)}`;
    console.log(
      `\n| result | answer → on screen (extension; target < ${RESULT_TARGET_MS} ms) | key press → text visible (outside) |`,
    );
    console.log('| --- | ---: | ---: |');
    console.log(
      `| first, under the form | ${results(inForm.slice(0, 1))} | ${list(figures.submitToVisibleMs.slice(0, 1))} |`,
    );
    console.log(
      `| later, under the form | ${results(inForm.slice(1))} | ${list(figures.submitToVisibleMs.slice(1))} |`,
    );
    if (figures.directCallMs !== undefined)
      console.log(
        `| Call Tool with JSON Arguments, in its tab (opened when the tool was picked) | ${results(inTab)} | ${figures.directCallMs} ms |`,
      );
  }
  for (const figures of all.filter((f) => f.clickToAppShownMs.length > 0)) {
    console.log(
      `\nApp drawn: ${APP_CALLS} calls of basic-vanillajs's get-time through its form, each drawing its app beside the form:`,
    );
    for (const line of figures.appLogLines) console.log(`  extension: ${line}`);
    // Negative: the app had laid out before the call answered.
    const drawn = figures.appLogLines.map((line) => {
      const match = /(\d+) ms (after|before) the call answered/.exec(line);
      return match ? (match[2] === 'before' ? -Number(match[1]) : Number(match[1])) : undefined;
    });
    const apps = (values: (number | undefined)[]) => `${list(values)} ${verdicts(values, APP_DRAWN_TARGET_MS)}`;
    console.log(
      `\n| app | answer → first size-changed (extension; target < ${APP_DRAWN_TARGET_MS} ms) | Call click → app shows the result (outside) |`,
    );
    console.log('| --- | ---: | ---: |');
    console.log(
      `| app drawn, first call | ${apps(drawn.slice(0, 1))} | ${list(figures.clickToAppShownMs.slice(0, 1))} |`,
    );
    console.log(`| app drawn, later calls | ${apps(drawn.slice(1))} | ${list(figures.clickToAppShownMs.slice(1))} |`);
  }
  // The Protocol view (issue 20): what an open view costs 10,000 calls.
  if (runs('protocol')) console.log(await measureProtocolView());
  // Issue 42: activation over 10 windows, then the clients idle and under traffic in a process of their own.
  if (runs('activation')) console.log(activationReport(await measureActivations()));
  if (runs('idle')) console.log(await measureIdleAndHeap());
  // What a person downloads (issue 42: at most 400 KB, the CLI in it), with each part's compressed share.
  console.log(`\n${await measureVsix(PRODUCT_VSIX, REPO_ROOT)}`);
}

/**
 * The targets beside each row. Issues 24 and 42: activation under 50 ms (the VSIX's cap is issue 42's: vsixSize.ts).
 * Issue 12: first tool rows within 1 s for 5,000 tools and 3 s for 50,000, a result on screen under 200 ms after its
 * answer. An app drawn (answer → the app's first size-changed) had no figure; 2 s is this bench's: most of it is the
 * app's own page loading in its frame. The Protocol view's is in bench/uiProtocol.ts.
 */
const ACTIVATION_TARGET_MS = 50;
const FIRST_ROWS_TARGET_MS = (tools: number) => (tools <= 5000 ? 1000 : 3000);
const RESULT_TARGET_MS = 200;
const APP_DRAWN_TARGET_MS = 2000;

function verdict(value: number | undefined, target: number): string {
  return value === undefined ? '(target ?)' : `(target < ${target} ms: ${value < target ? 'MET' : 'NOT MET'})`;
}

function verdicts(values: (number | undefined)[], target: number): string {
  if (values.length === 0) return '';
  return values.every((value) => value !== undefined && value < target) ? 'MET' : 'NOT MET';
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
