import * as vscode from 'vscode';
import type { CallOptions, CallToolOutcome, McpClient } from '../../../protocol/client';
import { errorDetail, errorMessage } from '../../../protocol/errors';
import type { LoggingLevel, LogMessage } from '../../../protocol/types';
import type { Transport } from '../../../protocol/transports/transport';
import type { StdioTransport } from '../../../protocol/node/stdio';
import { maskText } from '../../../workbench/secrets';
import { callToolWithTasks } from '../../../workbench/tasks/taskCalls';
import { logServerMessage } from './logChannels';
import { describeTarget, sameLaunchDefinition, serverIdentityKeyOf, type ServerEntry } from '../config/serverEntry';
import { ServerState, assertNever, type ServerStateKind } from './serverState';
import { SignInCancelledError } from '../auth/signIn';
import { notify, type NotificationSeverity } from '../ui/notifications';
import { CrashRestarts } from './crashRecovery';
import { LaunchDeclinedError, LaunchFailure, toolCountSummary } from './launchOutcome';
import type { Connection } from './serverLauncher';
import type { ServerControllerServices } from './controllerServices';
import { offeredTools, sameToolList } from './toolAllowList';
import { toolNotOffered } from './toolNotOffered';

export { LaunchDeclinedError };
export type { ServerControllerServices };

/** Thrown by start() when workspace trust forbids running the server; callers show it as guidance, not a failure. */
export class WorkspaceNotTrustedError extends Error {
  override readonly name = 'WorkspaceNotTrustedError';
}

/** How many of the server's own log messages are kept for tests and diagnostics. */
const SERVER_MESSAGE_TAIL = 100;

/**
 * Owns one configured server: its state machine, its connection and its log. Every start and stop begins a new
 * attempt with its own abort signal and aborts the one before; asynchronous work of an older attempt finds its
 * signal aborted and backs off, so a stop during a slow start (or a restart during a crash) can never resurrect a
 * stale connection. Launching is serverLauncher.ts's job, restarts after a crash crashRecovery.ts's.
 */
export class ServerController implements vscode.Disposable {
  private stateValue: ServerState = { kind: 'stopped' };
  private entryValue: ServerEntry;
  /** The current attempt's abort controller: aborted by the next start or stop. */
  private attempt = new AbortController();
  private launching: Promise<void> | undefined;
  private connection: Connection | undefined;
  private closing: Promise<void> | undefined;
  /** The transport of the connection `closing` shuts down: a second stop closes it again, which kills at once. */
  private closingTransport: Transport | undefined;
  private epochValue = 0;
  private readonly stateEmitter = new vscode.EventEmitter<ServerState>();
  private readonly restarts: CrashRestarts;
  private logLevelValue: LoggingLevel | undefined;
  private readonly serverMessagesValue: LogMessage[] = [];
  /**
   * Values of the current launch that came from the person's data (envFile, `${env:}`, `${input:}`, header values),
   * collected at resolution: logs, traces, errors and history mask them by value whatever they are called.
   */
  private launchSecrets: string[] = [];
  /** The next launch may ask the person to sign in (Sign In); every other start only reports that it is needed. */
  private interactiveSignIn = false;
  /** The URL the current HTTP launch authorizes for, so a sign-out of that server reaches this controller. */
  private authorizedUrl: string | undefined;

  /** Fires on every state change, including a new tool list while running. */
  readonly onDidChangeState = this.stateEmitter.event;

  constructor(
    entry: ServerEntry,
    private readonly services: ServerControllerServices,
  ) {
    this.entryValue = entry;
    // Before anyone tries, a workspace server of an untrusted workspace already says why it does not run.
    if (entry.origin.scope === 'workspace' && !services.isWorkspaceTrusted()) this.stateValue = notTrustedState();
    this.restarts = new CrashRestarts(
      this.log,
      // Failures are already in the state and the log; the next crash schedules the next attempt.
      () => void this.begin().catch(() => undefined),
      (giveUp) => services.reportGaveUp(this, giveUp),
      services.restartPolicy?.(),
    );
  }

  get id(): string {
    return this.entryValue.id;
  }

  get name(): string {
    return this.entryValue.name;
  }

  /** The identity consent is stored under (see serverIdentityKeyOf): never the bare display name. */
  get identityKey(): string {
    return serverIdentityKeyOf(this.entryValue);
  }

  get entry(): ServerEntry {
    return this.entryValue;
  }

  get state(): ServerState {
    return this.stateValue;
  }

  get log(): vscode.LogOutputChannel {
    return this.services.log;
  }

  /**
   * Changes each time the server settles in a different phase (running, stopped, error). The tree puts it in
   * item ids so a stopped server comes back collapsed and a freshly running one comes up expanded.
   */
  get epoch(): number {
    return this.epochValue;
  }

  /**
   * The connected client while the server runs, for browsing (resources, prompts, completions, subscriptions).
   * A new client comes with every start, so callers must not keep it across state changes.
   */
  get client(): McpClient | undefined {
    return this.stateValue.kind === 'running' ? this.connection?.client : undefined;
  }

  /** Process id of a running stdio server. */
  get pid(): number | undefined {
    return this.stdioTransport()?.pid;
  }

  /** The connection's stdio transport (its module loads with the first start, with the launcher). */
  private stdioTransport(): StdioTransport | undefined {
    return this.connection?.stdio;
  }

  /** The level chosen with "Set Log Level", re-applied after every start. */
  get logLevel(): LoggingLevel | undefined {
    return this.logLevelValue;
  }

  /** The server's recent `notifications/message` entries, oldest first. */
  get serverMessages(): readonly LogMessage[] {
    return this.serverMessagesValue;
  }

  /**
   * Starts the server unless it is running; concurrent callers share one attempt. Rejects when it fails. A start
   * from outside (the user, auto-start, a config change) resets crash recovery: the user has taken over.
   */
  start(): Promise<void> {
    this.restarts.reset();
    return this.begin();
  }

  private begin(): Promise<void> {
    const state = this.stateValue;
    switch (state.kind) {
      case 'running':
        return Promise.resolve();
      case 'starting':
        return this.launching ?? Promise.resolve();
      case 'stopped':
      case 'error':
      case 'signInRequired':
        break;
      default:
        assertNever(state, 'server state');
    }
    if (this.entryValue.origin.scope === 'workspace' && !this.services.isWorkspaceTrusted()) {
      this.log.warn('Not started: the workspace is not trusted');
      this.setState(notTrustedState());
      return Promise.reject(
        new WorkspaceNotTrustedError(
          vscode.l10n.t(
            'MCP server "{0}" was not started because this workspace is not trusted. Servers from .vscode/mcp.json run programs on this machine; trust the workspace to start them.',
            this.name,
          ),
        ),
      );
    }
    const signal = this.newAttempt();
    this.setState({ kind: 'starting' });
    const launching = this.launch(signal).finally(() => {
      if (this.launching === launching) this.launching = undefined;
    });
    this.launching = launching;
    return launching;
  }

  /** Stops the server (staged shutdown for stdio) and resolves once its process and connection are gone. */
  async stop(): Promise<void> {
    this.restarts.cancel();
    this.newAttempt();
    const active = this.connection !== undefined || ServerState.isActive(this.stateValue);
    if (active) this.log.info('Stopping');
    if (!this.connection && this.closing && this.closingTransport) {
      // A second stop during the staged shutdown: the transport's second close skips the remaining grace (SIGKILL).
      this.log.info('Stopping now: killing the server without waiting');
      void this.closingTransport
        .close()
        .catch((error: unknown) => this.log.warn(`Error while killing: ${errorMessage(error)}`));
    }
    await this.closeConnection();
    if (active) this.log.info('Stopped');
    if (this.stateValue.kind !== 'stopped') this.setState({ kind: 'stopped' });
  }

  /** The workspace became trusted: a server stopped only for lack of trust no longer says so. */
  workspaceTrustGranted(): void {
    const state = this.stateValue;
    if (state.kind === 'stopped' && state.cause === 'workspace-untrusted') this.setState({ kind: 'stopped' });
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /**
   * Starts the server allowing an OAuth sign-in: if it asks for one, the person confirms in a modal and completes
   * it in the browser. Rejects with SignInCancelledError when they decline or cancel (the state says sign-in is
   * still required). A running server is left alone.
   */
  async signIn(): Promise<void> {
    if (ServerState.isRunning(this.stateValue)) return;
    if (this.stateValue.kind === 'starting') await this.launching?.catch(() => undefined);
    if (ServerState.isActive(this.stateValue)) return;
    this.interactiveSignIn = true;
    try {
      await this.start();
    } finally {
      this.interactiveSignIn = false;
    }
  }

  /** The URL the last HTTP launch signed in to (resolved, variables substituted); undefined for stdio. */
  get authorizedServerUrl(): string | undefined {
    return this.authorizedUrl;
  }

  /** The tokens of `serverUrl` were forgotten (Sign Out): a connection using them is restarted without them. */
  async signedOut(serverUrl: string): Promise<void> {
    if (this.authorizedUrl !== serverUrl || !ServerState.isActive(this.stateValue)) return;
    this.log.info('Signed out: restarting without the tokens');
    await this.restart().catch(() => undefined);
  }

  /**
   * Calls a tool on the running server. `runAsTask` is the form's "Run as task" for a tool whose task support is
   * optional; without it the `mcpWorkbench.tasks.runOptionalAsTask` setting decides.
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions & { runAsTask?: boolean },
  ): Promise<CallToolOutcome> {
    const connection = this.connection;
    if (!connection || this.stateValue.kind !== 'running') {
      return Promise.reject(new Error(vscode.l10n.t('MCP server "{0}" is not running', this.name)));
    }
    const notOffered = toolNotOffered(name, this.entryValue);
    if (notOffered) return Promise.reject(notOffered);
    // A tool whose task support asks for a task runs as one (2025-11-25); its result comes back like any call's.
    const tool = this.stateValue.tools.find((candidate) => candidate.name === name);
    if (!tool) return connection.client.callTool(name, args, options);
    const runAsTask = options.runAsTask ?? runOptionalAsTask();
    return callToolWithTasks(connection.client, tool, args, { ...options, runAsTask });
  }

  /**
   * Takes a reloaded configuration entry. Returns true when the launch definition changed and the server was
   * restarted because it was active; the restart's own failure is left to the returned promise.
   */
  async updateEntry(entry: ServerEntry): Promise<boolean> {
    const changed = !sameLaunchDefinition(this.entryValue, entry);
    this.entryValue = entry;
    if (!changed) return false;
    this.log.info(`Configuration changed: ${describeTarget(entry.definition)}`);
    if (!ServerState.isActive(this.stateValue)) {
      // A stale error would describe the old definition, and a pending crash restart would run the old one.
      if (this.stateValue.kind === 'error') await this.stop();
      return false;
    }
    this.log.info('Restarting with the new configuration');
    await this.restart();
    return true;
  }

  /** Sends `logging/setLevel` now if the server runs and has the logging capability, and after every later start. */
  async setLogLevel(level: LoggingLevel): Promise<boolean> {
    this.logLevelValue = level;
    const client = this.client;
    if (!client?.session.capabilities.logging) return false;
    await client.setLoggingLevel(level);
    this.log.info(`Log level set to ${level}`);
    return true;
  }

  dispose(): void {
    void this.stop().finally(() => this.stateEmitter.dispose());
  }

  // ---- internals ------------------------------------------------------------------------------------------

  /** Aborts the current attempt (its late results are dropped) and begins the next; returns its signal. */
  private newAttempt(): AbortSignal {
    this.attempt.abort();
    this.attempt = new AbortController();
    return this.attempt.signal;
  }

  private async launch(signal: AbortSignal): Promise<void> {
    try {
      // The launcher, the client and its transports load with the first start, not with the extension (esbuild.js).
      const { launchServer } = await import('./serverLauncher.js');
      const result = await launchServer(
        {
          entry: this.entryValue,
          signal,
          interactiveSignIn: this.interactiveSignIn,
          logLevel: () => this.logLevelValue,
          log: this.log,
          knownSecrets: () => this.knownSecrets(),
          secretsResolved: (secrets) => (this.launchSecrets = secrets),
          waitingForConsent: () => {
            if (signal.aborted || this.stateValue.kind !== 'starting') return () => {};
            this.setState({ kind: 'starting', waitingFor: 'consent' });
            return () => {
              if (!signal.aborted && this.stateValue.kind === 'starting' && this.stateValue.waitingFor === 'consent')
                this.setState({ kind: 'starting' });
            };
          },
          authorizing: (url) => (this.authorizedUrl = url),
          connected: (connection) => (this.connection = connection),
          onServerMessage: (message) => this.onServerMessage(message),
          reloadTools: () => this.reloadTools(signal),
          onClosed: (error) => this.onConnectionLost(signal, error),
          onDiagnostic: (line) => this.logDiagnostic(line),
        },
        this.services,
        this.closing,
      );
      if (result.kind === 'superseded' || signal.aborted) return;
      this.restarts.started(Date.now());
      this.setState({
        kind: 'running',
        session: result.session,
        tools: offeredTools(result.tools, this.entryValue.allowedTools, this.log),
        pid: result.pid,
      });
    } catch (failure) {
      // Stopped or restarted meanwhile: the newer attempt owns the state, and this failure is just the stop.
      if (signal.aborted) return;
      this.newAttempt();
      const {
        cause: error,
        launched,
        signInNeeded,
      } = failure instanceof LaunchFailure ? failure : new LaunchFailure(failure, false, false);
      const stderrTail = this.recentStderr();
      await this.closeConnection();
      if (error instanceof LaunchDeclinedError) {
        this.log.warn('Not started: the command line was not allowed');
        // A start the workspace triggered is not asked (LaunchReviewNeededError carries "changed: review to start").
        const note =
          'note' in error && typeof error.note === 'string' ? error.note : vscode.l10n.t('not allowed to start');
        this.setState({ kind: 'stopped', note, cause: 'declined' });
        throw error;
      }
      if (signInNeeded || error instanceof SignInCancelledError || isCausedBy(error, SignInCancelledError)) {
        // Not a failure and not a crash: the server waits for the person to sign in.
        this.log.warn(
          signInNeeded ? 'Not started: the server requires signing in' : `Not signed in: ${errorMessage(error)}`,
        );
        this.setState({ kind: 'signInRequired' });
        throw error;
      }
      const message = this.mask(errorMessage(error));
      this.log.error(`Failed to start: ${message}`);
      // Only a server that has run since the last manual start is restarted (restartPolicy.recordStartFailure).
      const recovery = launched ? this.restarts.startFailed(Date.now()) : undefined;
      this.setState({ kind: 'error', message, detail: errorDetail(error), stderrTail, recovery });
      throw error;
    }
  }

  /** The server went away on its own while running: a crash, or the HTTP endpoint closed. */
  private onConnectionLost(signal: AbortSignal, error: Error | undefined): void {
    if (signal.aborted || this.stateValue.kind !== 'running') return;
    this.newAttempt();
    const message = this.mask(error ? errorMessage(error) : vscode.l10n.t('the server closed the connection'));
    const stderrTail = this.recentStderr();
    this.log.error(`Crashed: ${message}`);
    void this.closeConnection();
    this.setState({
      kind: 'error',
      message,
      detail: errorDetail(error),
      stderrTail,
      recovery: this.restarts.crashed(Date.now()),
    });
  }

  private onServerMessage(message: LogMessage): void {
    this.serverMessagesValue.push(message);
    if (this.serverMessagesValue.length > SERVER_MESSAGE_TAIL) this.serverMessagesValue.shift();
    logServerMessage(this.log, message, this.knownSecrets());
  }

  /** Every value this server's logs, traces, errors and history must not show. */
  knownSecrets(): string[] {
    return [...this.services.inputs.knownSecrets(), ...this.launchSecrets, ...this.services.auth.store.knownSecrets()];
  }

  /** Masks this server's secrets in text from or about it. */
  mask(text: string): string {
    return maskText(text, this.knownSecrets());
  }

  /**
   * A notification about this server, masked at the sink like its log: an error message can quote a header, an
   * env value, an input or a URL with a key in it. Resolves with the action pressed.
   */
  notify(severity: NotificationSeverity, message: string, ...actions: string[]): Thenable<string | undefined> {
    return notify(severity, this.mask(message), ...actions);
  }

  private async reloadTools(signal: AbortSignal): Promise<void> {
    const connection = this.connection;
    if (!connection || signal.aborted) return;
    try {
      const tools = await connection.client.listTools();
      const state = this.stateValue;
      if (signal.aborted || state.kind !== 'running') return;
      const offered = offeredTools(tools, this.entryValue.allowedTools, this.log);
      // The same list again (server-everything announces one as it starts): no redraw, which replaces the rows'
      // elements (a click on a row's action in between reached its command without the row).
      const same = sameToolList(offered, state.tools);
      this.log.info(
        `Tool list changed: ${same ? `the same ${tools.length} tools as before` : toolCountSummary(tools)}`,
      );
      if (!same) this.setState({ ...state, tools: offered });
    } catch (error) {
      this.log.warn(`Could not reload the tool list: ${errorMessage(error)}`);
    }
  }

  private closeConnection(): Promise<void> {
    const connection = this.connection;
    if (!connection) return this.closing ?? Promise.resolve();
    this.connection = undefined;
    const closing = connection.client
      .close()
      .catch((error: unknown) => this.log.warn(`Error while closing: ${errorMessage(error)}`))
      .finally(() => {
        for (const subscription of connection.subscriptions) subscription.dispose();
        if (this.closing === closing) {
          this.closing = undefined;
          this.closingTransport = undefined;
        }
      });
    this.closing = closing;
    this.closingTransport = connection.transport;
    return closing;
  }

  private recentStderr(): string[] {
    return this.stdioTransport()?.recentStderr.map((line) => this.mask(line)) ?? [];
  }

  private logDiagnostic(line: string): void {
    const masked = this.mask(line);
    if (masked.startsWith('stderr: ')) this.log.info(`[stderr] ${masked.slice('stderr: '.length)}`);
    else this.log.info(masked);
  }

  private setState(state: ServerState): void {
    const previous: ServerStateKind = this.stateValue.kind;
    if (state.kind !== 'starting' && state.kind !== previous) this.epochValue++;
    this.stateValue = state;
    this.stateEmitter.fire(state);
  }
}

/** A workspace server in a workspace that is not trusted: not started, and the row says why (not just "stopped"). */
function notTrustedState(): ServerState {
  return { kind: 'stopped', note: vscode.l10n.t('not started: workspace not trusted'), cause: 'workspace-untrusted' };
}

/** Whether an error, or one it was caused by, is of the given class (the client may wrap the authorizer's errors). */
function isCausedBy(error: unknown, type: new (message: string) => Error): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 10 && current instanceof Error; depth++) {
    if (current instanceof type) return true;
    current = (current as Error).cause;
  }
  return false;
}

/** The `mcpWorkbench.tasks.runOptionalAsTask` setting: run tools whose task support is optional as tasks by default. */
export function runOptionalAsTask(): boolean {
  return vscode.workspace.getConfiguration('mcpWorkbench').get<boolean>('tasks.runOptionalAsTask', false);
}
