/**
 * Integration tests INSIDE the extension host of a real VS Code: code-server 4.100.3 (VS Code 1.100.3) or, with
 * MCP_E2E_VSCODE=newest, 4.139.1 (VS Code 1.139.1; see test/e2e/harness.ts).
 *
 * The suites (test/integration/suite/*.ts) are bundled to one CommonJS file; a tiny runner extension
 * (test/integration/runner/) is packaged and installed next to the product VSIX. On start-up the
 * runner requires the bundle named by MCP_INTEGRATION_SUITE, calls run(vscode) and writes the result
 * to MCP_INTEGRATION_RESULT. The extension host starts only while a browser page is connected, so
 * Chromium opens the workbench and stays until the result file appears.
 *
 * Run: node --import tsx --test test/integration/integration.test.ts
 * Env: MCP_INTEGRATION_SUITES=tree,config runs only those suites, in that order (names: suite/index.ts);
 *      MCP_INTEGRATION_VSIX=<path> uses that test-build VSIX instead of running `npm run package:test` (the suites
 *      drive the UI through hooks only the test build has; see esbuild.js);
 *      MCP_INTEGRATION_ENTRY=<file.ts|.js> bundles that entry (exporting run(vscode)) instead of suite/index.ts;
 *      MCP_INTEGRATION_TIMEOUT_MS bounds the wait for the result (default 600000: every suite, on a loaded 2-core machine);
 *      MCP_INTEGRATION_KEEP=1 keeps the temp folder (workspace, user data with the extension host logs).
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import type { Page } from 'playwright-core';
import * as assert from 'node:assert/strict';
import { promisify } from 'node:util';
import { VsCodeFixture } from '../e2e/fixture';
import { processesInGroup, screenshot, sleep } from '../e2e/harness';
import { INTEGRATION_DIR, REPO_ROOT, SUITE_ENTRY, bundleForExtensionHost, writeWorkspace } from './support';

const execFileAsync = promisify(execFile);

const RUNNER_DIR = path.join(INTEGRATION_DIR, 'runner');
const RUNNER_FILES = ['package.json', 'extension.js', 'README.md'];
const RESULT_TIMEOUT_MS = Number(process.env.MCP_INTEGRATION_TIMEOUT_MS ?? 600_000);

interface RunnerResult {
  passed: string[];
  failed: { name: string; error: string }[];
  crash?: string;
  vscodeVersion?: string;
  nodeVersion?: string;
  durationMs?: number;
}

function log(message: string): void {
  process.stderr.write(`[integration] ${message}\n`);
}

async function run(command: string, args: string[], cwd: string, what: string): Promise<void> {
  try {
    await execFileAsync(command, args, {
      cwd,
      timeout: 180_000,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, CI: 'true' },
    });
  } catch (err) {
    const e = err as Error & { stdout?: string; stderr?: string };
    throw new Error(`${what} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

/** The test build's VSIX: the product plus the hooks the suites use (MCP_INTEGRATION_VSIX, else packaged now). */
async function testBuildVsix(): Promise<string> {
  const fromEnv = process.env.MCP_INTEGRATION_VSIX;
  if (fromEnv) {
    assert.ok(fs.existsSync(fromEnv), `the VSIX ${fromEnv} (MCP_INTEGRATION_VSIX) does not exist`);
    return path.resolve(fromEnv);
  }
  await run('npm', ['run', 'package:test'], REPO_ROOT, 'npm run package:test');
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  const vsix = path.join(REPO_ROOT, 'dist', 'test-build', `${manifest.name}-${manifest.version}.vsix`);
  assert.ok(fs.existsSync(vsix), `npm run package:test did not write ${vsix}`);
  return vsix;
}

/** Packages the runner extension (copied to a temp folder) with the repository's own vsce. */
async function runnerVsix(tmp: string): Promise<string> {
  const dir = path.join(tmp, 'runner');
  fs.mkdirSync(dir, { recursive: true });
  for (const file of RUNNER_FILES) fs.copyFileSync(path.join(RUNNER_DIR, file), path.join(dir, file));
  const out = path.join(tmp, 'integration-runner.vsix');
  // The repository's vsce: `npx vsce` from a temp folder would look for it on the registry.
  const vsce = path.join(REPO_ROOT, 'node_modules', '.bin', 'vsce');
  assert.ok(fs.existsSync(vsce), `vsce not found at ${vsce}; run npm ci`);
  await run(
    vsce,
    ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', out],
    dir,
    'vsce package (runner)',
  );
  assert.ok(fs.existsSync(out), `vsce did not write ${out}`);
  return out;
}

function readResult(file: string): RunnerResult {
  const text = fs.readFileSync(file, 'utf8');
  const parsed = JSON.parse(text) as Partial<RunnerResult>;
  if (!Array.isArray(parsed.passed) || !Array.isArray(parsed.failed))
    throw new Error(`malformed result file ${file}:\n${text}`);
  return parsed as RunnerResult;
}

/** Last lines of the extension host's own log (activation errors, runner messages), for failure messages. */
function extensionHostLogTail(userDataDir: string, lines = 30): string {
  const logsDir = path.join(userDataDir, 'logs');
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'remoteexthost.log') found.push(full);
    }
  };
  walk(logsDir);
  if (found.length === 0) return `(no remoteexthost.log under ${logsDir})`;
  return found
    .map((file) => `${file}:\n${fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n')}`)
    .join('\n');
}

/**
 * VS Code's own dialog when an extension asks an authentication provider for a new session ("The extension '…'
 * wants to sign in using MCP Servers (MCP Workbench).", oauth.suite.ts): a workbench dialog the extension host
 * cannot answer, so the person's "Allow" is clicked here. Only this dialog: every other one stays for its suite.
 */
async function allowSignInToMcpWorkbench(page: Page): Promise<void> {
  const dialog = page
    .locator('.monaco-dialog-box')
    .filter({ hasText: /wants to sign in using MCP Servers \(MCP Workbench\)/ });
  if (!(await dialog.isVisible().catch(() => false))) return;
  const clicked = await dialog
    .locator('.monaco-button', { hasText: /^Allow$/ })
    .first()
    .click({ timeout: 5_000 })
    .then(
      () => true,
      () => false,
    );
  if (clicked) log('allowed the runner extension to sign in with MCP Servers (MCP Workbench)');
}

let build: string | undefined;
let vscode: VsCodeFixture | undefined;
let pgid: number | undefined;

after(async () => {
  try {
    // Ends Chromium, code-server and every process started from the workspace (the suite's servers), failing on leftovers.
    await vscode?.dispose();
    if (pgid != null) assert.deepEqual(processesInGroup(pgid), [], `code-server processes left in group ${pgid}`);
  } finally {
    if (build) fs.rmSync(build, { recursive: true, force: true });
  }
});

test(
  'integration suites pass inside the VS Code extension host (code-server)',
  { timeout: RESULT_TIMEOUT_MS + 300_000 },
  async (t) => {
    build = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-integration-build-'));
    const suiteBundle = path.join(build, 'suite', 'index.cjs');
    const resultFile = path.join(build, 'result.json');
    bundleForExtensionHost(path.resolve(process.env.MCP_INTEGRATION_ENTRY ?? SUITE_ENTRY), suiteBundle);
    const [product, runner] = await Promise.all([testBuildVsix(), runnerVsix(build)]);
    vscode = await VsCodeFixture.prepare({
      name: 'integration',
      extensions: [product, runner],
      keep: process.env.MCP_INTEGRATION_KEEP === '1',
    });
    const { userDataDir } = vscode;
    writeWorkspace(vscode.workspace);

    // The extension host starts when a page connects; the page stays open until the result is in.
    // MCP_INTEGRATION_SUITES (comma-separated names, in the order to run) reaches suite/index.ts through code-server's env.
    const selection = process.env.MCP_INTEGRATION_SUITES;
    await vscode.start({
      env: {
        MCP_INTEGRATION_SUITE: suiteBundle,
        MCP_INTEGRATION_RESULT: resultFile,
        ...(selection ? { MCP_INTEGRATION_SUITES: selection } : {}),
      },
    });
    const { server, workbench } = vscode;
    pgid = server.pid;

    const started = Date.now();
    while (!fs.existsSync(resultFile)) {
      if (Date.now() - started > RESULT_TIMEOUT_MS) {
        const shot: string = await screenshot(workbench.page, 'integration-no-result').catch(() => '(no screenshot)');
        assert.fail(
          `no result in ${resultFile} after ${RESULT_TIMEOUT_MS} ms: the runner extension did not run or did not finish.\n` +
            `Screenshot: ${shot}\nPage console errors: ${JSON.stringify(workbench.consoleErrors.slice(-10))}\n` +
            `code-server log (${server.logFile}):\n${server.logTail()}\nextension host log:\n${extensionHostLogTail(userDataDir)}`,
        );
      }
      await allowSignInToMcpWorkbench(workbench.page);
      if (!processesInGroup(server.pid).includes(server.pid)) {
        assert.fail(
          `code-server exited while waiting for the result.\ncode-server log:\n${server.logTail()}\nextension host log:\n${extensionHostLogTail(userDataDir)}`,
        );
      }
      await sleep(250);
    }
    const result = readResult(resultFile);
    log(
      `suite finished in ${result.durationMs ?? '?'} ms (VS Code ${result.vscodeVersion ?? '?'}, Node ${result.nodeVersion ?? '?'})`,
    );
    for (const name of result.passed) t.diagnostic(`passed: ${name}`);
    for (const failure of result.failed) t.diagnostic(`FAILED: ${failure.name}: ${failure.error.split('\n', 1)[0]}`);

    if (result.crash) {
      assert.fail(
        `the integration suite crashed inside the extension host:\n${result.crash}\nextension host log:\n${extensionHostLogTail(userDataDir)}`,
      );
    }
    assert.ok(result.passed.length > 0, 'the suite ran no tests');
    assert.deepEqual(
      result.failed.map((f) => f.name),
      [],
      `integration failures:\n${result.failed.map((f) => `- ${f.name}: ${f.error}`).join('\n')}`,
    );
  },
);
