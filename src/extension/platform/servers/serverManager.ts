import type { MementoEraMemory } from './eraMemory';
import type { SignInService } from '../auth/signIn';
import * as vscode from 'vscode';
import type { ClientHost } from '../../../protocol/host';
import type { GiveUp, RestartPolicy } from '../../../workbench/lifecycle/restartPolicy';
import type { InputPrompter } from '../config/inputPrompter';
import type { LaunchConfirmation } from './launchConfirmation';
import type { LogChannels } from './logChannels';
import { ServerController, type ServerControllerServices } from './serverController';
import type { ServerEntry } from '../config/serverEntry';
import type { ServerState, ServerStateKind } from './serverState';

interface ServerManagerServices {
  host: ClientHost;
  /** A server's own host, when it needs one (the gateway's relay); else `host`. */
  hostFor?(entry: ServerEntry): ClientHost;
  logs: LogChannels;
  inputs: InputPrompter;
  confirmation: LaunchConfirmation;
  auth: SignInService;
  isWorkspaceTrusted(): boolean;
  /** How a failed background start (reload restart) is brought to the user's attention. */
  reportStartFailure(controller: ServerController, error: unknown): void;
  /** How the end of automatic crash restarts is brought to the user's attention. */
  reportGaveUp(controller: ServerController, giveUp: GiveUp): void;
  /** Builds each server's crash policy; tests may shorten its delays. */
  restartPolicy?: () => RestartPolicy;
  /** Where era "auto" remembers a server that was slow to answer the probe. */
  eraMemory?: MementoEraMemory;
  /** The servers' wire observers for the Protocol view (LaunchServices.wire). */
  wire?: ServerControllerServices['wire'];
  /** Dev mode's debugger (LaunchServices.debug). */
  debug?: ServerControllerServices['debug'];
}

/** A plain description of one server, for tests and diagnostics. */
interface ServerSnapshot {
  id: string;
  name: string;
  state: ServerStateKind;
  tools: string[];
  pid?: number;
  error?: string;
  /** Where the server is defined, e.g. ".vscode/mcp.json" or "User settings (mcpWorkbench.servers)". */
  origin: string;
  scope: 'workspace' | 'user';
  /** After a crash: restarting (with the backoff delay) or given up (with the reason). */
  recovery?: { kind: 'restarting'; delayMs: number; attempt: number } | { kind: 'gave-up'; reason: string };
  /** A note on why a server is stopped when the user did not stop it (trust, declined confirmation). */
  note?: string;
}

/**
 * Owns one ServerController per configured server and keeps the set in line with the configuration:
 * new servers appear stopped, removed ones are stopped and dropped, changed ones restart if they were active.
 */
export class ServerManager implements vscode.Disposable {
  private readonly controllers = new Map<string, ServerController>();
  private readonly controllerSubscriptions = new Map<string, vscode.Disposable>();
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  private readonly stateEmitter = new vscode.EventEmitter<ServerController>();
  private readonly killOnExit = () => this.killRemainingProcesses();
  private shuttingDown: Promise<void> | undefined;

  /** The set of servers changed (added, removed, or an entry replaced). */
  readonly onDidChangeServers = this.changeEmitter.event;
  /** One server's state changed. */
  readonly onDidChangeServerState = this.stateEmitter.event;

  constructor(private readonly services: ServerManagerServices) {
    // Last resort if the extension host exits without running deactivate (it normally does): stdio servers
    // live in their own process groups and would otherwise outlive it.
    process.once('exit', this.killOnExit);
  }

  get servers(): readonly ServerController[] {
    return [...this.controllers.values()];
  }

  get(id: string): ServerController | undefined {
    return this.controllers.get(id);
  }

  /** Servers whose name is `name` (several folders may define the same name). */
  byName(name: string): ServerController[] {
    return this.servers.filter((controller) => controller.name === name);
  }

  /** Replaces the configured set; returns once removed servers are stopped and changed ones restarted. */
  async applyConfiguration(entries: readonly ServerEntry[]): Promise<void> {
    if (this.shuttingDown) return;
    const wanted = new Map(entries.map((entry) => [entry.id, entry]));
    const work: Promise<unknown>[] = [];
    for (const [id, controller] of [...this.controllers]) {
      if (wanted.has(id)) continue;
      controller.log.info('Removed from the configuration');
      this.controllers.delete(id);
      this.controllerSubscriptions.get(id)?.dispose();
      this.controllerSubscriptions.delete(id);
      work.push(controller.stop().finally(() => this.services.logs.release(id)));
    }
    for (const entry of wanted.values()) {
      const existing = this.controllers.get(entry.id);
      if (existing) {
        work.push(
          existing.updateEntry(entry).catch((error: unknown) => this.services.reportStartFailure(existing, error)),
        );
        continue;
      }
      // The channel asks the controller for its secrets at each write, never during construction.
      const controller: ServerController = new ServerController(entry, {
        host: this.services.hostFor?.(entry) ?? this.services.host,
        log: this.services.logs.get(entry.id, this.channelName(entry, entries), () => controller.knownSecrets()),
        inputs: this.services.inputs,
        confirmation: this.services.confirmation,
        auth: this.services.auth,
        isWorkspaceTrusted: this.services.isWorkspaceTrusted,
        restartPolicy: this.services.restartPolicy,
        reportGaveUp: this.services.reportGaveUp,
        eraMemory: this.services.eraMemory,
        wire: this.services.wire,
        debug: this.services.debug,
      });
      this.controllers.set(entry.id, controller);
      this.controllerSubscriptions.set(
        entry.id,
        controller.onDidChangeState(() => this.stateEmitter.fire(controller)),
      );
    }
    this.changeEmitter.fire();
    await Promise.all(work);
  }

  /** Trust was granted: rows that said "workspace not trusted" update at once (starting is the caller's choice). */
  workspaceTrustGranted(): void {
    for (const controller of this.servers) controller.workspaceTrustGranted();
  }

  /** Starts every server; failures are reported per server and do not stop the others. */
  async startAll(): Promise<void> {
    await Promise.all(
      this.servers.map((controller) =>
        controller.start().catch((error: unknown) => this.services.reportStartFailure(controller, error)),
      ),
    );
  }

  /** Test hook: resolves with the state once the named server reaches `kind`, or rejects after `timeoutMs`. */
  waitForState(nameOrId: string, kind: ServerStateKind, timeoutMs = 30_000): Promise<ServerState> {
    return new Promise((resolve, reject) => {
      const matches = (controller: ServerController) => controller.id === nameOrId || controller.name === nameOrId;
      const current = this.servers.find(matches);
      if (current?.state.kind === kind) return resolve(current.state);
      const timer = setTimeout(() => {
        subscription.dispose();
        const now = this.servers.find(matches);
        reject(
          new Error(
            `server ${nameOrId} did not reach "${kind}" within ${timeoutMs} ms (it is ${now?.state.kind ?? 'not configured'})`,
          ),
        );
      }, timeoutMs);
      const subscription = this.onDidChangeServerState((controller) => {
        if (!matches(controller) || controller.state.kind !== kind) return;
        clearTimeout(timer);
        subscription.dispose();
        resolve(controller.state);
      });
    });
  }

  snapshot(): ServerSnapshot[] {
    return this.servers.map((controller) => {
      const state = controller.state;
      return {
        id: controller.id,
        name: controller.name,
        state: state.kind,
        tools: state.kind === 'running' ? state.tools.map((tool) => tool.name) : [],
        pid: controller.pid,
        error: state.kind === 'error' ? state.message : undefined,
        origin: controller.entry.origin.label,
        scope: controller.entry.origin.scope,
        recovery: state.kind === 'error' ? state.recovery : undefined,
        note: state.kind === 'stopped' ? state.note : undefined,
      };
    });
  }

  /**
   * Stops every server and waits for each one's staged shutdown. Safe to call more than once; never rejects. One
   * failing stop must not cut the others short (the host exits as soon as deactivate settles), and a process whose
   * stop failed is killed outright.
   */
  shutdown(): Promise<void> {
    this.shuttingDown ??= Promise.allSettled(this.servers.map((controller) => controller.stop())).then(() =>
      this.killRemainingProcesses(),
    );
    return this.shuttingDown;
  }

  dispose(): void {
    void this.shutdown().finally(() => {
      process.removeListener('exit', this.killOnExit);
      for (const subscription of this.controllerSubscriptions.values()) subscription.dispose();
      this.changeEmitter.dispose();
      this.stateEmitter.dispose();
    });
  }

  /** Channel names must tell servers apart when two folders use the same server name. */
  private channelName(entry: ServerEntry, entries: readonly ServerEntry[]): string {
    const clash = entries.some((other) => other.id !== entry.id && other.name === entry.name);
    if (!clash) return entry.name;
    return entry.origin.scope === 'user'
      ? `${entry.name} (${entry.origin.label})`
      : `${entry.name} (${entry.origin.folder.name})`;
  }

  private killRemainingProcesses(): void {
    for (const controller of this.controllers.values()) {
      const pid = controller.pid;
      if (pid === undefined) continue;
      try {
        process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
}
