/**
 * One real VS Code for a test: temp folders (workspace, extensions, user data), the extensions installed with
 * code-server's own CLI, the workspace's .vscode/mcp.json, code-server started with the given user settings and
 * workspace-trust state, Chromium on the workbench, and a teardown that ends all of it and fails the test when a
 * process started from the workspace (an MCP server) outlives it.
 *
 *   const vscode = await VsCodeFixture.prepare({ name: 'browse', mcpJson: { servers: { everything: everythingStdio() } } });
 *   try {
 *     const page = await vscode.start({ settings: { 'workbench.colorTheme': 'Default Dark Modern' } });
 *     ...
 *   } finally {
 *     await vscode.dispose();
 *   }
 *
 * The environment of the code-server processes is harness.ts's TEST_PROCESS_ENV plus `env` below.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { processesMatching, signalQuietly } from '../support/processes';
import {
  EVERYTHING_SERVER_JS,
  REPO_ROOT,
  installVsix,
  openWorkbench,
  prepareCodeServer,
  startCodeServer,
  waitUntil,
  type CodeServerHandle,
  type Workbench,
} from './harness';

const execFileAsync = promisify(execFile);

/** How long the servers of a closed window may take to exit before they count as left running. */
const LEFTOVER_GRACE_MS = 15_000;

/** What the workspace's .vscode/mcp.json holds. */
export type McpJson =
  /** A servers map, written as JSON; `comment` (one line) goes inside the object, as people write mcp.json. */
  | { kind: 'servers'; servers: Record<string, unknown>; comment?: string }
  /** The file's text exactly (JSONC). */
  | { kind: 'text'; text: string };

/** Workspace trust as the window shows it: trusted (the trust feature off), or untrusted (restricted mode). */
export type WorkspaceTrust = 'trusted' | 'untrusted';

export interface PrepareOptions {
  /** Names the temp folder (mcp-e2e-<name>-XXXX) and the test in messages. */
  name: string;
  /** VSIX files to install; default: the product's (see productVsix). */
  extensions?: readonly string[];
  /** The workspace's .vscode/mcp.json; none when omitted. */
  mcpJson?: McpJson;
  /** Further workspace files: relative path -> content. */
  files?: Record<string, string>;
  /** Keep the temp folder after dispose (logs, user data) for a look at a failure; MCP_E2E_KEEP=1 keeps every one. */
  keep?: boolean;
}

export interface StartOptions {
  /** User settings, merged over the harness defaults. */
  settings?: Record<string, unknown>;
  /** Default: trusted. */
  trust?: WorkspaceTrust;
  /** Extra environment for code-server and its extension host. */
  env?: Record<string, string>;
  /**
   * VS Code's display language (`--locale`), e.g. 'zh-cn'. Without a language pack registered for it (see
   * languagePack.ts) code-server falls back to English. Default: code-server's own (English).
   */
  locale?: string;
}

/** server-everything over stdio; the trailing ${workspaceFolder} is ignored by it and marks its process as this workspace's. */
export function everythingStdio(): { type: 'stdio'; command: string; args: string[] } {
  return { type: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER_JS, 'stdio', '${workspaceFolder}'] };
}

export function mcpJsonText(config: McpJson): string {
  switch (config.kind) {
    case 'text':
      return config.text;
    case 'servers': {
      const body = JSON.stringify({ servers: config.servers }, null, 2);
      return config.comment === undefined ? `${body}\n` : `{\n  // ${config.comment}\n${body.slice(2)}\n`;
    }
    default: {
      const unknown: never = config;
      throw new Error(`e2e: unknown mcp.json kind ${JSON.stringify(unknown)}`);
    }
  }
}

let packaged: Promise<string> | undefined;

/**
 * The product VSIX: MCP_E2E_VSIX (or MCP_INTEGRATION_VSIX; scripts/test-vscode.sh packages it once and sets both),
 * else `npm run package` once per test process. Throws when the file is not there afterwards.
 */
export function productVsix(): Promise<string> {
  packaged ??= (async () => {
    const fromEnv = process.env.MCP_E2E_VSIX ?? process.env.MCP_INTEGRATION_VSIX;
    if (fromEnv) {
      if (!fs.existsSync(fromEnv)) throw new Error(`e2e: the VSIX ${fromEnv} (from the environment) does not exist`);
      return path.resolve(fromEnv);
    }
    await execFileAsync('npm', ['run', 'package'], {
      cwd: REPO_ROOT,
      timeout: 180_000,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, CI: 'true' },
    });
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
    };
    const vsix = path.join(REPO_ROOT, 'dist', `${manifest.name}-${manifest.version}.vsix`);
    if (!fs.existsSync(vsix)) throw new Error(`e2e: npm run package did not write ${vsix}`);
    return vsix;
  })();
  return packaged;
}

type Phase =
  { kind: 'prepared' } | { kind: 'running'; server: CodeServerHandle; workbench: Workbench } | { kind: 'disposed' };

export class VsCodeFixture {
  private phase: Phase = { kind: 'prepared' };
  private readonly cleanups: (() => unknown)[] = [];

  readonly workspace: string;
  readonly extensionsDir: string;
  readonly userDataDir: string;
  readonly mcpJsonPath: string;

  /**
   * The newest log file of this extension's output channel `channel` (for example "MCP Workbench oauth-protected"),
   * or undefined when there is none yet: attached to a failure, it says what the extension did.
   */
  extensionLog(channel: string): string | undefined {
    const logsRoot = path.join(this.userDataDir, 'logs');
    const found: string[] = [];
    const visit = (dir: string): void => {
      for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) visit(full);
        else if (entry.name === `${channel}.log`) found.push(full);
      }
    };
    visit(logsRoot);
    const newest = found.sort((a, b) => fs.statSync(a).mtimeMs - fs.statSync(b).mtimeMs).pop();
    return newest === undefined ? undefined : fs.readFileSync(newest, 'utf8');
  }

  private constructor(
    readonly name: string,
    /** Everything of this fixture lives below it; a process whose command line names it is this test's. */
    readonly tmp: string,
    private readonly keep: boolean,
  ) {
    this.workspace = path.join(tmp, 'workspace');
    this.extensionsDir = path.join(tmp, 'extensions');
    this.userDataDir = path.join(tmp, 'user-data');
    this.mcpJsonPath = path.join(this.workspace, '.vscode', 'mcp.json');
  }

  /** Temp folders, the workspace files, code-server prepared and the extensions installed; VS Code is not started yet. */
  static async prepare(options: PrepareOptions): Promise<VsCodeFixture> {
    await prepareCodeServer();
    const extensions = options.extensions ?? [await productVsix()];
    const fixture = new VsCodeFixture(
      options.name,
      fs.mkdtempSync(path.join(os.tmpdir(), `mcp-e2e-${options.name}-`)),
      options.keep ?? process.env.MCP_E2E_KEEP === '1',
    );
    try {
      fs.mkdirSync(fixture.workspace, { recursive: true });
      if (options.mcpJson) fixture.writeMcpJson(options.mcpJson);
      for (const [relative, content] of Object.entries(options.files ?? {})) {
        const file = path.join(fixture.workspace, relative);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, content);
      }
      for (const vsix of extensions) await installVsix(vsix, fixture.extensionsDir, fixture.userDataDir);
      return fixture;
    } catch (error) {
      await fixture.dispose().catch(() => undefined);
      throw error;
    }
  }

  /** prepare() and start() in one. */
  static async open(options: PrepareOptions & StartOptions): Promise<VsCodeFixture> {
    const fixture = await VsCodeFixture.prepare(options);
    try {
      await fixture.start(options);
      return fixture;
    } catch (error) {
      await fixture.dispose().catch(() => undefined);
      throw error;
    }
  }

  writeMcpJson(config: McpJson): void {
    fs.mkdirSync(path.dirname(this.mcpJsonPath), { recursive: true });
    fs.writeFileSync(this.mcpJsonPath, mcpJsonText(config));
  }

  /** Starts code-server on the workspace and opens the workbench in Chromium; returns its page. */
  async start(options: StartOptions = {}): Promise<Page> {
    if (this.phase.kind !== 'prepared')
      throw new Error(`e2e ${this.name}: start() when the fixture is ${this.phase.kind}`);
    const server = await startCodeServer({
      workspace: this.workspace,
      extensionsDir: this.extensionsDir,
      userDataDir: this.userDataDir,
      trustWorkspace: (options.trust ?? 'trusted') === 'trusted',
      ...(options.settings ? { settings: options.settings } : {}),
      ...(options.env ? { env: options.env } : {}),
      ...(options.locale ? { extraArgs: ['--locale', options.locale] } : {}),
    });
    try {
      const workbench = await openWorkbench(server.url, this.workspace);
      this.phase = { kind: 'running', server, workbench };
      return workbench.page;
    } catch (error) {
      await server.stop().catch(() => undefined);
      throw error;
    }
  }

  private running(): Extract<Phase, { kind: 'running' }> {
    if (this.phase.kind !== 'running')
      throw new Error(`e2e ${this.name}: VS Code is not running (the fixture is ${this.phase.kind})`);
    return this.phase;
  }

  get server(): CodeServerHandle {
    return this.running().server;
  }

  get workbench(): Workbench {
    return this.running().workbench;
  }

  get page(): Page {
    return this.running().workbench.page;
  }

  /** Runs at dispose, after VS Code is gone and before the leftover check (last registered runs first). */
  onDispose(cleanup: () => unknown): void {
    this.cleanups.push(cleanup);
  }

  /**
   * Closes Chromium, stops code-server (its whole process group), runs the onDispose cleanups, then waits a bounded
   * time for every process whose command line names this fixture's folder to exit. Those still running are killed,
   * the folder is removed, and dispose throws naming them (or the first teardown step that failed).
   */
  async dispose(): Promise<void> {
    const phase = this.phase;
    if (phase.kind === 'disposed') return;
    this.phase = { kind: 'disposed' };
    const failures: string[] = [];
    const step = async (what: string, action: () => unknown): Promise<void> => {
      try {
        await action();
      } catch (error) {
        failures.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
    if (phase.kind === 'running') {
      await step('closing Chromium', () => phase.workbench.close());
      await step('stopping code-server', () => phase.server.stop());
    }
    for (const cleanup of [...this.cleanups].reverse()) await step('a cleanup', cleanup);
    const left = await waitUntil(
      `the processes of ${this.tmp} to end`,
      () => (processesMatching(this.tmp).length === 0 ? [] : undefined),
      LEFTOVER_GRACE_MS,
    ).catch(() => processesMatching(this.tmp));
    for (const pid of left) signalQuietly(pid, 'SIGKILL');
    if (this.keep) process.stderr.write(`[e2e] ${this.name}: kept ${this.tmp}\n`);
    else fs.rmSync(this.tmp, { recursive: true, force: true });
    if (left.length > 0)
      failures.push(`processes started from ${this.tmp} were still running (killed now): ${left.join(', ')}`);
    if (failures.length > 0) throw new Error(`e2e ${this.name}: teardown: ${failures.join('; ')}`);
  }
}
