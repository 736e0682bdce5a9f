import { errorMessage } from '../../protocol/errors';
import type { AppsApi } from '../../protocol/extensions/apps';
import type { CallToolResult, ContentBlock, Tool } from '../../protocol/types';
import { checkAppMessage, MessageRate, type AppMessage } from './bridgeMessages';
import { changedContext, hostContext, type AppDisplayMode, type HostSurroundings } from './hostContext';
import * as read from './appRequests';
import { appCallRecord, asksBeforeAppCall, declinedResult, type AppCallEnd } from './appToolCalls';
import type { HistoryRecording, HistoryServer } from '../history/historyLog';

/** The MCP Apps protocol revision this host speaks. */
const APPS_PROTOCOL_VERSION = '2026-01-26';

/** What the host that draws the app supplies: the wire to its frame, and the person's consent. */
export interface AppHostPort {
  /** Posts one message into the app's frame. */
  post(message: Record<string, unknown>): void;
  /** Asks the person whether to open this exact URL and opens it if they agree; true when opened. */
  openLink(url: string): Promise<boolean>;
  /** Offers the app's message to the person (copy, or open chat); true when they took it. */
  offerMessage(content: readonly ContentBlock[]): Promise<boolean>;
  /**
   * Asks the person whether the app may call this tool (its server marks it destructive, or the host does not know
   * it: `tool` is then undefined); true when they allow it. Never asked while another prompt of the app is open.
   */
  confirmToolCall(call: { name: string; args: Record<string, unknown>; tool: Tool | undefined }): Promise<boolean>;
  /** Asks where to save each file (a save dialog) and writes it; true when saved. */
  downloadFiles(items: readonly read.DownloadItem[]): Promise<boolean>;
  /** The display mode the host switched to for the app's request (it may keep the current one). */
  requestDisplayMode(mode: AppDisplayMode): AppDisplayMode;
  sizeChanged(size: { width?: number; height?: number }): void;
  modelContextChanged(context: read.ModelContext): void;
  log(level: read.LogLevel, text: string): void;
  /** The app asked to be closed (the host decides; closing runs teardown). */
  teardownRequested(): void;
  /** The app was stopped (flood, junk): remove its frame and say why. */
  stopped(reason: string): void;
}

interface AppSessionOptions {
  readonly serverName: string;
  readonly tool: Tool;
  readonly callId?: string | number;
  readonly api: AppsApi;
  readonly hostInfo: { name: string; version: string };
  readonly surroundings: HostSurroundings;
  readonly port: AppHostPort;
  /** The server's tool of that name as the host last listed it (its annotations say whether a call asks first). */
  readonly toolOf: (name: string) => Tool | undefined;
  /**
   * Where the app's own tool calls are recorded: History, the server they went to, and the host's words for "made by
   * this app" (the note History shows after the outcome). Without it nothing is recorded (a host with no History).
   */
  readonly history?: { readonly recording: HistoryRecording; readonly server: HistoryServer; readonly note?: string };
  /** Messages per second an app may post before it is stopped (default 100). */
  readonly messagesPerSecond?: number;
  /** Malformed messages an app may post before it is stopped (default 20). */
  readonly maxRejected?: number;
  /** App requests served at once (default 8); more are refused, not queued. */
  readonly maxInFlight?: number;
}

type AppSessionState =
  | { kind: 'awaiting-initialize' }
  | { kind: 'initializing' }
  | { kind: 'ready' }
  | { kind: 'tearing-down' }
  | { kind: 'closed' }
  | { kind: 'stopped'; reason: string };

type Queued = { method: string; params: Record<string, unknown> };

/** How a teardown ended: the app answered, it did not in time, it never ran, or the session was closed meanwhile. */
type TeardownOutcome = 'answered' | 'timed-out' | 'not-running' | 'closed';

const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const INTERNAL = -32603;

/**
 * The host end of one app's wire (ui/initialize, the tool's input and result, proxied tool calls and reads, links,
 * messages, model context, display modes, downloads, resizes, teardown), independent of where it is drawn. Nothing
 * reaches the app before it said `ui/notifications/initialized`; every app message is shape-checked and counted.
 */
export class AppSession {
  private stateValue: AppSessionState = { kind: 'awaiting-initialize' };
  private readonly queue: Queued[] = [];
  private readonly rate: MessageRate;
  private rejected = 0;
  private inFlight = 0;
  private asking = false;
  private readonly abort = new AbortController();
  private surroundings: HostSurroundings;
  private nextId = 1;
  /** The teardown under way: the id of its ui/resource-teardown, its bound, and how to end the wait. */
  private teardownWait:
    { id: number; timer: ReturnType<typeof setTimeout>; settle: (outcome: TeardownOutcome) => void } | undefined;
  private modelContextValue: read.ModelContext | undefined;

  constructor(private readonly options: AppSessionOptions) {
    this.rate = new MessageRate(options.messagesPerSecond ?? 100);
    this.surroundings = options.surroundings;
  }

  get state(): AppSessionState {
    return this.stateValue;
  }

  get modelContext(): read.ModelContext | undefined {
    return this.modelContextValue;
  }

  get displayMode(): AppDisplayMode {
    return this.surroundings.displayMode;
  }

  private get running(): boolean {
    return (
      this.stateValue.kind === 'awaiting-initialize' ||
      this.stateValue.kind === 'initializing' ||
      this.stateValue.kind === 'ready'
    );
  }

  /** The tool's complete arguments (sent once, after initialized). */
  toolInput(args: Record<string, unknown>): void {
    this.notify('ui/notifications/tool-input', { arguments: args });
  }

  toolResult(result: CallToolResult): void {
    this.notify('ui/notifications/tool-result', result as unknown as Record<string, unknown>);
  }

  toolCancelled(reason: string): void {
    this.notify('ui/notifications/tool-cancelled', { reason });
  }

  /** Theme, size, display mode… changed: the app hears only the fields that differ. */
  updateSurroundings(next: HostSurroundings): void {
    const changed = changedContext(this.surroundings, next);
    this.surroundings = next;
    // Before initialized the app gets the whole context in the ui/initialize answer.
    if (changed && this.stateValue.kind === 'ready') this.notify('ui/notifications/host-context-changed', changed);
  }

  /** One message the app posted (already known to come from its frame). */
  receive(raw: unknown): void {
    // While tearing down the app's answer to ui/resource-teardown is still read.
    if (!this.running && this.stateValue.kind !== 'tearing-down') return;
    if (!this.rate.admit())
      return this.stop(
        `${this.options.serverName}: the app of ${this.options.tool.name} sent more than ${this.rate.perSecond} messages in a second and was stopped`,
      );
    const verdict = checkAppMessage(raw);
    if (!verdict.ok) {
      this.options.port.log('warning', `app message dropped: ${verdict.reason}`);
      if (++this.rejected > (this.options.maxRejected ?? 20))
        this.stop(
          `${this.options.serverName}: the app of ${this.options.tool.name} kept sending malformed messages and was stopped`,
        );
      return;
    }
    this.dispatch(verdict.message);
  }

  /**
   * Asks the app to clean up (`ui/resource-teardown`) and waits for its answer, at most `timeoutMs`; then the session
   * is closed. An app that never initialized is closed at once.
   */
  async teardown(timeoutMs: number): Promise<TeardownOutcome> {
    if (this.stateValue.kind !== 'ready') {
      this.close();
      return 'not-running';
    }
    this.stateValue = { kind: 'tearing-down' };
    const id = this.nextId++;
    const ended = new Promise<TeardownOutcome>((settle) => {
      this.teardownWait = { id, timer: setTimeout(() => this.endTeardown('timed-out'), timeoutMs), settle };
    });
    this.options.port.post({ jsonrpc: '2.0', id, method: 'ui/resource-teardown', params: {} });
    const outcome = await ended;
    this.close();
    return outcome;
  }

  /** The app's requests being served now (tool calls, reads, prompts to the person). */
  get requestsInFlight(): number {
    return this.inFlight;
  }

  /** True once the session is closed or stopped: the app is sent nothing more. */
  get ended(): boolean {
    return this.stateValue.kind === 'closed' || this.stateValue.kind === 'stopped';
  }

  /**
   * Ends the session without asking the app (its frame is gone, or its teardown is over). The app's requests in
   * flight are cancelled at the server (notifications/cancelled) and answer nobody; a teardown still waiting for the
   * app ends at once ('closed'), its timer cleared; nothing more is posted. Returns how many requests were cancelled.
   */
  close(): number {
    const cancelled = this.ended ? 0 : this.inFlight;
    if (this.stateValue.kind !== 'stopped') this.stateValue = { kind: 'closed' };
    this.abort.abort();
    this.queue.length = 0;
    this.endTeardown('closed');
    return cancelled;
  }

  private endTeardown(outcome: TeardownOutcome): void {
    const wait = this.teardownWait;
    if (!wait) return;
    this.teardownWait = undefined;
    clearTimeout(wait.timer);
    wait.settle(outcome);
  }

  private stop(reason: string): void {
    if (!this.running) return;
    this.stateValue = { kind: 'stopped', reason };
    this.abort.abort();
    this.queue.length = 0;
    this.options.port.stopped(reason);
  }

  private notify(method: string, params: Record<string, unknown>): void {
    if (this.stateValue.kind === 'ready') this.options.port.post({ jsonrpc: '2.0', method, params });
    else if (this.stateValue.kind === 'awaiting-initialize' || this.stateValue.kind === 'initializing')
      this.queue.push({ method, params });
  }

  private reply(id: string | number, result: Record<string, unknown>): void {
    if (this.running || this.stateValue.kind === 'tearing-down') this.options.port.post({ jsonrpc: '2.0', id, result });
  }

  private fail(id: string | number, code: number, message: string): void {
    if (this.running || this.stateValue.kind === 'tearing-down')
      this.options.port.post({ jsonrpc: '2.0', id, error: { code, message } });
  }

  private dispatch(message: AppMessage): void {
    switch (message.kind) {
      case 'response':
        if (this.teardownWait && message.id === this.teardownWait.id) this.endTeardown('answered');
        return;
      case 'notification':
        return this.onNotification(message.method, message.params);
      case 'request':
        return void this.onRequest(message.id, message.method, message.params);
      default: {
        const exhaustive: never = message;
        return exhaustive;
      }
    }
  }

  private onNotification(method: string, params: Record<string, unknown>): void {
    const { port } = this.options;
    switch (method) {
      case 'ui/notifications/initialized': {
        if (this.stateValue.kind !== 'initializing') return;
        this.stateValue = { kind: 'ready' };
        for (const queued of this.queue.splice(0)) port.post({ jsonrpc: '2.0', ...queued });
        return;
      }
      case 'ui/notifications/size-changed':
        return port.sizeChanged(read.sizeParams(params));
      case 'notifications/message': {
        const { level, text } = read.logParams(params);
        return port.log(level, text);
      }
      case 'ui/notifications/request-teardown':
        return port.teardownRequested();
      default:
        return;
    }
  }

  private async onRequest(id: string | number, method: string, params: Record<string, unknown>): Promise<void> {
    if (method === 'ui/initialize') return this.initialize(id);
    if (method === 'ping') return this.reply(id, {});
    if (this.stateValue.kind !== 'ready')
      return this.fail(id, INTERNAL, `${method} before ui/notifications/initialized`);
    if (this.inFlight >= (this.options.maxInFlight ?? 8))
      return this.fail(id, INTERNAL, `too many requests in flight; ${method} refused`);
    this.inFlight++;
    try {
      const result = await this.serve(method, params);
      if (result.ok) this.reply(id, result.value);
      else this.fail(id, result.code, result.reason);
    } catch (error) {
      this.fail(id, INTERNAL, errorMessage(error).slice(0, 1000));
    } finally {
      this.inFlight--;
    }
  }

  private initialize(id: string | number): void {
    if (this.stateValue.kind !== 'awaiting-initialize')
      return this.fail(id, INTERNAL, 'ui/initialize was already answered');
    this.stateValue = { kind: 'initializing' };
    this.reply(id, {
      protocolVersion: APPS_PROTOCOL_VERSION,
      hostInfo: this.options.hostInfo,
      hostCapabilities: {
        openLinks: {},
        downloadFile: {},
        serverTools: {},
        serverResources: {},
        logging: {},
        updateModelContext: { text: {}, structuredContent: {} },
        message: { text: {} },
      },
      hostContext: hostContext(this.surroundings, this.options.tool, this.options.callId),
    });
  }

  /** One person prompt at a time: a second link or message while one is open is refused, never stacked. */
  private async ask(prompt: () => Promise<boolean>): Promise<boolean> {
    if (this.asking) return false;
    this.asking = true;
    try {
      return await prompt();
    } finally {
      this.asking = false;
    }
  }

  /** One tool call of the app into History, marked as the app's. */
  private recordCall(name: string, args: Record<string, unknown>, startedAt: number, end: AppCallEnd): void {
    const history = this.options.history;
    if (!history) return;
    history.recording.record(
      appCallRecord({
        server: history.server,
        appTool: this.options.tool.name,
        toolName: name,
        args,
        startedAt,
        endedAt: Date.now(),
        end,
        note: history.note,
      }),
    );
  }

  private async serve(
    method: string,
    params: Record<string, unknown>,
  ): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; code: number; reason: string }> {
    const { api, port } = this.options;
    const invalid = (reason: string) => ({ ok: false as const, code: INVALID_PARAMS, reason });
    const signal = this.abort.signal;
    switch (method) {
      case 'tools/call': {
        const checked = read.toolCallParams(params);
        if (!checked.ok) return invalid(checked.reason);
        const { name, args } = checked.value;
        const tool = this.options.toolOf(name);
        if (asksBeforeAppCall(tool)) {
          // One prompt at a time (as links and messages): a call while another prompt is open is not made.
          const busy = this.asking;
          const allowed = !busy && (await this.ask(() => port.confirmToolCall({ name, args, tool })));
          if (!allowed) {
            const declined = declinedResult(name, busy ? 'busy' : 'declined');
            this.recordCall(name, args, Date.now(), { kind: 'declined', result: declined });
            return { ok: true, value: declined as unknown as Record<string, unknown> };
          }
        }
        const started = Date.now();
        let result: CallToolResult;
        try {
          result = await api.callToolForApp(name, args, { signal });
        } catch (error) {
          this.recordCall(name, args, started, { kind: 'threw', error });
          throw error;
        }
        this.recordCall(name, args, started, { kind: 'answered', result });
        return { ok: true, value: result as unknown as Record<string, unknown> };
      }
      case 'resources/read': {
        const checked = read.resourceReadParams(params);
        if (!checked.ok) return invalid(checked.reason);
        return { ok: true, value: await api.readResourceForApp(checked.value, { signal }) };
      }
      case 'ui/open-link': {
        const checked = read.openLinkParams(params);
        if (!checked.ok) return invalid(checked.reason);
        const opened = await this.ask(() => port.openLink(checked.value));
        return { ok: true, value: opened ? {} : { isError: true } };
      }
      case 'ui/message': {
        const checked = read.messageParams(params);
        if (!checked.ok) return invalid(checked.reason);
        const taken = await this.ask(() => port.offerMessage(checked.value));
        return { ok: true, value: taken ? {} : { isError: true } };
      }
      case 'ui/download-file': {
        const checked = read.downloadParams(params);
        if (!checked.ok) return invalid(checked.reason);
        const saved = await this.ask(() => port.downloadFiles(checked.value));
        return { ok: true, value: saved ? {} : { isError: true } };
      }
      case 'ui/update-model-context': {
        const checked = read.modelContextParams(params);
        if (!checked.ok) return invalid(checked.reason);
        this.modelContextValue = checked.value;
        port.modelContextChanged(checked.value);
        return { ok: true, value: {} };
      }
      case 'ui/request-display-mode': {
        const checked = read.displayModeParams(params);
        if (!checked.ok) return invalid(checked.reason);
        const mode = port.requestDisplayMode(checked.value);
        if (mode !== this.surroundings.displayMode)
          this.updateSurroundings({ ...this.surroundings, displayMode: mode });
        return { ok: true, value: { mode } };
      }
      default:
        return { ok: false, code: METHOD_NOT_FOUND, reason: `${method} is not a method this host serves` };
    }
  }
}
