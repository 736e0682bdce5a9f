import type { CreateMessageRequest, CreateMessageResult, JsonObject } from '../../protocol/types';
import type { ChatMessage, ChatPart, ChatRequest, ChatResponse, ModelAbilities } from './chatModel';

interface MappedRequest {
  request: ChatRequest;
  /** Human-readable notes about parts the chosen model cannot take; shown in the review, never dropped silently. */
  unsupported: string[];
}

/** MCP sampling/createMessage → provider-neutral chat request (messages in order, system prompt, limits, tools). */
export function toChatRequest(params: CreateMessageRequest, abilities: ModelAbilities): MappedRequest {
  const unsupported: string[] = [];
  const messages: ChatMessage[] = params.messages.map((message, index) => {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    const parts: ChatPart[] = [];
    for (const block of blocks) {
      const part = toPart(block);
      if (!part) {
        unsupported.push(`message ${index + 1}: content of type "${String(block?.type)}" has no model equivalent`);
        continue;
      }
      if (part.kind === 'image' && !abilities.images)
        unsupported.push(`message ${index + 1}: an image (${part.mimeType}) — the model does not accept images`);
      if (part.kind === 'audio' && !abilities.audio)
        unsupported.push(`message ${index + 1}: audio (${part.mimeType}) — the model does not accept audio`);
      parts.push(part);
    }
    return { role: message.role, parts };
  });
  const request: ChatRequest = { messages, maxTokens: params.maxTokens };
  if (params.systemPrompt) request.systemPrompt = params.systemPrompt;
  if (typeof params.temperature === 'number') request.temperature = params.temperature;
  if (params.stopSequences?.length) request.stopSequences = [...params.stopSequences];
  if (params.tools?.length) {
    if (!abilities.tools)
      unsupported.push(`${params.tools.length} tool(s) offered by the server — the model does not support tool calls`);
    request.tools = params.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
    }));
    request.toolChoice = params.toolChoice?.mode ?? 'auto';
  }
  if (params.includeContext && params.includeContext !== 'none') {
    unsupported.push(
      `includeContext "${params.includeContext}" is not supported: no context from other servers is added`,
    );
  }
  return { request, unsupported };
}

function toPart(block: JsonObject | undefined): ChatPart | undefined {
  switch (block?.type) {
    case 'text':
      return { kind: 'text', text: String(block.text ?? '') };
    case 'image':
      return { kind: 'image', mimeType: String(block.mimeType ?? 'image/png'), data: String(block.data ?? '') };
    case 'audio':
      return { kind: 'audio', mimeType: String(block.mimeType ?? 'audio/wav'), data: String(block.data ?? '') };
    case 'tool_use':
      return {
        kind: 'tool-call',
        id: String(block.id),
        name: String(block.name),
        input: (block.input as Record<string, unknown>) ?? {},
      };
    case 'tool_result':
      return {
        kind: 'tool-result',
        toolCallId: String(block.toolUseId),
        text: toolResultText(block),
        isError: block.isError === true,
      };
    default:
      return undefined;
  }
}

export function toolResultText(block: JsonObject): string {
  const content = Array.isArray(block.content) ? (block.content as JsonObject[]) : [];
  const texts = content.map((item) => (item.type === 'text' ? String(item.text) : `[${String(item.type)} content]`));
  if (block.structuredContent !== undefined) texts.push(JSON.stringify(block.structuredContent));
  return texts.join('\n');
}

/** Provider response → MCP CreateMessageResult. Tool calls become tool_use blocks (stopReason toolUse). */
export function toCreateMessageResult(response: ChatResponse): CreateMessageResult {
  if (response.toolCalls.length > 0) {
    const content: JsonObject[] = [];
    if (response.text) content.push({ type: 'text', text: response.text });
    for (const call of response.toolCalls)
      content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input });
    return { role: 'assistant', content, model: response.model, stopReason: 'toolUse' };
  }
  const result: CreateMessageResult = {
    role: 'assistant',
    content: { type: 'text', text: response.text },
    model: response.model,
  };
  if (response.stopReason) result.stopReason = response.stopReason;
  return result;
}

/** A plain-text rendering of a chat request for logs and the history. */
export function describeChatRequest(request: ChatRequest): string {
  const lines: string[] = [];
  if (request.systemPrompt) lines.push(`system: ${request.systemPrompt}`);
  for (const message of request.messages) {
    for (const part of message.parts) {
      lines.push(`${message.role}: ${describePart(part)}`);
    }
  }
  return lines.join('\n');
}

function describePart(part: ChatPart): string {
  switch (part.kind) {
    case 'text':
      return part.text;
    case 'image':
      return `[image ${part.mimeType}, ${Math.round((part.data.length * 3) / 4)} bytes]`;
    case 'audio':
      return `[audio ${part.mimeType}, ${Math.round((part.data.length * 3) / 4)} bytes]`;
    case 'tool-call':
      return `[tool call ${part.name} ${JSON.stringify(part.input)}]`;
    case 'tool-result':
      return `[tool result for ${part.toolCallId}${part.isError ? ' (error)' : ''}] ${part.text}`;
    default: {
      const exhaustive: never = part;
      return String(exhaustive);
    }
  }
}
