import * as os from 'node:os';
import * as vscode from 'vscode';
import { McpClient, type CallOptions, type CallToolOutcome } from '../core/client';
import { createTransport, resolveServerDefinition } from '../core/config/launch';
import type { VariableContext } from '../core/config/variables';
import { errorMessage } from '../core/errors';
import type { ClientHost } from '../core/host';
import type { Transport } from '../core/transport';
import { StdioTransport } from '../core/transports/stdio';
import type { InputPrompter } from './inputPrompter';
import { channelLogger, logServerMessage } from './logChannels';
import { describeTarget, sameLaunchDefinition, type ServerEntry } from './serverEntry';
import { assertNever, type ServerState, type ServerStateKind } from './serverState';

export interface ServerControllerServices {
  host: ClientHost;
  log: vscode.LogOutputChannel;
  inputs: InputPrompter;
  isWorkspaceTrusted(): boolean;
}

/** Thrown by start() when workspace trust forbids running the server; callers show it as guidance, not a failure. */
export class WorkspaceNotTrustedError extends Error {
  override readonly name = 'WorkspaceNotTrustedError';
}

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
  private epochValue = 0;
  private readonly stateEmitter = new vscode.EventEmitter<ServerState>();

  /** Fires on every state change, including a new tool list while running. */
  readonly onDidChangeState = this.stateEmitter.event;

  constructor(
    entry: ServerEntry,
    private readonly services: ServerControllerServices,
  ) {
    this.entryValue = entry;
  }

  get id(): string {
    return this.entryValue.id;
  }

  get name(): string {
    return this.entryValue.name;
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

  /** Process id of a running stdio server. */
  get pid(): number | undefined {
    const transport = this.connection?.transport;
    return transport instanceof StdioTransport ? transport.pid : undefined;
  }

  /** Starts the server unless it is running; concurrent callers share one attempt. Rejects when it fails. */
  start(): Promise<void> {
    const state = this.stateValue;
    switch (state.kind) {
      case 'running':
        return Promise.resolve();
      case 'starting':
        return this.launching ?? Promise.resolve();
      case 'stopped':
      case 'error':
        break;
      default:
        assertNever(state, 'server state');
    }
    if (this.entryValue.origin.scope === 'workspace' && !this.services.isWorkspaceTrusted()) {
      this.log.warn('Not started: the workspace is not trusted');
      this.setState({ kind: 'stopped', note: vscode.l10n.t('workspace not trusted') });
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
    this.attempt++;
    const active = this.connection !== undefined || this.stateValue.kind === 'starting' || this.stateValue.kind === 'running';
    if (active) this.log.info('Stopping');
    await this.closeConnection();
    if (active) this.log.info('Stopped');
    if (this.stateValue.kind !== 'stopped') this.setState({ kind: 'stopped' });
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
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
    const kind = this.stateValue.kind;
    if (kind !== 'running' && kind !== 'starting') {
      // A stale error would describe the old definition.
      if (kind === 'error') this.setState({ kind: 'stopped' });
      return false;
    }
    this.log.info('Restarting with the new configuration');
    await this.restart();
    return true;
  }

  dispose(): void {
    void this.stop().finally(() => this.stateEmitter.dispose());
  }

  // ---- internals ------------------------------------------------------------------------------------------

  private async launch(attempt: number): Promise<void> {
    const entry = this.entryValue;
    this.log.info(`Starting ${entry.name}: ${describeTarget(entry.definition)}`);
    try {
      // A previous connection may still be shutting down (restart); never run two processes at once.
      await this.closing;
      const resolved = await resolveServerDefinition(entry.definition, this.variableContext(entry));
      if (attempt !== this.attempt) return;
      const transport = createTransport(resolved);
      const client = new McpClient({ serverName: entry.name, transport, host: this.services.host, logger: channelLogger(this.log) });
      this.connection = {
        client,
        transport,
        subscriptions: [
          transport.onDiagnostic((line) => this.logDiagnostic(line)),
          client.onViolation((reason) => this.log.warn(`Protocol violation: ${reason}`)),
          client.onLogMessage((message) => logServerMessage(this.log, message)),
          client.onToolsChanged(() => void this.reloadTools(attempt)),
          client.onDidChangeState((clientState) => {
            if (clientState.kind === 'closed') this.onConnectionLost(attempt, clientState.error);
          }),
        ],
      };
      const session = await client.connect();
      if (attempt !== this.attempt) return;
      const { serverInfo, protocolVersion } = session;
      const pid = this.pid;
      this.log.info(
        `Started: ${serverInfo.name} ${serverInfo.version}${serverInfo.title ? ` ("${serverInfo.title}")` : ''}, ` +
          `protocol ${protocolVersion}${pid === undefined ? '' : `, pid ${pid}`}`,
      );
      if (session.instructions) this.log.info(`Instructions: ${session.instructions}`);
      const tools = await client.listTools();
      if (attempt !== this.attempt) return;
      this.log.info(`Tools (${tools.length}): ${tools.map((tool) => tool.name).join(', ') || '(none)'}`);
      this.setState({ kind: 'running', session, tools, pid });
    } catch (error) {
      // Stopped or restarted meanwhile: the newer attempt owns the state, and this failure is just the stop.
      if (attempt !== this.attempt) return;
      this.attempt++;
      const stderrTail = this.recentStderr();
      this.log.error(`Failed to start: ${errorMessage(error)}`);
      await this.closeConnection();
      this.setState({ kind: 'error', message: errorMessage(error), stderrTail });
      throw error;
    }
  }

  /** The server went away on its own while running: a crash, or the HTTP endpoint closed. */
  private onConnectionLost(attempt: number, error: Error | undefined): void {
    if (attempt !== this.attempt || this.stateValue.kind !== 'running') return;
    this.attempt++;
    const message = error ? errorMessage(error) : vscode.l10n.t('the server closed the connection');
    const stderrTail = this.recentStderr();
    this.log.error(`Crashed: ${message}`);
    void this.closeConnection();
    this.setState({ kind: 'error', message, stderrTail });
  }

  private async reloadTools(attempt: number): Promise<void> {
    const connection = this.connection;
    if (!connection || attempt !== this.attempt) return;
    try {
      const tools = await connection.client.listTools();
      const state = this.stateValue;
      if (attempt !== this.attempt || state.kind !== 'running') return;
      this.log.info(`Tool list changed (${tools.length}): ${tools.map((tool) => tool.name).join(', ') || '(none)'}`);
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
        if (this.closing === closing) this.closing = undefined;
      });
    this.closing = closing;
    return closing;
  }

  private recentStderr(): string[] {
    const transport = this.connection?.transport;
    return transport instanceof StdioTransport ? [...transport.recentStderr] : [];
  }

  private logDiagnostic(line: string): void {
    if (line.startsWith('stderr: ')) this.log.info(`[stderr] ${line.slice('stderr: '.length)}`);
    else this.log.info(line);
  }

  private variableContext(entry: ServerEntry): VariableContext {
    const folder = entry.origin.folder.uri;
    return {
      workspaceFolder: folder.scheme === 'file' ? folder.fsPath : undefined,
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
