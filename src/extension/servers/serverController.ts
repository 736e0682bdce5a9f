import * as os from 'node:os';
import * as vscode from 'vscode';
import { McpClient, type CallOptions, type CallToolOutcome } from '../../protocol/client';
import { describeEra, eraChoiceReason } from '../../protocol/eras/select';
import { eraPreferenceOf } from '../../workbench/config/mcpConfig';
import { createTransport, previewServerDefinition, resolveServerWithSecrets, type ResolvedServer } from '../../workbench/node/launch';
import type { VariableContext } from '../../workbench/config/variables';
import { errorMessage } from '../../protocol/errors';
import type { ClientHost, ElicitationHandler, SamplingHandler } from '../../protocol/host';
import type { SamplingRequestContext } from '../../workbench/sampling/coordinator';
import { RestartPolicy, type RestartDecision } from '../../workbench/lifecycle/restartPolicy';
import type { LoggingLevel, LogMessage } from '../../protocol/types';
import type { Transport } from '../../protocol/transports/transport';
import { StdioTransport } from '../../protocol/node/stdio';
import { maskText } from '../../workbench/secrets';
import type { InputPrompter } from '../config/inputPrompter';
import { checkCommand } from './commandCheck';
import type { LaunchConfirmation } from './launchConfirmation';
import { protocolTrace } from './protocolTrace';
import { channelLogger, logServerMessage } from './logChannels';
import { describeTarget, sameLaunchDefinition, serverIdentityKeyOf, type ServerEntry } from '../config/serverEntry';
import { ServerState, assertNever, type CrashRecovery, type ServerStateKind } from './serverState';
import { SignInCancelledError, type SignInMode, type SignInService } from '../auth/signIn';

export interface ServerControllerServices {
  host: ClientHost;
  log: vscode.LogOutputChannel;
  inputs: InputPrompter;
  confirmation: LaunchConfirmation;
  isWorkspaceTrusted(): boolean;
  /** Builds the crash policy; tests may shorten its delays. */
  restartPolicy?: () => RestartPolicy;
  /** Builds the OAuth authorizer of HTTP servers (tokens in SecretStorage, consent before the browser opens). */
  auth: SignInService;
  /** Tells the user that automatic restarts stopped (a background event, so no caller can report it). */
  reportGaveUp(controller: ServerController, reason: string): void;
}

/** Thrown by start() when workspace trust forbids running the server; callers show it as guidance, not a failure. */
export class WorkspaceNotTrustedError extends Error {
  override readonly name = 'WorkspaceNotTrustedError';
}

/** Thrown by start() when the user declined the first-start confirmation; not a failure either. */
export class LaunchDeclinedError extends Error {
  override readonly name = 'LaunchDeclinedError';
}

/** How many of the server's own log messages are kept for tests and diagnostics. */
const SERVER_MESSAGE_TAIL = 100;

interface Connection {
  client: McpClient;
  transport: Transport;
  subscriptions: { dispose(): void }[];
}

/**
 * Owns one configured server: its state machine, its client and transport, and its log. Every start and stop
 * takes a new attempt number; asynchronous work from an older attempt finds itself outdated and backs off, so
 * a stop during a slow start (or a restart during a crash) can never resurrect a stale connection.
 */
export class ServerController implements vscode.Disposable {
  private stateValue: ServerState = { kind: 'stopped' };
  private entryValue: ServerEntry;
  private attempt = 0;
  private launching: Promise<void> | undefined;
  private connection: Connection | undefined;
  private closing: Promise<void> | undefined;
  /** The transport of the connection `closing` shuts down: a second stop closes it again, which kills at once. */
  private closingTransport: Transport | undefined;
  private epochValue = 0;
  private readonly stateEmitter = new vscode.EventEmitter<ServerState>();
  private readonly policy: RestartPolicy;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
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
    this.policy = services.restartPolicy?.() ?? new RestartPolicy();
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
    const transport = this.connection?.transport;
    return transport instanceof StdioTransport ? transport.pid : undefined;
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
    this.cancelScheduledRestart();
    this.policy.reset();
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
      this.setState({ kind: 'stopped', note: vscode.l10n.t('workspace not trusted'), cause: 'workspace-untrusted' });
      return Promise.reject(
        new WorkspaceNotTrustedError(
          vscode.l10n.t(
            'MCP server "{0}" was not started because this workspace is not trusted. Servers from .vscode/mcp.json run programs on this machine; trust the workspace to start them.',
            this.name,
          ),
        ),
      );
    }
    const attempt = ++this.attempt;
    this.setState({ kind: 'starting' });
    const launching = this.launch(attempt).finally(() => {
      if (this.launching === launching) this.launching = undefined;
    });
    this.launching = launching;
    return launching;
  }

  /** Stops the server (staged shutdown for stdio) and resolves once its process and connection are gone. */
  async stop(): Promise<void> {
    this.cancelScheduledRestart();
    this.attempt++;
    const active = this.connection !== undefined || ServerState.isActive(this.stateValue);
    if (active) this.log.info('Stopping');
    if (!this.connection && this.closing && this.closingTransport) {
      // A second stop during the staged shutdown: the transport's second close skips the remaining grace (SIGKILL).
      this.log.info('Stopping now: killing the server without waiting');
      void this.closingTransport.close().catch((error: unknown) => this.log.warn(`Error while killing: ${errorMessage(error)}`));
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

  /** Calls a tool on the running server. */
  callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolOutcome> {
    const connection = this.connection;
    if (!connection || this.stateValue.kind !== 'running') {
      return Promise.reject(new Error(vscode.l10n.t('MCP server "{0}" is not running', this.name)));
    }
    return connection.client.callTool(name, args, options);
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

  private async launch(attempt: number): Promise<void> {
    const entry = this.entryValue;
    this.log.info(`Starting ${entry.name}: ${describeTarget(entry.definition)}`);
    // Failures before the connection (variables, missing command, declined) are configuration problems; only a
    // server that was launched and then failed counts as a crash for automatic restarts.
    let launched = false;
    let signInNeeded = false;
    try {
      // A previous connection may still be shutting down (restart); never run two processes at once.
      await this.closing;
      const context = this.variableContext(entry);
      // A workspace server is confirmed on what it would run before anything else happens on its behalf: no input
      // box opens and no envFile is read until the person agreed.
      const preview = await previewServerDefinition(entry.definition, context);
      const allowed = await this.services.confirmation.confirm(entry, { ...preview, resolved: withDefaultCwd(preview.resolved) });
      if (attempt !== this.attempt) return;
      if (!allowed) {
        throw new LaunchDeclinedError(vscode.l10n.t('MCP server "{0}" was not started: its command line was not allowed.', entry.name));
      }
      const { resolved: resolvedAsWritten, secrets } = await resolveServerWithSecrets(entry.definition, context);
      const resolved = withDefaultCwd(resolvedAsWritten);
      if (attempt !== this.attempt) return;
      this.launchSecrets = secrets;
      const launch = await checkCommand(resolved);
      const signInMode: SignInMode = this.interactiveSignIn ? { kind: 'interactive' } : { kind: 'silent', onRequired: () => (signInNeeded = true) };
      this.authorizedUrl = resolved.kind === 'http' ? resolved.url : undefined;
      const authorizer =
        resolved.kind === 'http'
          ? this.services.auth.authorizerFor({
              serverName: entry.name,
              serverUrl: resolved.url,
              oauth: resolved.oauth,
              mode: signInMode,
              log: (line) => this.log.info(this.mask(line)),
            })
          : undefined;
      const transport = createTransport(resolved, { launch, authorizer });
      const client = new McpClient({
        serverName: entry.name,
        transport,
        host: hostWithIdentity(this.services.host, serverIdentityKeyOf(entry)),
        logger: channelLogger(this.log, (text) => this.mask(text)),
        trace: protocolTrace(this.log, () => this.knownSecrets()),
        era: eraPreferenceOf(entry.definition),
      });
      this.connection = {
        client,
        transport,
        subscriptions: [
          transport.onDiagnostic((line) => this.logDiagnostic(line)),
          client.onViolation((reason) => this.log.warn(`Protocol violation: ${this.mask(reason)}`)),
          client.onLogMessage((message) => this.onServerMessage(message)),
          client.onToolsChanged(() => void this.reloadTools(attempt)),
          client.onDidChangeState((clientState) => {
            if (clientState.kind === 'closed') this.onConnectionLost(attempt, clientState.error);
          }),
        ],
      };
      launched = true;
      const session = await client.connect();
      if (attempt !== this.attempt) return;
      const { serverInfo, protocolVersion } = session;
      const pid = this.pid;
      this.log.info(
        `Started: ${serverInfo.name} ${serverInfo.version}${serverInfo.title ? ` ("${serverInfo.title}")` : ''}, ` +
          `protocol ${protocolVersion}${pid === undefined ? '' : `, pid ${pid}`}`,
      );
      this.log.info(`Era: ${describeEra(session)}; ${eraChoiceReason(eraPreferenceOf(entry.definition), session)}`);
      if (session.instructions) this.log.info(`Instructions: ${this.mask(session.instructions)}`);
      await this.applyLogLevel(client);
      const tools = await client.listTools();
      if (attempt !== this.attempt) return;
      this.log.info(`Tools: ${toolCountSummary(tools)}`);
      this.policy.recordStarted(Date.now());
      this.setState({ kind: 'running', session, tools, pid });
    } catch (error) {
      // Stopped or restarted meanwhile: the newer attempt owns the state, and this failure is just the stop.
      if (attempt !== this.attempt) return;
      this.attempt++;
      const stderrTail = this.recentStderr();
      await this.closeConnection();
      if (error instanceof LaunchDeclinedError) {
        this.log.warn('Not started: the command line was not allowed');
        // A start the workspace triggered is not asked (LaunchReviewNeededError carries "changed: review to start").
        const note = 'note' in error && typeof error.note === 'string' ? error.note : vscode.l10n.t('not allowed to start');
        this.setState({ kind: 'stopped', note, cause: 'declined' });
        throw error;
      }
      if (signInNeeded || error instanceof SignInCancelledError || isCausedBy(error, SignInCancelledError)) {
        // Not a failure and not a crash: the server waits for the person to sign in.
        this.log.warn(signInNeeded ? 'Not started: the server requires signing in' : `Not signed in: ${this.mask(errorMessage(error))}`);
        this.setState({ kind: 'signInRequired' });
        throw error;
      }
      const message = this.mask(errorMessage(error));
      this.log.error(`Failed to start: ${message}`);
      // Only a server that has run since the last manual start is restarted (restartPolicy.recordStartFailure).
      const decision = launched ? this.policy.recordStartFailure(Date.now()) : undefined;
      this.setState({ kind: 'error', message, stderrTail, recovery: decision ? this.scheduleRecovery(decision) : undefined });
      throw error;
    }
  }

  /** The server went away on its own while running: a crash, or the HTTP endpoint closed. */
  private onConnectionLost(attempt: number, error: Error | undefined): void {
    if (attempt !== this.attempt || this.stateValue.kind !== 'running') return;
    this.attempt++;
    const message = this.mask(error ? errorMessage(error) : vscode.l10n.t('the server closed the connection'));
    const stderrTail = this.recentStderr();
    this.log.error(`Crashed: ${message}`);
    void this.closeConnection();
    this.setState({ kind: 'error', message, stderrTail, recovery: this.scheduleRecovery(this.policy.recordCrash(Date.now())) });
  }

  /** Carries out the restart policy's decision after a crash: schedules the restart (exponential backoff) or gives up. */
  private scheduleRecovery(decision: RestartDecision): CrashRecovery {
    if (decision.kind === 'give-up') {
      this.log.error(`Not restarting: ${decision.reason}`);
      this.services.reportGaveUp(this, decision.reason);
      return { kind: 'gave-up', reason: decision.reason };
    }
    this.log.warn(`Restarting in ${decision.delayMs} ms (crash ${decision.attempt})`);
    this.cancelScheduledRestart();
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      // Failures are already in the state and the log; the next crash schedules the next attempt.
      this.begin().catch(() => undefined);
    }, decision.delayMs);
    return { kind: 'restarting', delayMs: decision.delayMs, attempt: decision.attempt };
  }

  private cancelScheduledRestart(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  private async applyLogLevel(client: McpClient): Promise<void> {
    const level = this.logLevelValue;
    if (!level || !client.session.capabilities.logging) return;
    try {
      await client.setLoggingLevel(level);
      this.log.info(`Log level set to ${level}`);
    } catch (error) {
      this.log.warn(`Could not set the log level: ${errorMessage(error)}`);
    }
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

  private async reloadTools(attempt: number): Promise<void> {
    const connection = this.connection;
    if (!connection || attempt !== this.attempt) return;
    try {
      const tools = await connection.client.listTools();
      const state = this.stateValue;
      if (attempt !== this.attempt || state.kind !== 'running') return;
      this.log.info(`Tool list changed: ${toolCountSummary(tools)}`);
      this.setState({ ...state, tools });
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
    const transport = this.connection?.transport;
    return transport instanceof StdioTransport ? transport.recentStderr.map((line) => this.mask(line)) : [];
  }

  private logDiagnostic(line: string): void {
    const masked = this.mask(line);
    if (masked.startsWith('stderr: ')) this.log.info(`[stderr] ${masked.slice('stderr: '.length)}`);
    else this.log.info(masked);
  }

  /**
   * `cwd` defaults to the folder (the first workspace folder for user servers). In an untrusted workspace a user
   * server gets no folder at all (so it runs in the home directory): the folder's files are not the person's to vouch
   * for, and a program started there may pick up its config, scripts or binaries.
   */
  private variableContext(entry: ServerEntry): VariableContext {
    const folder = entry.origin.folder.uri;
    const untrustedFolder = entry.origin.scope === 'user' && !this.services.isWorkspaceTrusted();
    return {
      workspaceFolder: folder.scheme === 'file' && !untrustedFolder ? folder.fsPath : undefined,
      userHome: os.homedir(),
      env: process.env,
      input: (id) => this.services.inputs.valueFor(entry, id),
    };
  }

  private setState(state: ServerState): void {
    const previous: ServerStateKind = this.stateValue.kind;
    if (state.kind !== 'starting' && state.kind !== previous) this.epochValue++;
    this.stateValue = state;
    this.stateEmitter.fire(state);
  }
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

/** A stdio server with no folder to run in (none open, or an untrusted one) runs in the home directory. */
function withDefaultCwd<T extends ResolvedServer>(resolved: T): T {
  return resolved.kind === 'stdio' && resolved.cwd === undefined ? { ...resolved, cwd: os.homedir() } : resolved;
}

/**
 * The shared host with this server's identity added to every sampling and elicitation request, so policies, model
 * allow-lists and review caps are looked up by identity, not by the name the server's definition chose.
 */
function hostWithIdentity(host: ClientHost, serverKey: string): ClientHost {
  const { sampling, elicitation } = host;
  const withKey = <C extends { serverName: string; signal: AbortSignal }>(context: C): SamplingRequestContext => ({ ...context, serverKey });
  const identifiedSampling: SamplingHandler | undefined = sampling && {
    supportsTools: sampling.supportsTools,
    createMessage: (request, context) => sampling.createMessage(request, withKey(context)),
  };
  const identifiedElicitation: ElicitationHandler | undefined = elicitation && {
    modes: elicitation.modes,
    elicit: (request, context) => elicitation.elicit(request, withKey(context)),
    completed: elicitation.completed ? (id, serverName) => elicitation.completed?.(id, serverName) : undefined,
  };
  return { roots: host.roots, sampling: identifiedSampling, elicitation: identifiedElicitation };
}

/** Names only for a short list: a line naming 50,000 tools costs memory and makes the log unreadable. */
const TOOL_NAMES_LOGGED = 20;

export function toolCountSummary(tools: readonly { name: string }[]): string {
  if (tools.length === 0) return '0 (none)';
  if (tools.length > TOOL_NAMES_LOGGED) return `${tools.length}`;
  return `${tools.length} (${tools.map((tool) => tool.name).join(', ')})`;
}
