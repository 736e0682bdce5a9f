import * as os from 'node:os';
import * as vscode from 'vscode';
import { errorMessage } from '../../../protocol/errors';
import { devWatchFolder, type DevOptions } from '../../../workbench/config/devMode';
import type { GlobMatcher } from '../../../workbench/config/globMatch';
import type { ResolvedServer } from '../../../workbench/node/launch';
import type { ServerEntry } from '../../platform/config/serverEntry';
import type { ServerController } from '../../platform/servers/serverController';
import type { ServerManager } from '../../platform/servers/serverManager';
import { inspectorNews, planDebugLaunch } from '../../platform/servers/debugLaunch';
import type { DebugLaunch, StderrSource } from '../../platform/servers/serverLauncher';
import { freeLoopbackPort } from '../../platform/servers/freePort';
import { RestartThrottle } from './restartThrottle';

const RESTART_DELAY_SETTING = 'dev.restartDelayMs';
/** Files counted for the log line that says how many match the watch globs (counting stops there). */
const MATCH_COUNT_LIMIT = 1000;
/** Files named in that line. */
const MATCHES_NAMED = 3;
const PYTHON_DEBUGGER_EXTENSIONS = ['ms-python.debugpy', 'ms-python.python'];

function restartDelayMs(): number {
  const value = vscode.workspace.getConfiguration('mcpWorkbench').get<number>(RESTART_DELAY_SETTING, 500);
  return Number.isFinite(value) && value >= 0 ? Math.min(value, 60_000) : 500;
}

/**
 * Dev mode for every server with `"dev"` in its definition: it starts by itself (in a trusted workspace), restarts
 * when a watched file changes (throttled; the log says which files), keeps its Protocol log from the start, and with
 * `debug` runs under a debugger (LaunchServices.debug). Servers without `"dev"` are not touched.
 */
export class DevMode implements vscode.Disposable {
  private readonly sessions = new Map<string, DevSession>();
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly manager: ServerManager,
    private readonly isWorkspaceTrusted: () => boolean,
    /** Keeps the server's protocol log while dev mode is on (the Protocol view's tap). */
    private readonly holdProtocolLog: (controller: ServerController) => vscode.Disposable,
  ) {
    this.subscription = manager.onDidChangeServers(() => void this.sync());
  }

  /**
   * Sets up dev mode for the servers that ask for it, and ends it for those that no longer do. Settles when the new
   * sessions' watchers are set up (the glob compiler loads first).
   */
  sync(): Promise<void> {
    const watching: Promise<void>[] = [];
    const wanted = new Map<string, ServerController>();
    for (const controller of this.manager.servers)
      if (controller.entry.definition.dev) wanted.set(controller.id, controller);
    for (const [id, session] of this.sessions) {
      const controller = wanted.get(id);
      if (!controller || session.controller !== controller || session.watchKey !== watchKeyOf(controller)) {
        session.dispose();
        this.sessions.delete(id);
      }
    }
    for (const [id, controller] of wanted) {
      if (this.sessions.has(id)) continue;
      const session = new DevSession(controller, controller.entry.definition.dev!, this.holdProtocolLog(controller));
      this.sessions.set(id, session);
      // In an untrusted workspace it waits: granting trust starts it (workspaceTrustGranted). A workspace server's
      // `dev` block is the workspace's too: its watchers and globs wait for trust as well; a user server's do not.
      if (this.isWorkspaceTrusted()) {
        watching.push(session.watch());
        startDevServer(controller);
      } else {
        if (controller.entry.origin.scope === 'user') watching.push(session.watch());
        session.waitingForTrust = true;
      }
    }
    return Promise.all(watching).then(() => undefined);
  }

  /** Trust was granted: the dev servers that could not start without it start now, as on opening a trusted workspace. */
  workspaceTrustGranted(): Promise<void> {
    if (!this.isWorkspaceTrusted()) return Promise.resolve();
    const watching: Promise<void>[] = [];
    for (const session of this.sessions.values()) {
      if (!session.waitingForTrust) continue;
      session.waitingForTrust = false;
      watching.push(session.watch());
      startDevServer(session.controller);
    }
    return Promise.all(watching).then(() => undefined);
  }

  /**
   * LaunchServices.debug: for a dev server with `debug`, the debugger's flags (planned now, before the consent, so the
   * consent shows the command line that runs) and its attach. Undefined: started as usual.
   */
  readonly debug = async (
    entry: ServerEntry,
    preview: ResolvedServer,
    log: vscode.LogOutputChannel,
  ): Promise<DebugLaunch | undefined> => {
    const debug = entry.definition.dev?.debug;
    if (!debug) return undefined;
    if (preview.kind !== 'stdio') {
      log.warn('Dev mode: "debug" applies to stdio servers only; this HTTP server is started as usual');
      return undefined;
    }
    if (debug.type === 'debugpy' && !PYTHON_DEBUGGER_EXTENSIONS.some((id) => vscode.extensions.getExtension(id))) {
      log.warn(
        'Dev mode: "debug" {"type": "debugpy"} needs the Python Debugger extension (ms-python.debugpy); the server is started without a debugger',
      );
      return undefined;
    }
    const plan = await planDebugLaunch(preview, debug, entry.name, freeLoopbackPort);
    if (plan.kind === 'not-possible') {
      log.warn(`Dev mode: ${plan.reason}; the server is started without a debugger`);
      return undefined;
    }
    const startDebugging = (port: number) => {
      log.info(`Dev mode: attaching the ${debug.type} debugger to 127.0.0.1:${port}`);
      Promise.resolve(vscode.debug.startDebugging(entry.origin.folder, plan.attachTo(port))).then(
        (started) => {
          if (!started) log.warn(`Dev mode: the ${debug.type} debugger did not attach to 127.0.0.1:${port}`);
        },
        (error: unknown) => log.warn(`Dev mode: the ${debug.type} debugger did not attach: ${errorMessage(error)}`),
      );
    };
    const listen = plan.listen;
    switch (listen.kind) {
      case 'chosen':
        log.info(`Dev mode: debugging with ${debug.type} on 127.0.0.1:${listen.port}`);
        return {
          plan,
          attach: () => {
            startDebugging(listen.port);
            return { dispose: () => undefined };
          },
        };
      case 'announced':
        log.info(
          `Dev mode: debugging with ${debug.type}; the debugger attaches to the loopback port the server's inspector announces`,
        );
        return { plan, attach: (server) => attachWhenAnnounced(server, startDebugging, log) };
      default: {
        const exhaustive: never = listen;
        throw new Error(`unknown debug listen ${JSON.stringify(exhaustive)}`);
      }
    }
  };

  dispose(): void {
    this.subscription.dispose();
    for (const session of this.sessions.values()) session.dispose();
    this.sessions.clear();
  }
}

/**
 * Waits for node's announcement of its inspector on the server's stderr and attaches there: the kernel picked the
 * port as node bound it, so the debugger cannot meet another process on it. A failed bind is logged, once.
 */
function attachWhenAnnounced(
  server: StderrSource,
  startDebugging: (port: number) => void,
  log: vscode.LogOutputChannel,
): { dispose(): void } {
  const subscription = server.onStderrLine((line) => {
    const news = inspectorNews(line);
    switch (news.kind) {
      case 'other':
        return;
      case 'listening':
        subscription.dispose();
        startDebugging(news.port);
        return;
      case 'failed':
        subscription.dispose();
        log.warn(`Dev mode: node could not open its inspector, so the server runs without a debugger: ${news.line}`);
        return;
      default: {
        const exhaustive: never = news;
        throw new Error(`unknown inspector news ${JSON.stringify(exhaustive)}`);
      }
    }
  });
  return subscription;
}

/** Dev mode's own start of a stopped server (a running or starting one is left alone). */
function startDevServer(controller: ServerController): void {
  if (controller.state.kind !== 'stopped') return;
  controller.log.info('Dev mode: starting');
  controller
    .start()
    .catch((error: unknown) =>
      controller.log.warn(`Dev mode: the start failed: ${controller.mask(errorMessage(error))}`),
    );
}

/**
 * Dev mode of one server: its watchers, its restart throttle and its held protocol log. The watchers are set up by
 * {@link DevSession.watch}, which DevMode calls only once the server's `dev` block may run (trusted, or a user server).
 */
class DevSession implements vscode.Disposable {
  /** Its start was skipped because the workspace was not trusted. */
  waitingForTrust = false;
  private watching: Promise<void> | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly throttle: RestartThrottle;

  constructor(
    readonly controller: ServerController,
    readonly dev: DevOptions,
    protocolLog: vscode.Disposable,
  ) {
    this.disposables.push(protocolLog);
    this.watchKey = watchKeyOf(controller);
    this.throttle = new RestartThrottle(restartDelayMs, (reason) => this.restart(reason));
  }

  /** What the watchers depend on: a change of the `dev` block or of the server's `cwd` sets them up again. */
  readonly watchKey: string;

  /**
   * Creates the file watchers and compiles the excludes (once). The glob compiler and its regex engine load here, in a
   * window with a dev server, not with every window's start.
   */
  watch(): Promise<void> {
    this.watching ??= import('../../../workbench/config/globMatch.js').then(
      (globs) => {
        if (!this.disposed) this.watchWith(globs);
      },
      (error: unknown) => this.controller.log.error(`Dev mode: could not watch files: ${errorMessage(error)}`),
    );
    return this.watching;
  }

  private watchWith({
    compileGlob,
    matchesAny,
    watcherGlob,
  }: typeof import('../../../workbench/config/globMatch')): void {
    const { controller, dev } = this;
    const { folder, said } = watchFolderOf(controller);
    // An exclude the glob compiler refuses (too long, not a valid class, …) is reported once here and ignored: the
    // other excludes and the includes still apply, so files it meant to exclude may restart the server. Matching it
    // as "everything" would silence the whole watch instead, and refusing the dev block would hide the rest of it.
    const excludes: GlobMatcher[] = [];
    for (const glob of dev.exclude) {
      const compiled = compileGlob(glob);
      if (compiled.kind === 'glob') excludes.push(compiled);
      else
        controller.log.warn(
          `Dev mode: the exclude "!${glob.length > 80 ? `${glob.slice(0, 80)}…` : glob}" is ignored: ${compiled.reason}`,
        );
    }
    const patterns: { pattern: vscode.RelativePattern; include: GlobMatcher }[] = [];
    for (const include of dev.watch) {
      // VS Code's watcher gets a coarser glob its backtracking engine matches quickly; what it reports is then
      // matched against the include itself on the linear engine (watcherGlob).
      const accepted = watcherGlob(include);
      if (accepted.kind === 'refused') {
        controller.log.warn(
          `Dev mode: the watch glob "${include.length > 80 ? `${include.slice(0, 80)}…` : include}" is ignored: ${accepted.reason}`,
        );
        continue;
      }
      const pattern = new vscode.RelativePattern(folder, accepted.glob);
      patterns.push({ pattern, include: accepted.matcher });
      const watcher = vscode.workspace.createFileSystemWatcher(pattern);
      const changed = (uri: vscode.Uri) => {
        const relative = relativePath(folder, uri);
        if (relative === undefined || !matchesAny(relative, [accepted.matcher]) || matchesAny(relative, excludes))
          return;
        this.throttle.change(relative);
      };
      this.disposables.push(
        watcher,
        watcher.onDidChange(changed),
        watcher.onDidCreate(changed),
        watcher.onDidDelete(changed),
      );
    }
    if (dev.watch.length === 0) return;
    const globs = `${dev.watch.join(', ')}${dev.exclude.length ? ` (except ${dev.exclude.join(', ')})` : ''}`;
    controller.log.info(`Dev mode: watching ${globs} in ${folderPath(folder)} (${said})`);
    void this.countMatches(patterns, folder, excludes, globs, matchesAny);
  }

  /**
   * Says how many files match the globs now (a few named), and warns when none does: a glob that matches nothing
   * restarts nothing, which looks like a watch that does not work (a server kept outside the folder the globs are
   * relative to, a typo).
   */
  private async countMatches(
    patterns: readonly { pattern: vscode.RelativePattern; include: GlobMatcher }[],
    folder: vscode.Uri,
    excludes: readonly GlobMatcher[],
    globs: string,
    matchesAny: (relativePath: string, globs: readonly GlobMatcher[]) => boolean,
  ): Promise<void> {
    const matched = new Map<string, string>();
    // findFiles stopped at the limit for a coarse glob, so files the include matches may be among those not listed.
    let cut = false;
    try {
      for (const { pattern, include } of patterns) {
        const found = await vscode.workspace.findFiles(pattern, undefined, MATCH_COUNT_LIMIT);
        if (found.length >= MATCH_COUNT_LIMIT) cut = true;
        for (const uri of found) {
          const relative = relativePath(folder, uri);
          if (relative !== undefined && matchesAny(relative, [include]) && !matchesAny(relative, excludes))
            matched.set(uri.toString(), relative);
        }
        if (matched.size >= MATCH_COUNT_LIMIT) break;
      }
    } catch (error) {
      if (!this.disposed)
        this.controller.log.warn(`Dev mode: could not count the files that match ${globs}: ${errorMessage(error)}`);
      return;
    }
    if (this.disposed) return;
    const where = folderPath(folder);
    if (matched.size === 0 && cut) {
      this.controller.log.info(
        `Dev mode: more than ${MATCH_COUNT_LIMIT} files in ${where} to look through, so the files matching ${globs} were not counted`,
      );
      return;
    }
    if (matched.size === 0) {
      this.controller.log.warn(
        `Dev mode: no file in ${where} matches ${globs}, so no change restarts the server yet. ` +
          'Watch globs are relative to the server\'s "cwd", or to the workspace folder when it has none.',
      );
      return;
    }
    const names = [...matched.values()].sort().slice(0, MATCHES_NAMED);
    const count =
      matched.size >= MATCH_COUNT_LIMIT
        ? `${MATCH_COUNT_LIMIT} or more files`
        : cut
          ? `${matched.size} or more files`
          : plural(matched.size);
    const more = matched.size > names.length ? ', …' : '';
    const verb = matched.size === 1 && !cut ? 'matches' : 'match';
    this.controller.log.info(`Dev mode: ${count} in ${where} ${verb} now (${names.join(', ')}${more})`);
  }

  private async restart(reason: string): Promise<void> {
    const { controller } = this;
    const state = controller.state.kind;
    // A server the person stopped stays stopped; a crashed one comes back with the fix.
    if (state === 'stopped') {
      controller.log.info(`Dev mode: ${reason}; not restarting a stopped server`);
      return;
    }
    controller.log.info(`Dev mode: restarting because ${reason}`);
    try {
      await controller.restart();
    } catch (error) {
      controller.log.warn(`Dev mode: the restart failed: ${controller.mask(errorMessage(error))}`);
    }
  }

  private disposed = false;

  dispose(): void {
    this.disposed = true;
    this.throttle.dispose();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}

function relativePath(folder: vscode.Uri, uri: vscode.Uri): string | undefined {
  const base = folder.path.endsWith('/') ? folder.path : `${folder.path}/`;
  return uri.path.startsWith(base) ? uri.path.slice(base.length) : undefined;
}

function watchKeyOf(controller: ServerController): string {
  const { definition } = controller.entry;
  return JSON.stringify({ dev: definition.dev, cwd: definition.kind === 'stdio' ? definition.cwd : undefined });
}

/**
 * The folder the watch globs are relative to: where the server runs (its `cwd`, else the workspace folder; see
 * devWatchFolder), with the words that say which it is. A `cwd` that needs a person's input falls back to the
 * workspace folder, and the log says so.
 */
function watchFolderOf(controller: ServerController): { folder: vscode.Uri; said: string } {
  const { entry } = controller;
  const workspace = entry.origin.folder.uri;
  const cwd = entry.definition.kind === 'stdio' ? entry.definition.cwd : undefined;
  const resolved = devWatchFolder(cwd, {
    workspaceFolder: workspace.scheme === 'file' ? workspace.fsPath : undefined,
    userHome: os.homedir(),
    env: process.env,
  });
  switch (resolved.kind) {
    case 'workspaceFolder':
      return { folder: workspace, said: 'the workspace folder' };
    case 'cwd':
      return {
        folder: resolved.relative
          ? vscode.Uri.joinPath(workspace, resolved.path)
          : workspace.scheme === 'file'
            ? vscode.Uri.file(resolved.path)
            : workspace.with({ path: resolved.path.replace(/\\/g, '/') }),
        said: `the server's cwd "${cwd}"`,
      };
    case 'unresolved':
      controller.log.warn(
        `Dev mode: the server's cwd "${resolved.cwd}" is not known before it starts (${resolved.reason}); watch globs are relative to the workspace folder instead`,
      );
      return { folder: workspace, said: 'the workspace folder' };
    default: {
      const exhaustive: never = resolved;
      throw new Error(`unknown watch folder ${JSON.stringify(exhaustive)}`);
    }
  }
}

function folderPath(folder: vscode.Uri): string {
  return folder.scheme === 'file' ? folder.fsPath : folder.toString();
}

function plural(count: number): string {
  return count === 1 ? '1 file' : `${count} files`;
}
