import { ErrorCodes, McpError, errorMessage } from '../../protocol/errors';
import type { RequestContext, SamplingHandler } from '../../protocol/host';
import type { CreateMessageRequest, CreateMessageResult } from '../../protocol/types';
import type { ChatModelProvider, ChatRequest, ChatResponse, ModelInfo } from './chatModel';
import { describeChatRequest, toChatRequest, toCreateMessageResult } from './mapping';
import { chooseModel } from './modelSelection';
import type { SamplingPolicies, SamplingPolicy } from './policy';
import { ReviewQueue } from './reviewQueue';

/**
 * Routes a server's sampling/createMessage to a model while a person stays in control: nothing is sent
 * without consent (unless the person pre-approved the server), the person can edit the request and switch
 * the model, and sees the answer before the server does. Automatic approval still records every exchange.
 */

/**
 * The request's context as the host hands it over: `serverKey` is the identity of the server's definition (see
 * serverIdentity.ts). Policies, model allow-lists and the per-server review cap are keyed by it; hosts that know
 * only names (the CLI) leave it out and the name stands in.
 */
export interface SamplingRequestContext extends RequestContext {
  serverKey?: string;
}

export interface SamplingReview {
  serverName: string;
  /** The identity policies are stored under (the name when the host gave none). */
  serverKey: string;
  request: ChatRequest;
  /** The original MCP request, for display. */
  original: CreateMessageRequest;
  model: ModelInfo;
  models: ModelInfo[];
  /** Parts the chosen model cannot take, named for the person. */
  unsupported: string[];
}

export type RequestDecision =
  | { kind: 'approve'; request: ChatRequest; modelId: string; policy?: SamplingPolicy }
  | { kind: 'reject'; policy?: SamplingPolicy };

export type ResponseDecision = { kind: 'approve'; text: string } | { kind: 'reject' };

/** The person's side, implemented by the host's UI. Calls are serialised through the review queue. */
export interface SamplingReviewer {
  reviewRequest(review: SamplingReview, signal: AbortSignal): Promise<RequestDecision>;
  reviewResponse(review: SamplingReview, response: ChatResponse, signal: AbortSignal): Promise<ResponseDecision>;
  /** Streamed text while the model answers, for a live view. */
  modelText?(review: SamplingReview, delta: string): void;
  /** The approved request failed at the model (endpoint error, network): shown to the person, then settled. */
  modelFailed?(review: SamplingReview, error: string): void;
}

export type SamplingOutcome =
  'approved' | 'auto-approved' | 'rejected-request' | 'rejected-response' | 'blocked' | 'cancelled' | 'failed';

export interface SamplingRecord {
  serverName: string;
  time: number;
  model?: string;
  outcome: SamplingOutcome;
  inputTokens?: number;
  outputTokens?: number;
  /** Plain-text request and response, for the history view and the log. */
  requestText: string;
  responseText?: string;
  /** Set when the reviewer edited the request before it went to the model: the server's request as it came. */
  originalRequestText?: string;
  /** Set when the reviewer edited the model's answer: the model's answer as it came (responseText is what was sent). */
  modelResponseText?: string;
  error?: string;
}

interface SamplingCoordinatorOptions {
  providers: () => ChatModelProvider[];
  /** Model ids the person allowed for a server (by its identity key); undefined means every available model. */
  allowedModels?: (serverKey: string) => readonly string[] | undefined;
  policies: SamplingPolicies;
  reviewer: SamplingReviewer;
  record?: (record: SamplingRecord) => void;
  supportsTools?: boolean;
}

interface ModelChoice {
  model: ModelInfo;
  provider: ChatModelProvider;
}

export class SamplingCoordinator implements SamplingHandler {
  readonly queue = new ReviewQueue<SamplingReview>();
  readonly supportsTools: boolean;

  constructor(private readonly options: SamplingCoordinatorOptions) {
    this.supportsTools = options.supportsTools ?? true;
  }

  async createMessage(params: CreateMessageRequest, context: SamplingRequestContext): Promise<CreateMessageResult> {
    const { serverName, signal } = context;
    const serverKey = context.serverKey ?? serverName;
    const policy = this.options.policies.get(serverKey);
    const baseRecord = { serverName, time: Date.now(), requestText: '' };
    if (policy === 'never') {
      this.record({ ...baseRecord, outcome: 'blocked', requestText: summarise(params) });
      throw new McpError(ErrorCodes.UserRejected, `sampling is blocked for ${serverName} by the user's policy`);
    }
    // A flood is refused before any model is listed for it.
    if (!this.options.policies.isPreApproved(serverKey)) this.queue.assertRoomFor(serverName, serverKey);
    const choices = await this.availableModels(serverKey, signal);
    const preferred = chooseModel(
      choices.map((choice) => choice.model),
      params.modelPreferences,
    );
    if (!preferred) {
      this.record({ ...baseRecord, outcome: 'failed', requestText: summarise(params), error: 'no model available' });
      throw new McpError(
        ErrorCodes.InternalError,
        'no language model is available for sampling: configure one (VS Code chat model or an OpenAI-compatible endpoint) and allow it for this server',
      );
    }
    const mapped = toChatRequest(params, preferred.abilities);
    const review: SamplingReview = {
      serverName,
      serverKey,
      request: mapped.request,
      original: params,
      model: preferred,
      models: choices.map((choice) => choice.model),
      unsupported: mapped.unsupported,
    };
    const requestText = describeChatRequest(mapped.request);
    try {
      if (this.options.policies.isPreApproved(serverKey)) {
        const response = await this.runModel(this.choiceFor(choices, preferred.id), mapped.request, review, signal);
        this.record({
          ...baseRecord,
          outcome: 'auto-approved',
          model: response.model,
          requestText,
          responseText: response.text,
          ...usage(response),
        });
        return toCreateMessageResult(response);
      }
      return await this.queue.run(
        serverName,
        review,
        signal,
        (reviewSignal) => this.reviewed(review, choices, reviewSignal, baseRecord),
        serverKey,
      );
    } catch (error) {
      if (error instanceof McpError) throw error;
      const cancelled = signal.aborted;
      this.record({
        ...baseRecord,
        outcome: cancelled ? 'cancelled' : 'failed',
        requestText,
        error: errorMessage(error),
      });
      if (cancelled) throw error;
      throw new McpError(ErrorCodes.InternalError, `sampling failed: ${errorMessage(error)}`);
    }
  }

  private async reviewed(
    review: SamplingReview,
    choices: ModelChoice[],
    signal: AbortSignal,
    base: { serverName: string; time: number },
  ): Promise<CreateMessageResult> {
    const decision = await this.options.reviewer.reviewRequest(review, signal);
    if (decision.policy) await this.options.policies.set(review.serverKey, decision.policy);
    const requestText = describeChatRequest(review.request);
    if (decision.kind === 'reject') {
      this.record({ ...base, outcome: 'rejected-request', requestText });
      throw new McpError(ErrorCodes.UserRejected, 'the user rejected the sampling request');
    }
    const choice = this.choiceFor(choices, decision.modelId);
    const finalReview: SamplingReview = { ...review, request: decision.request, model: choice.model };
    let response: ChatResponse;
    try {
      response = await this.runModel(choice, decision.request, finalReview, signal);
    } catch (error) {
      if (!signal.aborted) this.options.reviewer.modelFailed?.(finalReview, errorMessage(error));
      throw error;
    }
    const verdict = await this.options.reviewer.reviewResponse(finalReview, response, signal);
    const sentText = describeChatRequest(decision.request);
    if (verdict.kind === 'reject') {
      this.record({
        ...base,
        outcome: 'rejected-response',
        model: response.model,
        requestText: sentText,
        responseText: response.text,
        ...(sentText !== requestText ? { originalRequestText: requestText } : {}),
        ...usage(response),
      });
      throw new McpError(ErrorCodes.UserRejected, 'the user rejected the model response');
    }
    // The person's text replaces the model's; tool calls the model asked for are kept (tool-loop rules).
    const finalResponse: ChatResponse = { ...response, text: verdict.text };
    this.record({
      ...base,
      outcome: 'approved',
      model: response.model,
      requestText: sentText,
      responseText: verdict.text,
      ...(sentText !== requestText ? { originalRequestText: requestText } : {}),
      ...(verdict.text !== response.text ? { modelResponseText: response.text } : {}),
      ...usage(response),
    });
    return toCreateMessageResult(finalResponse);
  }

  private async runModel(
    choice: ModelChoice,
    request: ChatRequest,
    review: SamplingReview,
    signal: AbortSignal,
  ): Promise<ChatResponse> {
    const onText = this.options.reviewer.modelText
      ? (delta: string) => this.options.reviewer.modelText?.(review, delta)
      : undefined;
    return choice.provider.complete(choice.model, request, signal, onText);
  }

  private choiceFor(choices: ModelChoice[], modelId: string): ModelChoice {
    const choice = choices.find((candidate) => candidate.model.id === modelId);
    if (!choice) throw new McpError(ErrorCodes.InternalError, `model ${modelId} is not available`);
    return choice;
  }

  private async availableModels(serverKey: string, signal: AbortSignal): Promise<ModelChoice[]> {
    const allowed = this.options.allowedModels?.(serverKey);
    const choices: ModelChoice[] = [];
    for (const provider of this.options.providers()) {
      let models: ModelInfo[];
      try {
        models = await provider.listModels(signal);
      } catch {
        continue; // one broken provider must not hide the others
      }
      for (const model of models) {
        if (!allowed || allowed.includes(model.id)) choices.push({ model, provider });
      }
    }
    return choices;
  }

  private record(record: SamplingRecord): void {
    this.options.record?.(record);
  }

  dispose(): void {
    this.queue.dispose();
  }
}

function usage(response: ChatResponse): { inputTokens?: number; outputTokens?: number } {
  return { inputTokens: response.usage?.inputTokens, outputTokens: response.usage?.outputTokens };
}

function summarise(params: CreateMessageRequest): string {
  return `${params.messages.length} message(s), maxTokens ${params.maxTokens}`;
}
