/**
 * End-to-end harness: a real VS Code (code-server, server + web workbench) driven from Debian's Chromium through
 * playwright-core. Works offline (see scripts/prepare-code-server.sh, which prepares code-server into a cache outside
 * the repository). Which VS Code: MCP_E2E_VSCODE=minimum (code-server 4.100.3 = VS Code 1.100.3, the minimum the
 * manifest claims; the default) or newest (code-server 4.139.1 = VS Code 1.139.1, on the Node 24 the preparation puts
 * beside it); see vscodeVersion().
 *
 * Every wait is bounded; every failure throws an Error that says what was being waited for and
 * where the last screenshot is. Nothing is skipped silently.
 *
 * Tests normally get their VS Code from fixture.ts (VsCodeFixture), which does the steps below and the teardown.
 *
 * Usage (node:test, run with `node --import tsx --test test/e2e/*.e2e.ts`):
 *   const pkg = await prepareCodeServer();
 *   await installVsix(vsix, extensionsDir, userDataDir);
 *   const server = await startCodeServer({ workspace, extensionsDir, userDataDir });
 *   const wb = await openWorkbench(server.url, workspace);
 *   await runCommand(wb.page, 'My Ext: Do Thing');
 *   await waitForNotification(wb.page, /done/);
 *   await wb.close(); await server.stop();
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { chromium, type BrowserContext, type Frame, type Locator, type Page } from 'playwright-core';
import { descendantsOf, pidExists, processesInGroup, signalQuietly } from '../support/processes';
import { pollUntil } from '../support/wait';

export { descendantsOf, processesInGroup };

// ---------------------------------------------------------------------------------------------------
// Constants and small utilities
// ---------------------------------------------------------------------------------------------------

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const PREPARE_SCRIPT = path.join(REPO_ROOT, 'scripts', 'prepare-code-server.sh');
export const RESULTS_DIR = path.join(REPO_ROOT, 'test-results', 'e2e');
export const CHROMIUM_PATH = process.env.MCP_E2E_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Upper bound for any single wait in this harness. */
export const DEFAULT_TIMEOUT_MS = 60_000;

let lastScreenshotPath: string | undefined;
/** Path of the most recent screenshot taken by this harness (explicit or on failure). */
export function getLastScreenshotPath(): string | undefined {
  return lastScreenshotPath;
}

function log(message: string): void {
  process.stderr.write(`[e2e] ${message}\n`);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves/rejects like `promise`, or rejects with `message` after `ms`; never keeps the process alive. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function slug(text: string): string {
  return (
    text
      .replace(/[^a-zA-Z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'step'
  );
}

function bound(timeoutMs: number | undefined): number {
  const t = timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(t > 0)) throw new Error(`e2e: invalid timeout ${t}`);
  return Math.min(t, 10 * 60_000);
}

interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion (bounded), stdin closed, capturing output. Kills its group on timeout. */
function runProcess(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number; what: string; echo?: boolean },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (options.echo) process.stderr.write(d);
    });
    const timer = setTimeout(() => {
      killGroup(child.pid, 'SIGKILL');
      reject(
        new Error(
          `e2e: ${options.what} did not finish within ${options.timeoutMs} ms (${command} ${args.join(' ')}).\n` +
            `stderr tail:\n${tail(stderr)}`,
        ),
      );
    }, options.timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`e2e: ${options.what}: cannot start ${command}: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

function tail(text: string, lines = 40): string {
  return text.split('\n').slice(-lines).join('\n');
}

function killGroup(pgid: number | undefined, signal: NodeJS.Signals): void {
  if (pgid != null) signalQuietly(-pgid, signal);
}

// ---------------------------------------------------------------------------------------------------
// Which VS Code
// ---------------------------------------------------------------------------------------------------

/** The VS Code versions the suites run in: the minimum the manifest claims, and the newest code-server on npm. */
export const VSCODE_VERSIONS = {
  minimum: { codeServer: '4.100.3', vscode: '1.100.3' },
  newest: { codeServer: '4.139.1', vscode: '1.139.1' },
} as const;

export type VsCodeChoice = keyof typeof VSCODE_VERSIONS;

export interface VsCodeVersion {
  /** Which of VSCODE_VERSIONS (MCP_E2E_VSCODE). */
  choice: VsCodeChoice;
  /** The code-server release (the npm package's version). */
  codeServer: string;
  /** The VS Code it bundles, e.g. "1.139.1". */
  vscode: string;
  /** VS Code's minor version (100, 139): what a test compares to branch on a real difference between the two. */
  minor: number;
}

/**
 * The VS Code this run drives, from MCP_E2E_VSCODE (minimum | newest; default minimum). A test branches on it only
 * where the two VS Codes really differ (a dialog's buttons, a view's markup), never to skip a check.
 */
export function vscodeVersion(): VsCodeVersion {
  const raw = process.env.MCP_E2E_VSCODE?.trim() || 'minimum';
  if (raw !== 'minimum' && raw !== 'newest')
    throw new Error(`e2e: MCP_E2E_VSCODE must be "minimum" or "newest", not ${JSON.stringify(raw)}`);
  const { codeServer, vscode } = VSCODE_VERSIONS[raw];
  return { choice: raw, codeServer, vscode, minor: Number(vscode.split('.')[1]) };
}

// ---------------------------------------------------------------------------------------------------
// code-server preparation and extension installation
// ---------------------------------------------------------------------------------------------------

/**
 * Runs scripts/prepare-code-server.sh (idempotent, cached; seconds when warm, ~2-3 min cold) and
 * returns code-server's package directory (the one holding out/node/entry.js).
 */
export async function prepareCodeServer(options: { timeoutMs?: number } = {}): Promise<string> {
  const timeoutMs = options.timeoutMs ?? 15 * 60_000;
  const started = Date.now();
  const { codeServer } = vscodeVersion();
  const result = await runProcess('bash', [PREPARE_SCRIPT, codeServer], {
    cwd: REPO_ROOT,
    timeoutMs,
    what: `preparing code-server ${codeServer} (scripts/prepare-code-server.sh)`,
    echo: true,
  });
  if (result.code !== 0) {
    throw new Error(
      `e2e: scripts/prepare-code-server.sh failed (exit ${result.code ?? result.signal}).\n${tail(result.stderr)}`,
    );
  }
  const dir = result.stdout.trim().split('\n').pop()?.trim() ?? '';
  if (!dir || !fs.existsSync(path.join(dir, 'out', 'node', 'entry.js'))) {
    throw new Error(`e2e: prepare-code-server.sh did not print a valid package directory (got "${dir}")`);
  }
  log(`code-server ready in ${dir} (${Date.now() - started} ms)`);
  cachedPackageDir = dir;
  return dir;
}

let cachedPackageDir: string | undefined;
async function packageDir(): Promise<string> {
  if (cachedPackageDir) return cachedPackageDir;
  const fromEnv = process.env.MCP_E2E_CODE_SERVER_DIR;
  if (fromEnv) {
    if (!fs.existsSync(path.join(fromEnv, 'out', 'node', 'entry.js'))) {
      throw new Error(`e2e: MCP_E2E_CODE_SERVER_DIR=${fromEnv} has no out/node/entry.js`);
    }
    cachedPackageDir = fromEnv;
  } else {
    cachedPackageDir = await prepareCodeServer();
  }
  return cachedPackageDir;
}

/**
 * The Node that runs code-server: the one scripts/prepare-code-server.sh put beside it (<cache>/code-server-<version>/
 * node, from the npm registry, when that code-server needs another Node than the machine's: 4.139.1 needs 24), else
 * the Node running the tests. The extension host is forked from it, so the extension runs on it too.
 */
export function codeServerNode(pkg: string): string {
  const own = path.join(path.dirname(pkg), 'node', 'bin', 'node');
  return fs.existsSync(own) ? own : process.execPath;
}

/**
 * Variables every code-server (hence VS Code extension host) process the tests start gets on top of the cleaned
 * environment below: the one place to switch something on for the extension under test in all e2e and
 * integration runs.
 */
export const TEST_PROCESS_ENV: Readonly<Record<string, string>> = {};

/**
 * Environment for code-server: the current one without the variables of a surrounding VS Code
 * (VSCODE_IPC_HOOK_CLI in particular makes code-server hand its arguments to that VS Code and exit).
 */
function codeServerEnv(extra: Record<string, string> | undefined, userDataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE' || key === 'NODE_OPTIONS') continue;
    if (key === 'PASSWORD' || key === 'HASHED_PASSWORD' || key.startsWith('CODE_SERVER_')) continue;
    env[key] = value;
  }
  // Keep code-server's own state (config.yaml, heartbeat, coder.json) out of the user's home.
  const stateHome = path.join(userDataDir, '.code-server-home');
  env.XDG_CONFIG_HOME = path.join(stateHome, 'config');
  env.XDG_DATA_HOME = path.join(stateHome, 'data');
  env.XDG_CACHE_HOME = path.join(stateHome, 'cache');
  return { ...env, ...TEST_PROCESS_ENV, ...(extra ?? {}) };
}

function emptyConfigFile(userDataDir: string): string {
  fs.mkdirSync(userDataDir, { recursive: true });
  const file = path.join(userDataDir, 'code-server-config.yaml');
  // Flags win over the config file anyway; an explicit empty file avoids reading ~/.config.
  fs.writeFileSync(file, 'auth: none\ncert: false\n');
  return file;
}

/**
 * Installs a VSIX into `extensionsDir` with code-server's own CLI (`--install-extension`), exactly as a user would.
 * Returns the CLI output. Throws if the CLI fails or reports no success.
 *
 * The CLI takes about 7 s, for each of some thirty VS Code sessions per run: a VSIX is installed once per content
 * (keyed by its SHA-256, beside the prepared code-server), and each session gets a copy of that installed folder and
 * its entry in `extensions.json`, pointed at its own folder: the files VS Code reads are the ones its CLI wrote.
 */
export async function installVsix(
  vsixPath: string,
  extensionsDir: string,
  userDataDir: string,
  options: { timeoutMs?: number } = {},
): Promise<string> {
  if (!fs.existsSync(vsixPath)) throw new Error(`e2e: installVsix: no such VSIX ${vsixPath}`);
  const pkg = await packageDir();
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.mkdirSync(userDataDir, { recursive: true });
  const digest = createHash('sha256').update(fs.readFileSync(vsixPath)).digest('hex').slice(0, 32);
  const installed = path.join(path.dirname(pkg), 'installed-vsix', digest);
  let output: string;
  if (fs.existsSync(path.join(installed, '.complete'))) {
    output = fs.readFileSync(path.join(installed, '.complete'), 'utf8');
  } else {
    // Installed into a folder of its own, then renamed into place: a concurrent run sees a whole install or none.
    const staging = `${installed}.${process.pid}.${Date.now()}`;
    output = await installWithCli(
      pkg,
      vsixPath,
      path.join(staging, 'extensions'),
      path.join(staging, 'user-data'),
      options.timeoutMs,
    );
    fs.writeFileSync(path.join(staging, '.complete'), output);
    fs.rmSync(path.join(staging, 'user-data'), { recursive: true, force: true });
    try {
      fs.renameSync(staging, installed);
    } catch {
      fs.rmSync(staging, { recursive: true, force: true }); // another run put the same install in place first
    }
    pruneInstalledVsix(path.dirname(installed), digest);
  }
  copyInstalled(path.join(installed, 'extensions'), extensionsDir);
  log(`installed ${path.basename(vsixPath)} into ${extensionsDir}`);
  return output.trim();
}

async function installWithCli(
  pkg: string,
  vsixPath: string,
  extensionsDir: string,
  userDataDir: string,
  timeoutMs?: number,
): Promise<string> {
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.mkdirSync(userDataDir, { recursive: true });
  const result = await runProcess(
    codeServerNode(pkg),
    [
      path.join(pkg, 'out', 'node', 'entry.js'),
      '--config',
      emptyConfigFile(userDataDir),
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      extensionsDir,
      '--install-extension',
      path.resolve(vsixPath),
    ],
    {
      env: codeServerEnv(undefined, userDataDir),
      timeoutMs: bound(timeoutMs ?? 120_000),
      what: `installing ${vsixPath}`,
    },
  );
  const output = `${result.stdout}\n${result.stderr}`;
  if (result.code !== 0 || !/successfully installed/i.test(output)) {
    throw new Error(`e2e: installing ${vsixPath} failed (exit ${result.code ?? result.signal}):\n${tail(output)}`);
  }
  return output;
}

interface InstalledExtensionEntry {
  identifier: { id: string };
  relativeLocation?: string;
  location: { fsPath?: string; path?: string; external?: string };
}

/** Copies an installed extension's folder into `extensionsDir` and adds its entry, with the paths of the copy. */
function copyInstalled(from: string, extensionsDir: string): void {
  const read = (dir: string): InstalledExtensionEntry[] => {
    const file = path.join(dir, 'extensions.json');
    return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as InstalledExtensionEntry[]) : [];
  };
  const added = read(from);
  const entries = read(extensionsDir).filter(
    (entry) => !added.some((other) => other.identifier.id === entry.identifier.id),
  );
  for (const entry of added) {
    const folder = entry.relativeLocation ?? path.basename(entry.location.fsPath ?? entry.location.path ?? '');
    const target = path.join(extensionsDir, folder);
    fs.rmSync(target, { recursive: true, force: true });
    fs.cpSync(path.join(from, folder), target, { recursive: true });
    entries.push({
      ...entry,
      relativeLocation: folder,
      location: { ...entry.location, fsPath: target, path: target, external: `file://${target}` },
    });
  }
  fs.writeFileSync(path.join(extensionsDir, 'extensions.json'), JSON.stringify(entries));
}

/** Keeps the installs of the newest few VSIX builds (each build is a new digest). */
function pruneInstalledVsix(root: string, keep: string): void {
  const entries = fs
    .readdirSync(root)
    .filter((name) => /^[0-9a-f]{32}$/.test(name) && name !== keep)
    .map((name) => ({ name, mtime: fs.statSync(path.join(root, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { name } of entries.slice(4)) fs.rmSync(path.join(root, name), { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------------
// code-server lifecycle
// ---------------------------------------------------------------------------------------------------

export interface StartCodeServerOptions {
  workspace: string;
  extensionsDir: string;
  userDataDir: string;
  /** When false, workspace trust stays enabled (the untrusted-workspace path). Default: true (trust disabled). */
  trustWorkspace?: boolean;
  /** Extra environment variables for code-server and hence the extension host. */
  env?: Record<string, string>;
  /** Extra code-server/VS Code arguments, e.g. ['--enable-proposed-api', 'pub.name']. */
  extraArgs?: string[];
  /** User settings merged over the harness defaults (written to <userDataDir>/User/settings.json). */
  settings?: Record<string, unknown>;
  /** Bound for the server to start serving. Default 60 s. */
  timeoutMs?: number;
}

export interface CodeServerHandle {
  url: string;
  port: number;
  /** pid of the code-server process; also its process group id (it is started as a group leader). */
  pid: number;
  /** File receiving code-server's stdout and stderr. */
  logFile: string;
  /** Last lines of code-server's output. */
  logTail(): string;
  /** Kills the whole process group (and any descendant that left it) and waits until all are gone. */
  stop(): Promise<void>;
}

const liveServers = new Set<ChildProcess>();
/** The user data folders of the running code-servers: where a failure's message reads the extension's logs. */
const liveUserDataDirs = new Set<string>();
process.on('exit', () => {
  // Last resort if a test crashed without stopping its server.
  for (const child of liveServers) killGroup(child.pid, 'SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of liveServers) killGroup(child.pid, 'SIGKILL');
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

let codeServerCount = 0;

/** The port in code-server's "HTTP server listening on http://127.0.0.1:<port>/" line, once it has printed it. */
function listeningPort(output: string): number | undefined {
  const match = /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
  return match ? Number(match[1]) : undefined;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address == null || typeof address === 'string') {
        server.close();
        reject(new Error('e2e: could not get a free port'));
        return;
      }
      const port = address.port;
      server.close(() => resolve(port));
    });
  });
}

function httpStatus(url: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

const DEFAULT_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.enabled': false,
  'window.dialogStyle': 'custom',
};

function writeUserSettings(userDataDir: string, settings: Record<string, unknown> | undefined): void {
  const dir = path.join(userDataDir, 'User');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'settings.json');
  let existing: Record<string, unknown> = {};
  if (fs.existsSync(file)) {
    try {
      const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) existing = parsed as Record<string, unknown>;
    } catch {
      throw new Error(`e2e: ${file} exists but is not plain JSON; refusing to overwrite it`);
    }
  }
  fs.writeFileSync(file, JSON.stringify({ ...DEFAULT_SETTINGS, ...existing, ...(settings ?? {}) }, null, 2));
}

/**
 * Copies the logs of the window's extension host (this extension's output channels, the extension host's own log)
 * beside code-server's log, into test-results/e2e/logs/<code-server log name>/: the test's temp folder is removed at
 * its end, and a failure seen once in CI is understood only from what the extension said then. Files over 4 MB are
 * left out (a verbose trace); what is kept is a few kilobytes a session.
 */
function keepWindowLogs(userDataDir: string, codeServerLog: string): void {
  try {
    const target = path.join(RESULTS_DIR, 'logs', path.basename(codeServerLog, '.log'));
    for (const file of windowLogFiles(userDataDir)) {
      if (fs.statSync(file).size > 4 * 1024 * 1024) continue;
      fs.mkdirSync(target, { recursive: true });
      fs.copyFileSync(file, path.join(target, path.basename(file)));
    }
  } catch (error) {
    log(`could not keep the window's logs of ${userDataDir}: ${errorMessage(error)}`);
  }
}

/** The log files of a window's extension host under its user data: this extension's output channels and its own log. */
export function windowLogFiles(userDataDir: string): string[] {
  const found: string[] = [];
  const visit = (dir: string): void => {
    for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (/^MCP Workbench.*\.log$|^(remote)?exthost\.log$/.test(entry.name)) found.push(full);
    }
  };
  visit(path.join(userDataDir, 'logs'));
  return found;
}

/**
 * Starts code-server on a free port of 127.0.0.1 with `--auth none --disable-telemetry
 * --disable-update-check` (and `--disable-workspace-trust` unless trustWorkspace === false), as its
 * own process group, and waits (bounded) until it serves HTTP.
 */
export async function startCodeServer(options: StartCodeServerOptions): Promise<CodeServerHandle> {
  const pkg = await packageDir();
  const timeoutMs = bound(options.timeoutMs);
  for (const dir of [options.workspace, options.extensionsDir, options.userDataDir])
    fs.mkdirSync(dir, { recursive: true });
  writeUserSettings(options.userDataDir, options.settings);
  fs.mkdirSync(RESULTS_DIR, { recursive: true });

  // Port 0: code-server binds a port of the kernel's choosing and prints it. A port picked beforehand could be taken
  // by a concurrent session's code-server in between, and this session would then drive the other's window.
  const args = [
    path.join(pkg, 'out', 'node', 'entry.js'),
    '--config',
    emptyConfigFile(options.userDataDir),
    '--auth',
    'none',
    '--bind-addr',
    '127.0.0.1:0',
    '--user-data-dir',
    options.userDataDir,
    '--extensions-dir',
    options.extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    ...(options.trustWorkspace === false ? [] : ['--disable-workspace-trust']),
    ...(options.extraArgs ?? []),
    options.workspace,
  ];
  const logFile = path.join(RESULTS_DIR, `code-server-${process.pid}-${++codeServerCount}.log`);
  const logStream = fs.createWriteStream(logFile);
  let output = '';
  let port: number | undefined;
  const child = spawn(codeServerNode(pkg), args, {
    cwd: options.workspace,
    env: codeServerEnv(options.env, options.userDataDir),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // own process group: stop() kills the group.
  });
  if (child.pid == null) throw new Error('e2e: code-server did not start (no pid)');
  const pid = child.pid;
  liveServers.add(child);
  liveUserDataDirs.add(options.userDataDir);
  const onData = (d: Buffer): void => {
    logStream.write(d);
    output = (output + d.toString()).slice(-20_000);
    port ??= listeningPort(output);
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exitPromise = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    });
  });
  const closedPromise = new Promise<void>((resolve) => child.on('close', () => resolve()));

  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    const members = new Set([...processesInGroup(pid), ...descendantsOf(pid)]);
    killGroup(pid, 'SIGTERM');
    for (const p of members) signalQuietly(p, 'SIGTERM');
    const deadline = Date.now() + 10_000;
    const remaining = (): number[] => [...new Set([...processesInGroup(pid), ...[...members].filter(pidExists)])];
    while (Date.now() < deadline && (exited == null || remaining().length > 0)) await sleep(100);
    if (exited == null || remaining().length > 0) {
      log(`code-server (pgid ${pid}) still alive after SIGTERM; sending SIGKILL`);
      killGroup(pid, 'SIGKILL');
      for (const p of remaining()) signalQuietly(p, 'SIGKILL');
      const killDeadline = Date.now() + 5_000;
      while (Date.now() < killDeadline && (exited == null || remaining().length > 0)) await sleep(100);
    }
    await withTimeout(closedPromise, 2_000, 'stdio not closed').catch(() => undefined);
    liveServers.delete(child);
    liveUserDataDirs.delete(options.userDataDir);
    logStream.end();
    keepWindowLogs(options.userDataDir, logFile);
    const left = remaining();
    if (exited == null || left.length > 0) {
      throw new Error(`e2e: could not stop code-server (pgid ${pid}); processes left: ${left.join(', ') || pid}`);
    }
  };

  const started = Date.now();
  const deadline = started + timeoutMs;
  let lastError = 'no attempt yet';
  let url = 'http://127.0.0.1 (port not printed yet)';
  for (;;) {
    if (exited) {
      await stop().catch(() => undefined);
      throw new Error(
        `e2e: code-server exited (code ${exited.code}, signal ${exited.signal}) before serving on ${url}.\n` +
          `Log: ${logFile}\n${tail(output)}`,
      );
    }
    if (port !== undefined) url = `http://127.0.0.1:${port}`;
    try {
      if (port === undefined) throw new Error('code-server has not printed the port it listens on');
      const status = await httpStatus(`${url}/healthz`, 2_000);
      if (status === 200) break;
      lastError = `HTTP ${status} from /healthz`;
    } catch (err) {
      lastError = errorMessage(err);
    }
    if (Date.now() > deadline) {
      await stop().catch(() => undefined);
      throw new Error(
        `e2e: timed out after ${timeoutMs} ms waiting for code-server to serve ${url}/healthz (last: ${lastError}).\n` +
          `Log: ${logFile}\n${tail(output)}`,
      );
    }
    await sleep(200);
  }
  void exitPromise;
  if (port === undefined) throw new Error('e2e: unreachable: code-server served without a port');
  log(`code-server serving ${url} (pid/pgid ${pid}) after ${Date.now() - started} ms; log ${logFile}`);
  return { url, port, pid, logFile, logTail: () => tail(output), stop };
}

// ---------------------------------------------------------------------------------------------------
// Browser
// ---------------------------------------------------------------------------------------------------

export interface Workbench {
  /** The (persistent) browser context; Playwright does not expose a Browser for a persistent context. */
  context: BrowserContext;
  page: Page;
  /** Console errors and page errors seen so far (useful in failure messages). */
  consoleErrors: string[];
  close(): Promise<void>;
}

/**
 * Launches Debian's Chromium (headless, fresh --user-data-dir) through playwright-core, opens
 * `url/?folder=<workspace>` and waits (bounded) for `.monaco-workbench`.
 */
export async function openWorkbench(
  url: string,
  workspace: string,
  options: { timeoutMs?: number; headless?: boolean; viewport?: { width: number; height: number } } = {},
): Promise<Workbench> {
  const timeoutMs = bound(options.timeoutMs);
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `e2e: no Chromium at ${CHROMIUM_PATH}; run scripts/prepare-code-server.sh (it installs Debian's chromium)`,
    );
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-e2e-chromium-'));
  // Playwright refuses --user-data-dir in args; launchPersistentContext passes it for us.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS],
    headless: options.headless ?? true,
    viewport: options.viewport ?? { width: 1400, height: 900 },
    timeout: timeoutMs,
  });
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await withTimeout(context.close(), 15_000, 'e2e: Chromium did not close within 15 s').finally(() =>
      fs.rmSync(profile, { recursive: true, force: true }),
    );
  };
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(timeoutMs);
    const consoleErrors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(msg.text());
    });
    page.on('pageerror', (err) => consoleErrors.push(`pageerror: ${err.message}`));
    const target = `${url.replace(/\/$/, '')}/?folder=${encodeURIComponent(workspace)}`;
    await page.goto(target, { timeout: timeoutMs, waitUntil: 'domcontentloaded' });
    await waitFor(page, `the workbench (.monaco-workbench) at ${target}`, () =>
      page.locator('.monaco-workbench').first().waitFor({ state: 'visible', timeout: timeoutMs }),
    );
    // The activity bar is there once the workbench has laid out its parts.
    await waitFor(page, 'the activity bar', () =>
      page.locator('.part.activitybar').first().waitFor({ state: 'visible', timeout: timeoutMs }),
    );
    return { context, page, consoleErrors, close };
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------------
// Failure reporting
// ---------------------------------------------------------------------------------------------------

let failureCounter = 0;

/**
 * Runs `action`; on failure takes a screenshot `failure-<n>-<what>.png` and throws an Error naming
 * what was being waited for and the screenshot path.
 */
export async function waitFor<T>(page: Page, what: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (err) {
    let shot: string | undefined;
    try {
      shot = await screenshot(page, `failure-${++failureCounter}-${slug(what)}`);
    } catch (shotErr) {
      shot = `(screenshot failed: ${errorMessage(shotErr).split('\n')[0]})`;
    }
    const cause = errorMessage(err).split('\n').slice(0, 3).join(' | ');
    const wrapped = new Error(
      `e2e: failed waiting for ${what}. Last screenshot: ${shot}. Cause: ${cause}. ${await windowContext(page)}`,
    );
    (wrapped as Error & { cause?: unknown }).cause = err;
    throw wrapped;
  }
}

/**
 * What a failure's message adds about the window: the notifications on screen and the last lines this extension
 * logged. CI shows a failing test's message, not its screenshot or the logs kept beside it, so a failure seen once
 * there is understood from this.
 */
async function windowContext(page: Page): Promise<string> {
  const toasts = await withTimeout(notificationTexts(page), 2_000, 'notifications unreadable').catch(
    (error: unknown) => [`(${errorMessage(error)})`],
  );
  const logs = [...liveUserDataDirs].flatMap((dir) =>
    windowLogFiles(dir)
      .filter((file) => path.basename(file).startsWith('MCP Workbench'))
      .map((file) => {
        const lines = fs
          .readFileSync(file, 'utf8')
          .trimEnd()
          .split('\n')
          .slice(-4)
          .map((line) => line.slice(0, 200));
        return `${path.basename(file, '.log')}: ${lines.join(' | ')}`;
      }),
  );
  return `Notifications: ${toasts.length ? toasts.map((text) => JSON.stringify(text.slice(0, 120))).join(', ') : 'none'}. Last log lines: ${logs.join(' || ') || 'none'}`;
}

/** Saves a PNG of the page to test-results/e2e/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name.replace(/\.png$/i, '')}.png`);
  await page.screenshot({ path: file, timeout: 15_000 });
  lastScreenshotPath = file;
  return file;
}

/** Where picture() writes: `npm run pictures` copies them into docs/images/ for the README (the Marketplace page). */
export const PICTURES_DIR = path.join(REPO_ROOT, 'test-results', 'pictures');

/**
 * A picture of the product for the README, taken where a test has it on screen: as screenshot(), but without the
 * notification toasts and hovers that happen to be up (hidden for the capture, shown again after), into
 * PICTURES_DIR/<name>.png. test/unit/project/readmePictures.test.ts checks that each picture the README shows is
 * taken by a test, so they stay current.
 */
export async function picture(page: Page, name: string): Promise<void> {
  fs.mkdirSync(PICTURES_DIR, { recursive: true });
  const hidden = '.notifications-toasts, .monaco-hover, .workbench-hover-container, .context-view';
  await page.evaluate((selector) => {
    for (const element of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      element.dataset.pictureVisibility = element.style.visibility;
      element.style.visibility = 'hidden';
    }
  }, hidden);
  try {
    await page.screenshot({ path: path.join(PICTURES_DIR, `${name}.png`), timeout: 15_000 });
  } finally {
    await page.evaluate((selector) => {
      for (const element of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
        element.style.visibility = element.dataset.pictureVisibility ?? '';
        delete element.dataset.pictureVisibility;
      }
    }, hidden);
  }
}

// ---------------------------------------------------------------------------------------------------
// Workbench helpers
// ---------------------------------------------------------------------------------------------------

const QUICK_INPUT = '.quick-input-widget';
const QUICK_INPUT_ROWS = '.quick-input-widget .quick-input-list .monaco-list-row';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Matches a text that is exactly `text`, give or take whitespace at either end. */
function wholeText(text: string): RegExp {
  return new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`);
}

/** Waits until the quick input widget is visible. */
export async function waitForQuickInput(page: Page, timeoutMs?: number): Promise<Locator> {
  const widget = page.locator(QUICK_INPUT).first();
  await waitFor(page, 'the quick input widget to be visible', () =>
    widget.waitFor({ state: 'visible', timeout: bound(timeoutMs) }),
  );
  return widget;
}

/** Waits for a quick-input row whose label equals `label` (string: exact after trimming; RegExp: test). */
async function findQuickInputRow(page: Page, label: string | RegExp, timeoutMs: number): Promise<Locator> {
  const matches = (text: string): boolean => (typeof label === 'string' ? text === label : label.test(text));
  const deadline = Date.now() + timeoutMs;
  let seen: string[] = [];
  const rows = page.locator(QUICK_INPUT_ROWS).filter({ visible: true });
  while (Date.now() < deadline) {
    // Every visible row's label in one pass in the page. Read row by row, a row the list removed between the count
    // and the read made the read wait for it for the page's whole default timeout: VS Code 1.139 redraws a pick whose
    // items a search replaces (Browse MCP Registry) just then, and the wait ran out on rows that were gone.
    seen = await rows.evaluateAll((elements) =>
      elements.map((element) =>
        ((element.querySelector('.label-name') ?? element).textContent ?? '').replace(/\s+/g, ' ').trim(),
      ),
    );
    // The row by its label, not by its place: rows added or sorted in meanwhile (commands registering, completions
    // arriving) move a place to another row.
    const text = seen.find(matches);
    if (text !== undefined)
      return rows
        .filter({ has: page.locator('.label-name', { hasText: wholeText(text) }) })
        .or(rows.filter({ hasText: wholeText(text) }))
        .first();
    await sleep(150);
  }
  throw new Error(
    `no row labelled ${String(label)} within ${timeoutMs} ms; rows seen: ${JSON.stringify(seen.slice(0, 15))}`,
  );
}

async function waitForQuickInputHidden(page: Page, what: string, timeoutMs: number): Promise<void> {
  await waitFor(page, what, () => page.locator(QUICK_INPUT).first().waitFor({ state: 'hidden', timeout: timeoutMs }));
}

/**
 * Runs a command the way a person does: F1, type the title, wait for the matching row, Enter
 * (or a click when the matching row is not the focused one). `title` is the palette label,
 * i.e. "Category: Title" when the command has a category.
 */
export async function runCommand(page: Page, title: string, options: { timeoutMs?: number } = {}): Promise<void> {
  const timeoutMs = bound(options.timeoutMs);
  const deadline = Date.now() + timeoutMs;
  const input = page.locator(`${QUICK_INPUT} .quick-input-box input`).first();
  // The palette lists the commands known when it opens: right after start-up the extension host may
  // not have registered an extension's contributions yet, so close and reopen until the row shows.
  const row = await waitFor(page, `the command palette row "${title}"`, async () => {
    let lastError: unknown;
    for (let attempt = 1; Date.now() < deadline; attempt++) {
      if (await page.locator(QUICK_INPUT).first().isVisible()) {
        await page.keyboard.press('Escape');
        await page
          .locator(QUICK_INPUT)
          .first()
          .waitFor({ state: 'hidden', timeout: 5_000 })
          .catch(() => undefined);
      }
      await releaseWebviewFocus(page);
      await page.keyboard.press('F1');
      const remaining = Math.max(1_000, deadline - Date.now());
      await page.locator(QUICK_INPUT).first().waitFor({ state: 'visible', timeout: remaining });
      await input.waitFor({ state: 'visible', timeout: remaining });
      await input.focus();
      if ((await input.inputValue()) !== '>') await input.fill('>');
      await page.keyboard.type(title);
      try {
        return await findQuickInputRow(
          page,
          title,
          Math.min(attempt === 1 ? 3_000 : 5_000, Math.max(500, deadline - Date.now())),
        );
      } catch (err) {
        lastError = err;
      }
    }
    throw lastError ?? new Error(`timed out after ${timeoutMs} ms`);
  });
  await pickRow(page, row);
  await waitForQuickInputHidden(page, `the command palette to close after running "${title}"`, timeoutMs);
}

/**
 * Picks the row labelled `label` in the currently open quick pick (see pickRow).
 */
export async function quickPick(
  page: Page,
  label: string | RegExp,
  options: { timeoutMs?: number } = {},
): Promise<void> {
  const timeoutMs = bound(options.timeoutMs);
  await waitForQuickInput(page, timeoutMs);
  const row = await waitFor(page, `the quick pick item ${String(label)}`, () =>
    findQuickInputRow(page, label, timeoutMs),
  );
  await pickRow(page, row);
}

/**
 * Enter when the row is the focused one, as a person at the keyboard does, else a click. A click first moves the
 * pointer off the list: a row's hover, opened under a pointer left there by the previous pick, covers the row and
 * takes the click (CI saw that for 60 s).
 */
async function pickRow(page: Page, row: Locator): Promise<void> {
  const focused = (await row.getAttribute('class'))?.split(/\s+/).includes('focused') ?? false;
  if (focused) {
    await pressEnterInQuickInput(page);
    return;
  }
  await clickUncovered(page, row);
}

/**
 * Enter in the quick input's text box, focused first. The keys go where the page's focus is: a webview the test typed
 * in before (the Call Tool form) can hold it while the pick is drawn, and a bare Enter then never reaches the pick (CI
 * saw a pick still open 30 s later, and a multi-select pick's Enter go to the form).
 */
async function pressEnterInQuickInput(page: Page): Promise<void> {
  await page.locator(`${QUICK_INPUT} .quick-input-box input`).first().focus();
  await page.keyboard.press('Enter');
}

/** Accepts the open quick pick as it stands (a multi-select pick's checked rows) and waits until it has closed. */
export async function acceptQuickPick(page: Page, what: string, options: { timeoutMs?: number } = {}): Promise<void> {
  const timeoutMs = bound(options.timeoutMs);
  await waitForQuickInput(page, timeoutMs);
  await pressEnterInQuickInput(page);
  await waitForQuickInputHidden(page, `${what} to close after Enter`, timeoutMs);
}

/**
 * A workbench hover (the tooltip of a tree row, a quick pick row, a tab), drawn in the context view over whatever lies
 * under it. It opens under a pointer that rests on its target, and stays open while the pointer is over the hover.
 */
const HOVER = '.context-view .hover-contents';

/** Moves the pointer to the window's corner and waits (bounded) for a hover it had opened to close. */
async function movePointerAway(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  await page
    .locator(HOVER)
    .first()
    .waitFor({ state: 'hidden', timeout: 5_000 })
    .catch(() => undefined);
}

/**
 * Clicks `target` after moving the pointer off whatever it rested on and letting the hover that opened there close.
 * The pointer stays where the previous click left it: a row's hover opened meanwhile covers the rows beside it, a
 * click aimed at one of them lands on the hover, which then stays open under the pointer, and Playwright retries
 * "subtree intercepts pointer events" until its timeout. For every click in the side bar right after another one.
 */
export async function clickUncovered(
  page: Page,
  target: Locator,
  options: { button?: 'left' | 'right'; timeoutMs?: number } = {},
): Promise<void> {
  await movePointerAway(page);
  await target.click({
    ...(options.button ? { button: options.button } : {}),
    ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
  });
}

/**
 * Chooses `item` (a `.monaco-menu .action-item`) of an open context or account menu as a person at the keyboard does:
 * the pointer on it (a menu focuses the item under the pointer), then Enter. Not a click: VS Code's menu items start
 * listening for the mouse-up only 100 ms (a timer) after they are drawn, so that the right click that opened the menu
 * does not also choose from it, and a click that comes sooner is dropped with the menu left open (CI, under load:
 * Re-record's click in testExplorer.e2e.ts, twice). The keys are listened for from the start.
 * A leaf item closes the menu: this waits for that. A submenu's item opens its submenu instead (`opens: 'submenu'`).
 */
export async function chooseMenuItem(
  page: Page,
  item: Locator,
  what: string,
  options: { opens?: 'submenu' } = {},
): Promise<void> {
  await waitFor(page, `the menu item ${what}`, () => item.waitFor({ state: 'visible', timeout: 30_000 }));
  await item.hover();
  await waitFor(page, `the menu item ${what} to take the focus under the pointer`, () =>
    item.and(page.locator('.action-item.focused')).waitFor({ state: 'visible', timeout: 30_000 }),
  );
  await page.keyboard.press('Enter');
  if (options.opens !== 'submenu')
    await waitFor(page, `the menu to close after ${what}`, () => item.waitFor({ state: 'hidden', timeout: 30_000 }));
}

/** Types `text` into the open quick input (replacing its value) and, by default, presses Enter. */
export async function typeInQuickInput(
  page: Page,
  text: string,
  options: { submit?: boolean; timeoutMs?: number } = {},
): Promise<void> {
  const timeoutMs = bound(options.timeoutMs);
  await waitForQuickInput(page, timeoutMs);
  const input = page.locator(`${QUICK_INPUT} .quick-input-box input`).first();
  await waitFor(page, 'the quick input text box', async () => {
    await input.waitFor({ state: 'visible', timeout: timeoutMs });
    await input.fill('');
    await input.focus();
  });
  await page.keyboard.type(text);
  if (options.submit ?? true) await page.keyboard.press('Enter');
}

/** Waits for a notification whose message matches `text` (its toast, or its row in the center: see findNotification); returns the message text. */
export async function waitForNotification(
  page: Page,
  text: RegExp | string,
  options: { timeoutMs?: number } = {},
): Promise<string> {
  const pattern = typeof text === 'string' ? new RegExp(escapeRegExp(text)) : text;
  const item = await findNotification(page, pattern, options);
  const message = ((await item.locator('.notification-list-item-message').first().textContent()) ?? '').trim();
  await hideNotificationsCenter(page);
  return message;
}

/**
 * The notification whose message contains `text`, found as a person finds it: its toast when one is on screen,
 * otherwise its row in the Notifications center, which this opens (F1, "Notifications: Show Notifications") and
 * leaves open (hideNotificationsCenter closes it). A toast is no proof that a notification is there, nor its absence that it is not: VS Code shows three
 * toasts at most (fewer on a short window), hides an informational toast after a while, and shows none while the
 * center is open. The center lists every notification until it is closed or dismissed. CI once waited 30 s for the
 * OAuth sign-in's progress toast that never showed beside two other notices.
 */
export async function findNotification(
  page: Page,
  text: string | RegExp,
  options: { timeoutMs?: number } = {},
): Promise<Locator> {
  const timeoutMs = bound(options.timeoutMs);
  const toast = page.locator('.notifications-toasts .notification-list-item').filter({ hasText: text }).first();
  const center = page.locator('.notifications-center').first();
  const row = center.locator('.notification-list-item').filter({ hasText: text }).first();
  return waitFor(page, `the notification ${String(text)} (as a toast or in the Notifications center)`, () =>
    pollUntil(
      `the notification ${String(text)}`,
      async () => {
        if (await toast.isVisible()) return toast;
        if (!(await center.isVisible())) {
          await runCommand(page, 'Notifications: Show Notifications', { timeoutMs: Math.min(timeoutMs, 30_000) });
          return undefined;
        }
        return (await row.isVisible()) ? row : undefined;
      },
      timeoutMs,
      200,
    ),
  );
}

/**
 * Presses `button` (its whole label) on the notification whose message contains `text`, on its toast or in the
 * Notifications center (see findNotification), which it then closes. A row of the center shows its buttons once
 * expanded: it is expanded first, as a person does with its chevron.
 */
export async function pressNotificationButton(
  page: Page,
  text: string | RegExp,
  button: string,
  options: { timeoutMs?: number; leaveCenterOpen?: boolean } = {},
): Promise<void> {
  const timeoutMs = bound(options.timeoutMs);
  const deadline = Date.now() + timeoutMs;
  const what = `the "${button}" button of the notification ${String(text)}`;
  await waitFor(page, what, () =>
    pollUntil(
      what,
      async () => {
        const item = await findNotification(page, text, { timeoutMs: Math.max(1_000, deadline - Date.now()) });
        const target = item.locator('.monaco-button', { hasText: wholeText(button) }).first();
        if (!(await target.isVisible())) {
          const expand = item.locator('.codicon-notifications-expand').first();
          if (await expand.isVisible()) await expand.click({ timeout: 5_000 }).catch(() => undefined);
          return undefined;
        }
        // A toast can go while it is clicked (a newer one takes its place): then it is found again, in the center.
        return await target.click({ timeout: 5_000 }).then(
          () => true,
          () => undefined,
        );
      },
      timeoutMs,
      200,
    ),
  );
  // A button that opens a modal dialog (Show Server Card): the palette that hides the center cannot open over it, and
  // the modal may come before or after this line; such a caller leaves the center to its next notification step.
  if (!options.leaveCenterOpen) await hideNotificationsCenter(page);
}

/**
 * Waits until no notification's message contains `text`: none in the Notifications center, which lists every
 * notification (a missing toast proves nothing, see findNotification). Opens the center to look and closes it after.
 */
export async function waitForNotificationGone(
  page: Page,
  text: string | RegExp,
  options: { timeoutMs?: number } = {},
): Promise<void> {
  const timeoutMs = bound(options.timeoutMs);
  const center = page.locator('.notifications-center').first();
  const rows = center.locator('.notification-list-item').filter({ hasText: text });
  await waitFor(page, `the notification ${String(text)} to be gone from the Notifications center`, () =>
    pollUntil(
      `the notification ${String(text)} to be gone`,
      async () => {
        if (!(await center.isVisible())) {
          await runCommand(page, 'Notifications: Show Notifications', { timeoutMs: Math.min(timeoutMs, 30_000) });
          return undefined;
        }
        return (await rows.count()) === 0 ? true : undefined;
      },
      timeoutMs,
      200,
    ),
  );
  await hideNotificationsCenter(page);
}

/** Closes the Notifications center if it is open (findNotification leaves it open). */
export async function hideNotificationsCenter(page: Page): Promise<void> {
  if (await page.locator('.notifications-center').first().isVisible())
    await runCommand(page, 'Notifications: Hide Notifications');
}

/** Texts of every notification on screen, toasts and the center's rows (for diagnostics). */
export async function notificationTexts(page: Page): Promise<string[]> {
  const items = page.locator(':is(.notifications-toasts, .notifications-center) .notification-list-item-message');
  return (await items.allTextContents()).map((t) => t.trim());
}

/**
 * Opens the activity-bar view container titled `title` (clicks its icon unless it is already the
 * active one) and waits for the side bar to show it.
 */
export async function openViewContainer(
  page: Page,
  title: string,
  options: { timeoutMs?: number } = {},
): Promise<void> {
  const timeoutMs = bound(options.timeoutMs);
  const label = new RegExp(`^${escapeRegExp(title)}(\\s|\\(|$)`);
  const item = page.locator('.part.activitybar .action-item');
  const ariaOf = async (candidate: Locator): Promise<string> =>
    (await candidate.locator('.action-label').first().getAttribute('aria-label')) ?? '';
  const isChecked = async (candidate: Locator): Promise<boolean> =>
    ((await candidate.getAttribute('class').catch(() => null)) ?? '').split(/\s+/).includes('checked');
  // The item by its label, not by its place: an icon added above it (Testing, once an extension registers a test
  // controller) moves every place below by one, and a click at the old place opened Testing (CI, browse.e2e.ts).
  // Its label may change meanwhile (a badge's count is part of it), so the match is the same as `label`'s.
  const quoted = title.replace(/["\\]/g, '\\$&');
  const labelled = item
    .filter({
      has: page.locator(
        `.action-label:is([aria-label="${quoted}"], [aria-label^="${quoted} "], [aria-label^="${quoted}("])`,
      ),
    })
    .first();
  const target = await waitFor(page, `the activity bar item "${title}"`, async () => {
    const deadline = Date.now() + timeoutMs;
    let seen: string[] = [];
    while (Date.now() < deadline) {
      const n = await item.count();
      seen = [];
      for (let i = 0; i < n; i++) {
        const aria = await ariaOf(item.nth(i));
        seen.push(aria);
        if (label.test(aria)) return labelled;
      }
      await sleep(150);
    }
    throw new Error(`no activity bar item "${title}"; items seen: ${JSON.stringify(seen)}`);
  });
  // Which item was active before the click: if another one than it and the target becomes active, the click landed on
  // an icon that moved under the pointer between aiming and pressing; then the target is clicked again (at most twice).
  const activeAria = async (): Promise<string | undefined> => {
    for (let i = 0, n = await item.count(); i < n; i++) if (await isChecked(item.nth(i))) return ariaOf(item.nth(i));
    return undefined;
  };
  for (let attempt = 1; !(await isChecked(target)); attempt++) {
    const before = await activeAria();
    await target.click();
    const outcome = await waitUntil(
      `the activity bar item "${title}" (or another) to become active`,
      async () => {
        if (await isChecked(target)) return 'target';
        const now = await activeAria();
        return now !== undefined && now !== before ? 'other' : undefined;
      },
      timeoutMs,
    );
    if (outcome === 'other' && attempt >= 3)
      throw new Error(`e2e: clicking the activity bar item "${title}" opened "${await activeAria()}" three times`);
  }
  await waitFor(page, `the side bar to show "${title}"`, () =>
    page
      .locator('.part.sidebar .composite.title')
      .filter({ hasText: new RegExp(escapeRegExp(title), 'i') })
      .first()
      .waitFor({ state: 'visible', timeout: timeoutMs }),
  );
}

/**
 * Visible `.monaco-list-row` label texts of the view named `viewName` in the side bar (or of the
 * whole side bar when omitted). Waits (bounded) until at least `minRows` rows are there (default 1;
 * pass 0 to read without waiting).
 */
export async function treeRows(
  page: Page,
  viewName?: string,
  options: { minRows?: number; timeoutMs?: number } = {},
): Promise<string[]> {
  const timeoutMs = bound(options.timeoutMs);
  const minRows = options.minRows ?? 1;
  const scope = viewName
    ? page
        .locator('.part.sidebar .pane')
        .filter({ has: page.locator(`.pane-header[aria-label^="${viewName.replace(/"/g, '\\"')}"]`) })
        .first()
    : page.locator('.part.sidebar').first();
  const rows = scope.locator('.monaco-list-row').filter({ visible: true });
  const read = async (): Promise<string[]> => {
    const texts: string[] = [];
    const n = await rows.count();
    for (let i = 0; i < n; i++) {
      const row = rows.nth(i);
      const label = row.locator('.label-name').first();
      const text = (await label.count()) > 0 ? await label.textContent() : await row.textContent();
      texts.push((text ?? '').replace(/\s+/g, ' ').trim());
    }
    return texts;
  };
  if (minRows <= 0) return read();
  return waitFor(page, `${minRows} tree row(s) in ${viewName ? `view "${viewName}"` : 'the side bar'}`, async () => {
    const deadline = Date.now() + timeoutMs;
    let last: string[] = [];
    while (Date.now() < deadline) {
      last = await read();
      if (last.length >= minRows) return last;
      await sleep(200);
    }
    throw new Error(`only ${last.length} row(s) after ${timeoutMs} ms: ${JSON.stringify(last)}`);
  });
}

/**
 * The webview frame (VS Code nests each webview's content two iframes deep) whose document has an element
 * matching `selector`, polled until it appears. Webviews are where forms, result views and review panels live.
 */
export async function webviewFrame(
  page: Page,
  what: string,
  selector: string,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<Frame> {
  return waitFor(page, what, async () => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      for (const frame of page.frames()) {
        if (frame === page.mainFrame()) continue;
        const count = await frame
          .locator(selector)
          .count()
          .catch(() => 0);
        if (count > 0) return frame;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`no webview frame contains ${selector} after ${timeoutMs} ms`);
  });
}

/**
 * Closes the modal editor if one is up, as a person does (its Close button, else Escape), and waits until it is gone.
 * VS Code 1.139 opens some editors (settings.json: `workbench.editor.useModal`, default "some") over the whole
 * workbench instead of in a tab, and the side bar under it takes no click until it is closed; 1.100 has none.
 */
export async function closeModalEditor(page: Page, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
  const modal = page.locator('.modal-editor-part').filter({ visible: true }).first();
  if ((await modal.count()) === 0) return;
  await waitFor(page, 'the modal editor to close', async () => {
    const close = modal.locator('.action-label[aria-label^="Close"]').first();
    if ((await close.count()) > 0) await close.click();
    else await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'hidden', timeout: timeoutMs });
  });
}

/** Waits for VS Code's modal dialog, clicks the button labelled `button`, and returns the dialog's text. */
export async function answerDialog(page: Page, button: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<string> {
  return waitFor(page, `the dialog with "${button}"`, async () => {
    const dialog = page.locator('.monaco-dialog-box').first();
    await dialog.waitFor({ state: 'visible', timeout: timeoutMs });
    const text = (await dialog.textContent()) ?? '';
    await dialog.locator('.monaco-button', { hasText: button }).first().click();
    await dialog.waitFor({ state: 'hidden', timeout: timeoutMs });
    return text;
  });
}

// ---- shared by the product's e2e tests ---------------------------------------------------------------------

/**
 * The text of a JSON-with-comments file (mcp.json) once it is whole, or undefined while it is missing or being written.
 * VS Code writes a file by truncating it, then writing it: read in between, it is empty or cut short, and a cut-short
 * text can already hold the name a test waits for without what follows it. Cut short, it does not parse.
 */
export function wholeJsoncText(file: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const errors: ParseError[] = [];
  parseJsonc(text, errors, { allowTrailingComma: true });
  return text.trim() !== '' && errors.length === 0 ? text : undefined;
}

export const EVERYTHING_SERVER_JS = path.join(
  REPO_ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);
/** The VSIX scripts/test-vscode.sh packaged once for all tests, or the one `npm run package` writes. */
export const PRODUCT_VSIX = process.env.MCP_E2E_VSIX ?? path.join(REPO_ROOT, 'dist', 'mcp-workbench-0.1.0.vsix');
const SERVERS_VIEW = 'Servers';

/** Polls `probe` (every 200 ms: it often reads all of /proc) until it returns a value; rejects after `timeoutMs`. */
export function waitUntil<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  return pollUntil(what, probe, timeoutMs, 200);
}

/**
 * Like the harness's runCommand, for commands that open their own quick pick or input box: runCommand waits
 * for the quick input to close, which never happens when the command reuses it. This waits instead until the
 * palette's row for the command is gone (the command's own picker, or nothing, is showing).
 */
/**
 * A webview that holds the focus (a form after Ctrl+Enter) gets it back when the palette closes, and it gets it
 * asynchronously (a message to its frame): it can arrive after the command opened its own picker, which then
 * closes on the focus loss and the command acts on nothing. Seen once in CI as "Stop Server" whose picker never
 * showed. Blurring the frame first leaves the workbench nothing to hand the focus back to.
 */
async function releaseWebviewFocus(page: Page): Promise<void> {
  await page
    .evaluate(() => {
      const active = document.activeElement;
      if (active instanceof HTMLElement && active.tagName === 'IFRAME') active.blur();
    })
    .catch(() => undefined);
}

export async function runPickerCommand(page: Page, title: string): Promise<void> {
  await waitFor(page, `the command palette to run "${title}"`, async () => {
    if (await page.locator(QUICK_INPUT).first().isVisible()) await page.keyboard.press('Escape');
    await releaseWebviewFocus(page);
    await page
      .locator('.monaco-workbench')
      .first()
      .focus()
      .catch(() => undefined);
    const input = page.locator(`${QUICK_INPUT} .quick-input-box input`).first();
    // The palette closes when something takes focus as it opens (a dialog just answered hands focus back to the
    // row it came from; CI saw the box shown, then gone before it could be typed in, once): open it again.
    for (let attempt = 1; ; attempt++) {
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: 30_000 });
      try {
        await input.fill(`>${title}`, { timeout: 5_000 });
        break;
      } catch (error) {
        if (attempt >= 3 || (await input.isVisible())) throw error;
      }
    }
    const row = page
      .locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`)
      .filter({ has: page.locator('.label-name', { hasText: title }) })
      .first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    // Enter on the focused row, else a click clear of the hover a previous pick's pointer opened over the list.
    await pickRow(page, row);
    await waitUntil(
      `the palette row "${title}" to go away`,
      async () => ((await row.isVisible()) ? undefined : true),
      30_000,
    );
  });
}

/**
 * Labels of the visible rows of the Servers view, read in one browser-side pass. The harness's treeRows reads
 * row by row, which can wait on a row that a refresh just removed (the tree re-renders on every state change).
 */
/** The whole text of a Servers view row (label and description, e.g. "everything stopped"), or '' when absent. */
export async function serverRowText(page: Page, label: string): Promise<string> {
  return page.evaluate(
    ({ viewName, label }) => {
      const panes = Array.from(document.querySelectorAll('.part.sidebar .pane'));
      const pane = panes.find((candidate) => candidate.querySelector(`.pane-header[aria-label^="${viewName}"]`));
      const rows = pane ? Array.from(pane.querySelectorAll<HTMLElement>('.monaco-list-row')) : [];
      const row = rows.find(
        (candidate) => (candidate.querySelector('.label-name')?.textContent ?? '').trim() === label,
      );
      return row?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
    },
    { viewName: SERVERS_VIEW, label },
  );
}

export async function readServerRows(page: Page): Promise<string[]> {
  return page.evaluate((viewName) => {
    const panes = Array.from(document.querySelectorAll('.part.sidebar .pane'));
    const pane = panes.find((candidate) => candidate.querySelector(`.pane-header[aria-label^="${viewName}"]`));
    if (!pane) return [];
    return Array.from(pane.querySelectorAll<HTMLElement>('.monaco-list-row'))
      .filter((row) => row.offsetParent !== null)
      .map((row) => (row.querySelector('.label-name') ?? row).textContent?.replace(/\s+/g, ' ').trim() ?? '');
  }, SERVERS_VIEW);
}

/** Rows of the Servers view, waiting (bounded) until `predicate` accepts them. */
export async function waitForRows(
  page: Page,
  what: string,
  predicate: (rows: string[]) => boolean,
  timeoutMs = 60_000,
): Promise<string[]> {
  let last: string[] = [];
  return waitFor(page, what, () =>
    waitUntil(
      `${what} (rows: ${JSON.stringify(last)})`,
      async () => {
        last = await readServerRows(page);
        return predicate(last) ? last : undefined;
      },
      timeoutMs,
    ),
  );
}

// ---- the side bar's panes (Servers, History) ---------------------------------------------------------------

/** The side bar pane (Servers or History) whose header says `title`. */
export function pane(page: Page, title: string): Locator {
  return page
    .locator('.part.sidebar .pane')
    .filter({ has: page.locator('.pane-header', { hasText: new RegExp(`^\\s*${title}`, 'i') }) })
    .first();
}

/** The rows of a pane whose label is exactly `label`. */
export function paneRows(container: Locator, label: string): Locator {
  const exact = new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  return container
    .locator('.monaco-list-row')
    .filter({ has: container.page().locator('.label-name', { hasText: exact }) });
}

/** Waits for the first row of a pane labelled exactly `label` to be visible, and returns it. */
export async function visibleRow(page: Page, container: Locator, label: string, timeoutMs = 60_000): Promise<Locator> {
  const target = paneRows(container, label).first();
  await waitFor(page, `the row "${label}"`, () => target.waitFor({ state: 'visible', timeout: timeoutMs }));
  return target;
}

/** Hovers a row and clicks its inline action whose label starts with `action`. */
export async function inlineAction(page: Page, target: Locator, action: string): Promise<void> {
  await waitFor(page, `the inline action "${action}"`, async () => {
    const button = target.locator(`.actions .action-label[aria-label^="${action}"]`).first();
    // A row's actions show while the pointer is over that row's element. A refresh of the tree (a server's restart,
    // a new tool list, the lint badges that follow it) can render the row anew under a resting pointer, which the
    // new element never sees: hover again until the action shows.
    // The same can happen between the action showing and the click (soak: the Events group redrawn as an ended
    // subscription's row went, and the click waited 60 s for an action no pointer was over): the click is bounded
    // too, and a miss hovers again. Playwright reports a click that happened as done, so none is sent twice.
    const deadline = Date.now() + 30_000;
    for (;;) {
      // The hover of the row clicked before (the pointer still rests there) can cover this one.
      await movePointerAway(page);
      await target.hover();
      try {
        await button.waitFor({ state: 'visible', timeout: 3_000 });
        await button.click({ timeout: 3_000 });
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
      }
    }
  });
}
