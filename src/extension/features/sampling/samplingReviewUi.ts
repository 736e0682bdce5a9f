import type { CreateMessageRequest } from '../../../protocol/types';
import type { ChatPart, ChatRequest, ChatResponse } from '../../../workbench/sampling/chatModel';
import type {
  RequestDecision,
  ResponseDecision,
  SamplingReview,
  SamplingReviewer,
} from '../../../workbench/sampling/coordinator';
import type { ReviewQueue } from '../../../workbench/sampling/reviewQueue';
import { relatedTaskOf, type TaskToolLookup } from '../../../workbench/tasks/relatedTask';
import type {
  ActiveItem,
  ReviewMessage,
  ReviewPanel,
  SamplingRequestView,
  SamplingResponseView,
  ViewPart,
} from '../../platform/webviews/reviewPanel';

interface Session {
  release: () => void;
  item?: ActiveItem;
  /** The model failed after approval: the error stays on the panel (as a notice) after the request settles. */
  failed?: boolean;
}

/**
 * The person's side of sampling, shown in the review panel. A review holds the panel from the request until
 * its queue entry leaves (answer approved or rejected, model error, or the server's cancellation), so an
 * elicitation cannot slip in between a request and its answer.
 */
export class SamplingReviewUi implements SamplingReviewer {
  /** Keyed by the original MCP request, which the request review and the answer review share. */
  private readonly sessions = new Map<CreateMessageRequest, Session>();

  constructor(
    private readonly panel: ReviewPanel,
    /** The tool whose call made a task of that server, when this client made the call. */
    private readonly taskTool?: TaskToolLookup,
  ) {}

  /** Follows the coordinator's queue: when an entry leaves, its panel item goes and the panel is freed. */
  attach(queue: ReviewQueue<SamplingReview>): void {
    addQueueSource(this.panel, queue);
    queue.onDidChange(() => {
      const panel = this.panel;
      const present = new Set(queue.list().map((entry) => entry.payload.original));
      for (const [original, session] of this.sessions) {
        if (present.has(original)) continue;
        this.sessions.delete(original);
        if (session.item && !session.failed) panel.withdraw(session.item);
        session.release();
      }
      panel.refresh();
    });
  }

  async reviewRequest(review: SamplingReview, signal: AbortSignal): Promise<RequestDecision> {
    const session = await this.session(review, signal);
    const view = requestView(review, this.taskTool);
    return this.ask<RequestDecision>(session, view, signal, (message, resolve) => {
      if (message.type === 'approve-request') {
        resolve({
          kind: 'approve',
          request: applyEdits(review.request, message),
          modelId: review.models.some((model) => model.id === message.modelId) ? message.modelId : review.model.id,
          policy: message.policy !== view.policy ? message.policy : undefined,
        });
      } else if (message.type === 'reject-request') {
        resolve({ kind: 'reject', policy: message.policy !== view.policy ? message.policy : undefined });
      } else if (message.type === 'closed') {
        resolve({ kind: 'reject' });
      }
    });
  }

  modelText(review: SamplingReview, delta: string): void {
    const session = this.sessions.get(review.original);
    if (!session?.item) return;
    const current = session.item.view;
    if (current.kind === 'sampling-response') {
      this.panel.update(session.item, { ...current, text: current.text + delta });
    }
  }

  /**
   * The model failed after the person approved: the panel stops "answering…" and shows the error as the
   * endpoint gave it. The request settles (the server gets the error); the notice stays until dismissed or
   * replaced by the next item.
   */
  modelFailed(review: SamplingReview, error: string): void {
    const session = this.sessions.get(review.original);
    const item = session?.item;
    if (!session || !item) return;
    session.failed = true;
    const current = item.view;
    const view: SamplingResponseView = {
      kind: 'sampling-response',
      serverName: review.serverName,
      model: current.kind === 'sampling-response' ? current.model : review.model.name,
      text: current.kind === 'sampling-response' ? current.text : '',
      streaming: false,
      error,
    };
    item.onMessage = (message) => {
      if (
        message.type === 'dismiss' ||
        message.type === 'closed' ||
        message.type === 'reject-response' ||
        message.type === 'approve-response'
      )
        this.panel.withdraw(item);
    };
    this.panel.update(item, view);
  }

  async reviewResponse(review: SamplingReview, response: ChatResponse, signal: AbortSignal): Promise<ResponseDecision> {
    const session = await this.session(review, signal);
    const tokens = response.usage
      ? `${response.usage.inputTokens ?? '?'} / ${response.usage.outputTokens ?? '?'}`
      : undefined;
    const view: SamplingResponseView = {
      kind: 'sampling-response',
      serverName: review.serverName,
      model: response.model,
      // Only the text is editable; the tool calls are shown beside it and always kept.
      text: response.text,
      streaming: false,
      usage: tokens,
    };
    if (response.toolCalls.length)
      view.toolCalls = response.toolCalls.map((call) => `${call.name} ${JSON.stringify(call.input)}`);
    return this.ask<ResponseDecision>(session, view, signal, (message, resolve) => {
      if (message.type === 'approve-response') resolve({ kind: 'approve', text: message.text });
      else if (message.type === 'reject-response' || message.type === 'closed') resolve({ kind: 'reject' });
    });
  }

  private async session(review: SamplingReview, signal: AbortSignal): Promise<Session> {
    const existing = this.sessions.get(review.original);
    if (existing) return existing;
    const release = await this.panel.acquire(signal);
    const session: Session = { release };
    this.sessions.set(review.original, session);
    return session;
  }

  private ask<T>(
    session: Session,
    view: SamplingRequestView | SamplingResponseView,
    signal: AbortSignal,
    decide: (message: ReviewMessage, resolve: (value: T) => void) => void,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const item: ActiveItem = {
        view,
        onMessage: (message) =>
          decide(message, (value) => {
            signal.removeEventListener('abort', onAbort);
            if (message.type === 'approve-request') {
              // While the model answers, the panel shows its streamed text.
              const streamingView: SamplingResponseView = {
                kind: 'sampling-response',
                serverName: view.serverName,
                model: modelLabel(view, message),
                text: '',
                streaming: true,
              };
              this.panel.update(item, streamingView);
              item.onMessage = () => undefined;
            } else {
              this.panel.withdraw(item);
            }
            resolve(value);
          }),
      };
      const onAbort = () => {
        this.panel.withdraw(item);
        reject(new Error('cancelled'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      session.item = item;
      this.panel.present(item);
    });
  }
}

function modelLabel(view: SamplingRequestView | SamplingResponseView, message: ReviewMessage): string {
  if (view.kind !== 'sampling-request') return view.model;
  const id = message.type === 'approve-request' ? message.modelId : view.modelId;
  return view.models.find((model) => model.id === id)?.label ?? id;
}

function requestView(review: SamplingReview, taskTool: TaskToolLookup | undefined): SamplingRequestView {
  // Sampling a task needs (2025-11-25 related-task tag) names the task in the title.
  const task = relatedTaskOf(review.original, (taskId) => taskTool?.(review.serverName, taskId));
  return {
    ...(task ? { task } : {}),
    kind: 'sampling-request',
    serverName: review.serverName,
    systemPrompt: review.request.systemPrompt,
    messages: review.request.messages.map((message) => ({ role: message.role, parts: message.parts.map(viewPart) })),
    models: review.models.map((model) => ({ id: model.id, label: `${model.name} (${model.providerLabel})` })),
    modelId: review.model.id,
    maxTokens: review.request.maxTokens,
    temperature: review.request.temperature,
    stopSequences: review.request.stopSequences ?? [],
    unsupported: review.unsupported,
    policy: 'ask',
  };
}

function viewPart(part: ChatPart): ViewPart {
  switch (part.kind) {
    case 'text':
      return { kind: 'text', text: part.text };
    case 'image':
      return { kind: 'image', mimeType: part.mimeType, data: part.data };
    case 'audio':
      return { kind: 'other', description: `[audio ${part.mimeType}]` };
    case 'tool-call':
      return { kind: 'other', description: `[tool call ${part.name} ${JSON.stringify(part.input)}]` };
    case 'tool-result':
      return { kind: 'other', description: `[tool result ${part.toolCallId}] ${part.text}` };
    default: {
      const exhaustive: never = part;
      return exhaustive;
    }
  }
}

/** The request as the person left it: edited texts, system prompt and limits. */
export function applyEdits(
  request: ChatRequest,
  message: Extract<ReviewMessage, { type: 'approve-request' }>,
): ChatRequest {
  const messages = request.messages.map((chatMessage, messageIndex) => ({
    ...chatMessage,
    parts: chatMessage.parts.map((part, partIndex): ChatPart => {
      const edited = message.texts[messageIndex]?.[partIndex];
      return part.kind === 'text' && typeof edited === 'string' ? { kind: 'text', text: edited } : part;
    }),
  }));
  const edited: ChatRequest = { ...request, messages };
  if (message.systemPrompt !== undefined) {
    if (message.systemPrompt) edited.systemPrompt = message.systemPrompt;
    else delete edited.systemPrompt;
  }
  if (Number.isInteger(message.maxTokens) && message.maxTokens > 0) edited.maxTokens = message.maxTokens;
  if (typeof message.temperature === 'number' && Number.isFinite(message.temperature))
    edited.temperature = message.temperature;
  else delete edited.temperature;
  const stops = message.stopSequences.filter((stop) => stop.length > 0);
  if (stops.length) edited.stopSequences = stops;
  else delete edited.stopSequences;
  return edited;
}

function addQueueSource(panel: ReviewPanel, queue: ReviewQueue<SamplingReview>): void {
  panel.addWaitingSource(() => queue.size);
}
