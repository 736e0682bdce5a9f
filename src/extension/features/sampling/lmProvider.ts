import * as vscode from 'vscode';
import type { ChatModelProvider, ChatRequest, ChatResponse, ModelInfo } from '../../../workbench/sampling/chatModel';

/**
 * VS Code's Language Model API (`vscode.lm`) as a sampling provider: whatever chat models the person has
 * (Copilot and other extensions). VS Code 1.100's API carries text, tool calls and tool results only, so
 * images and audio are declared unsupported and the review names them (see mapping.ts).
 */
export class LanguageModelApiProvider implements ChatModelProvider {
  readonly id = 'vscode-lm';
  private readonly models = new Map<string, vscode.LanguageModelChat>();

  async listModels(): Promise<ModelInfo[]> {
    const available = await vscode.lm.selectChatModels();
    this.models.clear();
    return available.map((model) => {
      const id = `vscode-lm:${model.vendor}/${model.id}`;
      this.models.set(id, model);
      return {
        id,
        name: model.id,
        providerLabel: model.vendor,
        abilities: { images: false, audio: false, tools: true },
      };
    });
  }

  async complete(
    model: ModelInfo,
    request: ChatRequest,
    signal: AbortSignal,
    onText?: (delta: string) => void,
  ): Promise<ChatResponse> {
    const chat = this.models.get(model.id) ?? (await this.find(model.id));
    if (!chat) throw new Error(`language model ${model.id} is no longer available`);
    const messages = toLanguageModelMessages(request);
    const options: vscode.LanguageModelChatRequestOptions = {
      justification: vscode.l10n.t('An MCP server asked for a completion and you approved it.'),
      modelOptions: {
        max_tokens: request.maxTokens,
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(request.stopSequences?.length ? { stop: request.stopSequences } : {}),
      },
    };
    if (request.tools?.length && request.toolChoice !== 'none') {
      options.tools = request.tools.map((tool) => ({
        name: tool.name,
        description: tool.description ?? '',
        inputSchema: tool.inputSchema,
      }));
      options.toolMode =
        request.toolChoice === 'required'
          ? vscode.LanguageModelChatToolMode.Required
          : vscode.LanguageModelChatToolMode.Auto;
    }
    const cancellation = new vscode.CancellationTokenSource();
    const onAbort = () => cancellation.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await chat.sendRequest(messages, options, cancellation.token);
      let text = '';
      const toolCalls: ChatResponse['toolCalls'] = [];
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) {
          text += part.value;
          onText?.(part.value);
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          toolCalls.push({ id: part.callId, name: part.name, input: part.input as Record<string, unknown> });
        }
      }
      return { model: chat.id, text, toolCalls, stopReason: toolCalls.length ? 'toolUse' : 'endTurn' };
    } finally {
      signal.removeEventListener('abort', onAbort);
      cancellation.dispose();
    }
  }

  private async find(id: string): Promise<vscode.LanguageModelChat | undefined> {
    await this.listModels();
    return this.models.get(id);
  }
}

/** Provider-neutral messages → LanguageModelChatMessage. The API has no system role: it goes first as a user turn. */
function toLanguageModelMessages(request: ChatRequest): vscode.LanguageModelChatMessage[] {
  const messages: vscode.LanguageModelChatMessage[] = [];
  if (request.systemPrompt) messages.push(vscode.LanguageModelChatMessage.User(request.systemPrompt, 'system'));
  for (const message of request.messages) {
    if (message.role === 'user') {
      const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart)[] = [];
      for (const part of message.parts) {
        if (part.kind === 'text') parts.push(new vscode.LanguageModelTextPart(part.text));
        else if (part.kind === 'tool-result')
          parts.push(
            new vscode.LanguageModelToolResultPart(part.toolCallId, [new vscode.LanguageModelTextPart(part.text)]),
          );
        // Images and audio cannot be carried by the 1.100 API; the review listed them as unsupported.
      }
      if (parts.length) messages.push(vscode.LanguageModelChatMessage.User(parts));
    } else {
      const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] = [];
      for (const part of message.parts) {
        if (part.kind === 'text') parts.push(new vscode.LanguageModelTextPart(part.text));
        else if (part.kind === 'tool-call')
          parts.push(new vscode.LanguageModelToolCallPart(part.id, part.name, part.input));
      }
      if (parts.length) messages.push(vscode.LanguageModelChatMessage.Assistant(parts));
    }
  }
  return messages;
}
