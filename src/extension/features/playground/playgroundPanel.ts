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
import {
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS,
  requestWithAttachments,
  type Attachment,
} from '../../../workbench/evals/attachments';
import {
  ConversationBuilder,
  type ConversationCall,
  type ConversationRecord,
  type ConversationTurn,
} from '../../../workbench/evals/conversation';
import { boundText, StreamBound } from '../../../workbench/evals/textBounds';
import type { ChatMessage } from '../../../workbench/sampling/chatModel';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import type { Platform } from '../../platform/platform';
import type { ServerController } from '../../platform/servers/serverController';
import { openSidePanel } from '../../platform/webviews/sidePanel';
import { pickAttachment } from './attachmentPicker';
import { reviewResult } from './resultReview';
import { MAX_SHOWN_ANSWER_BYTES, MAX_SHOWN_RESULT_BYTES, pageBody, pageLabels } from './playgroundPage';

/** Messages from the page (media/playground/playground.js). */
type PageMessage =
  | { type: 'send'; text: string }
  | { type: 'stop' }
  | { type: 'decide'; id: number; decision: 'allow' | 'allowAll' | 'deny' }
  | { type: 'attach' }
  | { type: 'detach'; index: number }
  | { type: 'export' }
  | { type: 'saveEval' };

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
  private readonly recorded = new Map<LoopToolCall, ConversationCall | undefined>();
  /** What the next request carries. */
  private attachments: Attachment[] = [];
  private readonly builder: ConversationBuilder;
  /** The conversation's History entry, replaced after each request. */
  private historyId: number | undefined;
  private readonly answerBound = new StreamBound(MAX_SHOWN_ANSWER_BYTES);
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
    secrets: () => Promise<string[]>,
  ): PlaygroundPanel {
    const panel = openSidePanel(extensionUri, {
      viewType: 'mcpWorkbench.playground',
      title: vscode.l10n.t('Try with a Model: {0}', controllers.map((controller) => controller.name).join(', ')),
      body: pageBody(controllers, model),
      scripts: ['playground/playground.js'],
      styles: ['playground/playground.css'],
      state: { labels: pageLabels() },
    });
    return new PlaygroundPanel(panel, platform, controllers, model, secrets);
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly platform: Platform,
    readonly controllers: readonly ServerController[],
    readonly model: EvalModel,
    /** The model keys, masked in History and exports with the servers' own secrets. */
    private readonly modelKeys: () => Promise<string[]>,
  ) {
    this.builder = new ConversationBuilder(
      { id: model.info.id, name: model.info.name, provider: model.info.providerLabel },
      controllers.map((controller) => controller.name),
      Date.now(),
    );
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

  /** The conversation so far (History and the exports keep it masked). */
  get conversationRecord(): ConversationRecord {
    return this.builder.record;
  }

  private receive(message: PageMessage): void {
    switch (message.type) {
      case 'attach':
        void this.attach();
        return;
      case 'detach':
        if (Number.isInteger(message.index)) this.attachments.splice(message.index, 1);
        this.postAttachments();
        return;
      case 'export':
        void vscode.commands.executeCommand('mcpWorkbench.exportConversation', { conversation: this.builder.record });
        return;
      case 'saveEval':
        void this.saveAsEval();
        return;
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

  /** Save as Eval (its code, with the JSONC editing, loads when first used). */
  async saveAsEval(presetFile?: string): Promise<vscode.Uri | undefined> {
    const { saveAsEval } = await import('./saveAsEval.js');
    return saveAsEval(this.builder.record, presetFile);
  }

  /** Attach… (or, from a test, the attachment itself). */
  async attach(given?: Attachment): Promise<void> {
    if (this.attachments.length >= MAX_ATTACHMENTS) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('A request carries at most {0} attachments.', MAX_ATTACHMENTS),
      );
      return;
    }
    const attachment = given ?? (await pickAttachment(this.platform, this.controllers));
    if (!attachment || this.disposed) return;
    this.attachments.push(attachment);
    this.postAttachments();
  }

  private postAttachments(): void {
    this.post({ type: 'attachments', items: this.shownAttachments(this.attachments) });
  }

  private shownAttachments(attachments: readonly Attachment[]): Record<string, unknown>[] {
    return attachments.map((item) => ({
      kind: item.kind,
      label: shown(item.label),
      server: shown(item.server),
      bytes: item.bytes,
      cut: item.cut,
      capKb: MAX_ATTACHMENT_BYTES / 1024,
    }));
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
    const attachments = this.attachments;
    this.post({ type: 'user', text: shown(text), attachments: this.shownAttachments(attachments) });
    this.attachments = [];
    this.postAttachments();
    this.conversation.push({
      role: 'user',
      parts: [{ kind: 'text', text: requestWithAttachments(text, attachments) }],
    });
    this.builder.begin(
      text,
      attachments.map(({ kind, server, label, bytes, cut }) => ({ kind, server, label, bytes, cut })),
      Date.now(),
    );
    this.answerBound.reset();
    let outcome: ConversationTurn['outcome'] = 'failed';
    let answer: string | undefined;
    let failure: string | undefined;
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
      const result = await runToolLoop({
        model: this.model,
        toolset,
        messages: this.conversation,
        maxTokens: MAX_TOKENS,
        maxSteps: MAX_STEPS,
        signal: stop.signal,
        decide: (call, signal) => this.approval(call, signal),
        // A tool whose agent rule is Review Result has its result shown to the person before the model reads it.
        review: (call, result, signal) => {
          const controller = byName.get(call.server.serverName);
          const rule = controller ? policies.rule(controller.identityKey, call.tool.name) : undefined;
          return rule?.policy === 'review' ? this.review(call, result, signal) : Promise.resolve(true);
        },
        onText: (delta) => this.streamed(delta),
        onEvent: (event) => this.show(event),
      });
      answer = result.answer;
      outcome = result.interrupted ? 'stopped' : result.stepCapReached ? 'step-cap' : 'answered';
      if (result.interrupted) this.post({ type: 'note', text: vscode.l10n.t('Stopped.') });
      else if (result.stepCapReached)
        this.post({
          type: 'note',
          text: vscode.l10n.t('Stopped after {0} model calls without a final answer.', MAX_STEPS),
        });
    } catch (error) {
      outcome = stop.signal.aborted ? 'stopped' : 'failed';
      failure = stop.signal.aborted ? undefined : errorMessage(error);
      this.post({
        type: 'error',
        text: stop.signal.aborted ? vscode.l10n.t('Stopped.') : shown(errorMessage(error)),
      });
    } finally {
      // Nothing stays pending: an approval the run no longer waits for is withdrawn from the page.
      for (const [id, resolve] of this.pending) {
        resolve({ run: false, reason: DECLINED });
        this.post({ type: 'withdrawn', id });
      }
      this.pending.clear();
      this.builder.finish(outcome, answer, failure);
      // Still `running` while History is written: a Send meanwhile would start a turn before this one is recorded.
      await this.recordHistory().catch((error: unknown) =>
        this.platform.ownLog.warn(
          `The playground could not record its conversation in History: ${errorMessage(error)}`,
        ),
      );
      this.running = undefined;
      this.post({ type: 'busy', busy: false });
      this.post({ type: 'ran', saveable: this.builder.lastTurn()?.calls.length !== 0 });
    }
  }

  /** The model's streamed text, shown up to the panel's cap (said once when it is reached). */
  private streamed(delta: string): void {
    const { text, cutNow } = this.answerBound.take(delta);
    if (text) this.post({ type: 'delta', text: shown(text) });
    if (cutNow) this.post({ type: 'answerCut' });
  }

  /** The conversation as one History entry, masked with the servers' secrets and the model keys. */
  private async recordHistory(): Promise<void> {
    const record = this.builder.record;
    const secrets = [
      ...this.controllers.flatMap((controller) => controller.knownSecrets()),
      ...(await this.modelKeys().catch(() => [])),
    ];
    const first = this.controllers[0];
    if (!first) return;
    this.historyId = this.platform.historyRecorder.recordConversation(
      this.historyId,
      {
        server: { id: first.id, name: first.name },
        startedAt: record.startedAt,
        durationMs: Date.now() - record.startedAt,
        operation: {
          kind: 'conversation',
          model: record.model.name,
          servers: [...record.servers],
          requests: record.turns.length + (record.turnsLeftOut ?? 0),
          title: record.turns[0]?.request.split('\n', 1)[0] ?? '',
        },
        outcome:
          record.turns.at(-1)?.outcome === 'failed'
            ? { kind: 'failed', message: record.turns.at(-1)?.error ?? '' }
            : { kind: 'succeeded' },
        result: record,
      },
      secrets,
    );
  }

  /** Review Result's question; a result withheld is marked so on its card and in the record (History, exports). */
  private async review(
    call: LoopToolCall,
    result: { text: string; isError: boolean },
    signal: AbortSignal,
  ): Promise<boolean> {
    const send = await reviewResult(call, result, signal);
    if (!send && !signal.aborted) {
      ConversationBuilder.withheld(this.recorded.get(call));
      this.post({ type: 'withheld', id: this.ids.get(call) });
    }
    return send;
  }

  private approval(call: LoopToolCall, signal: AbortSignal): CallDecision | Promise<CallDecision> {
    const id = this.nextId++;
    this.ids.set(call, id);
    this.recorded.set(call, this.builder.call(call.server.serverName, call.tool.name, call.arguments));
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
        this.answerBound.reset();
        this.post({
          type: 'step',
          step: event.step,
          text: shown(boundText(event.text, MAX_SHOWN_ANSWER_BYTES).text),
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
        if (!event.decision.run) ConversationBuilder.denied(this.recorded.get(event.call));
        this.post({ type: 'decided', id: this.ids.get(event.call), run: event.decision.run });
        return;
      case 'call-started':
        this.post({ type: 'started', id: this.ids.get(event.call) });
        return;
      case 'call-ended':
        ConversationBuilder.ended(
          this.recorded.get(event.call),
          event.text,
          event.isError,
          Math.round(event.durationMs),
        );
        this.post({
          type: 'ended',
          id: this.ids.get(event.call),
          text: shown(boundText(event.text, MAX_SHOWN_RESULT_BYTES).text),
          isError: event.isError,
          durationMs: Math.round(event.durationMs),
        });
        return;
      default:
        return;
    }
  }
}
