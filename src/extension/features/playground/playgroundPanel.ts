import * as vscode from 'vscode';
import { errorMessage } from '../../../protocol/errors';
import {
  modelToolset,
  runToolLoop,
  type CallDecision,
  type EvalModel,
  type EvalServer,
  type LoopEvent,
  type LoopToolCall,
} from '../../../workbench/evals/toolLoop';
import type { ChatMessage } from '../../../workbench/sampling/chatModel';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import type { Platform } from '../../platform/platform';
import type { ServerController } from '../../platform/servers/serverController';
import { sideColumn, trackPersonPanel } from '../../platform/webviews/panelColumn';
import { webviewMedia } from '../../platform/webviews/webviewMedia';
import { escapeHtml, webviewPage } from '../../platform/webviews/webviewPage';

/** Messages from the page (media/playground/playground.js). */
type PageMessage =
  | { type: 'send'; text: string }
  | { type: 'stop' }
  | { type: 'decide'; id: number; decision: 'allow' | 'allowAll' | 'deny' };

/** Model calls of one request before the run stops and says so: a model that keeps calling tools ends somewhere. */
const MAX_STEPS = 20;
const MAX_TOKENS = 4_096;
/** A request longer than this is not sent (the page's box holds any paste). */
const MAX_REQUEST_CHARS = 100_000;
/** What the model reads when the person denies a call. */
const DECLINED = 'The person declined this tool call.';

/**
 * Text a server or a model wrote, as the page shows it: line by line through escapeForDisplay (control, bidirectional
 * and zero-width characters made visible) but with its line breaks kept. The page sets it as text, never as HTML.
 */
function shown(text: string): string {
  return text.split('\n').map(escapeForDisplay).join('\n');
}

/**
 * One playground chat: the conversation, the servers' tools and the model the person chose. A request runs the shared
 * loop (workbench/evals/toolLoop.ts); each tool call waits for the person's Allow or Deny in the page (or runs when
 * they allowed every call of that tool in this chat); tools disabled for agents are not offered. Stop, or closing the
 * panel, aborts the model call and any running tool call; the key stays with the provider (SecretStorage), never here.
 */
export class PlaygroundPanel {
  private readonly conversation: ChatMessage[] = [];
  private running: AbortController | undefined;
  private readonly pending = new Map<number, (decision: CallDecision) => void>();
  private readonly allowedTools = new Set<string>();
  private readonly ids = new Map<LoopToolCall, number>();
  private nextId = 1;
  private disposed = false;
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;
  /** Settles when the current request's run ended (test hooks). */
  finished: Promise<void> = Promise.resolve();

  static open(
    extensionUri: vscode.Uri,
    platform: Platform,
    controllers: readonly ServerController[],
    model: EvalModel,
  ): PlaygroundPanel {
    const media = webviewMedia(extensionUri, 'playground');
    const title = vscode.l10n.t('Try with a Model: {0}', controllers.map((controller) => controller.name).join(', '));
    const panel = vscode.window.createWebviewPanel('mcpWorkbench.playground', title, sideColumn('person'), {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [media],
    });
    trackPersonPanel(panel);
    panel.webview.html = webviewPage({
      webview: panel.webview,
      title,
      body: pageBody(controllers, model),
      scripts: [vscode.Uri.joinPath(media, 'playground.js')],
      styles: [vscode.Uri.joinPath(media, 'playground.css')],
      state: { labels: pageLabels() },
    });
    return new PlaygroundPanel(panel, platform, controllers, model);
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly platform: Platform,
    readonly controllers: readonly ServerController[],
    readonly model: EvalModel,
  ) {
    const messages = panel.webview.onDidReceiveMessage((message: PageMessage) => this.receive(message));
    panel.onDidDispose(() => {
      messages.dispose();
      this.disposed = true;
      this.stop();
      this.disposeEmitter.fire();
      this.disposeEmitter.dispose();
    });
  }

  dispose(): void {
    this.panel.dispose();
  }

  /** Aborts the model call, any running tool call and any approval the page still shows. */
  stop(): void {
    this.running?.abort();
  }

  private receive(message: PageMessage): void {
    switch (message.type) {
      case 'send':
        if (typeof message.text === 'string' && message.text.trim() && !this.running)
          this.finished = this.send(message.text.slice(0, MAX_REQUEST_CHARS));
        return;
      case 'stop':
        this.stop();
        return;
      case 'decide':
        this.decide(message.id, message.decision);
        return;
      default:
        return;
    }
  }

  private decide(id: number, decision: 'allow' | 'allowAll' | 'deny'): void {
    const resolve = this.pending.get(id);
    if (!resolve) return;
    this.pending.delete(id);
    if (decision === 'allowAll') {
      const call = [...this.ids.entries()].find(([, callId]) => callId === id)?.[0];
      if (call) this.allowedTools.add(call.modelName);
    }
    resolve(decision === 'deny' ? { run: false, reason: DECLINED } : { run: true });
  }

  private post(message: Record<string, unknown>): void {
    // A run stopped by closing the panel still ends (withdrawn approvals, the last note): the page is gone by then.
    if (this.disposed) return;
    void this.panel.webview.postMessage(message);
  }

  /** A server as the loop sees it: its client read at each use (a restart brings a new one). */
  private server(controller: ServerController): EvalServer {
    const client = () => {
      const current = controller.client;
      if (!current) throw new Error(vscode.l10n.t('{0} is not running.', controller.name));
      return current;
    };
    return {
      serverName: controller.name,
      listTools: (options) => client().listTools(options),
      callTool: (name, args, options) => client().callTool(name, args, options),
    };
  }

  private async send(text: string): Promise<void> {
    const stop = new AbortController();
    this.running = stop;
    this.post({ type: 'busy', busy: true });
    this.post({ type: 'user', text });
    this.conversation.push({ role: 'user', parts: [{ kind: 'text', text }] });
    const policies = this.platform.agentToolPolicies;
    const byName = new Map(this.controllers.map((controller) => [controller.name, controller]));
    try {
      // Tools disabled for agents (the gateway's per-tool rules) are not offered to the model either.
      const toolset = await modelToolset(
        this.controllers.map((controller) => this.server(controller)),
        stop.signal,
        (server, tool) => {
          const controller = byName.get(server.serverName);
          return controller ? policies.rule(controller.identityKey, tool.name).enabled : false;
        },
      );
      const outcome = await runToolLoop({
        model: this.model,
        toolset,
        messages: this.conversation,
        maxTokens: MAX_TOKENS,
        maxSteps: MAX_STEPS,
        signal: stop.signal,
        decide: (call, signal) => this.approval(call, signal),
        onText: (delta) => this.post({ type: 'delta', text: shown(delta) }),
        onEvent: (event) => this.show(event),
      });
      if (outcome.interrupted) this.post({ type: 'note', text: vscode.l10n.t('Stopped.') });
      else if (outcome.stepCapReached)
        this.post({
          type: 'note',
          text: vscode.l10n.t('Stopped after {0} model calls without a final answer.', MAX_STEPS),
        });
    } catch (error) {
      this.post({
        type: 'error',
        text: stop.signal.aborted ? vscode.l10n.t('Stopped.') : shown(errorMessage(error)),
      });
    } finally {
      this.running = undefined;
      // Nothing stays pending: an approval the run no longer waits for is withdrawn from the page.
      for (const [id, resolve] of this.pending) {
        resolve({ run: false, reason: DECLINED });
        this.post({ type: 'withdrawn', id });
      }
      this.pending.clear();
      this.post({ type: 'busy', busy: false });
    }
  }

  private approval(call: LoopToolCall, signal: AbortSignal): CallDecision | Promise<CallDecision> {
    const id = this.nextId++;
    this.ids.set(call, id);
    const args = shown(JSON.stringify(call.arguments, null, 2));
    const tool = shown(call.tool.name);
    const server = shown(call.server.serverName);
    if (this.allowedTools.has(call.modelName)) {
      this.post({ type: 'call', id, tool, server, args, state: 'allowed' });
      return { run: true };
    }
    this.post({ type: 'call', id, tool, server, args, state: 'ask' });
    return new Promise<CallDecision>((resolve) => {
      this.pending.set(id, resolve);
      signal.addEventListener('abort', () => {
        if (!this.pending.delete(id)) return;
        this.post({ type: 'withdrawn', id });
      });
    });
  }

  private show(event: LoopEvent): void {
    switch (event.kind) {
      case 'model-step':
        this.post({
          type: 'step',
          step: event.step,
          text: shown(event.text),
          inputTokens: event.inputTokens,
          outputTokens: event.outputTokens,
          durationMs: Math.round(event.durationMs),
        });
        return;
      case 'unknown-tool':
        this.post({
          type: 'note',
          text: vscode.l10n.t('The model called a tool that was not offered: {0}', shown(event.name)),
        });
        return;
      case 'call-decided':
        this.post({ type: 'decided', id: this.ids.get(event.call), run: event.decision.run });
        return;
      case 'call-started':
        this.post({ type: 'started', id: this.ids.get(event.call) });
        return;
      case 'call-ended':
        this.post({
          type: 'ended',
          id: this.ids.get(event.call),
          text: shown(event.text),
          isError: event.isError,
          durationMs: Math.round(event.durationMs),
        });
        return;
      default:
        return;
    }
  }
}

function pageBody(controllers: readonly ServerController[], model: EvalModel): string {
  const servers = controllers.map((controller) => escapeForDisplay(controller.name)).join(', ');
  const about = vscode.l10n.t(
    'Servers: {0} · Model: {1} ({2})',
    servers,
    escapeForDisplay(model.info.name),
    escapeForDisplay(model.info.providerLabel),
  );
  return `<header class="bar">
<h1>${escapeHtml(vscode.l10n.t('Try with a Model'))}</h1>
<p class="muted" id="about">${escapeHtml(about)}</p>
<p class="muted">${escapeHtml(vscode.l10n.t('Each tool call the model makes waits for your Allow. Requests and tool results are sent to this model.'))}</p>
</header>
<div id="log" role="log" aria-live="polite"></div>
<form id="composer">
<label for="request">${escapeHtml(vscode.l10n.t('Request'))}</label>
<textarea id="request" rows="3" placeholder="${escapeHtml(vscode.l10n.t('Ask the model something that needs the tools… (Ctrl+Enter sends)'))}"></textarea>
<div class="actions">
<button type="submit" id="send">${escapeHtml(vscode.l10n.t('Send'))}</button>
<button type="button" id="stop" class="secondary" disabled>${escapeHtml(vscode.l10n.t('Stop'))}</button>
</div>
</form>`;
}

function pageLabels(): Record<string, string> {
  return {
    you: vscode.l10n.t('You'),
    model: vscode.l10n.t('Model'),
    step: vscode.l10n.t('Step {0}: {1} input tokens, {2} output tokens, {3} ms'),
    unknownTokens: '?',
    call: vscode.l10n.t('Tool call: {0} on {1}'),
    allow: vscode.l10n.t('Allow'),
    allowAll: vscode.l10n.t('Allow all calls of this tool in this chat'),
    deny: vscode.l10n.t('Deny'),
    waiting: vscode.l10n.t('Waiting for your approval'),
    allowedAll: vscode.l10n.t('Allowed (all calls of this tool in this chat)'),
    denied: vscode.l10n.t('Denied: the model is told you declined'),
    running: vscode.l10n.t('Running…'),
    withdrawn: vscode.l10n.t('Not run: the request was stopped'),
    result: vscode.l10n.t('Result ({0} ms)'),
    errorResult: vscode.l10n.t('Error ({0} ms)'),
  };
}
