import { SseParser } from '../../protocol/transports/sseParser';
import type { ChatModelProvider, ChatPart, ChatRequest, ChatResponse, ModelInfo } from './chatModel';

/**
 * Any OpenAI-compatible chat-completions endpoint: hosted APIs and local servers such as Ollama, LM Studio,
 * llama.cpp and vLLM. Responses are streamed; an error from the endpoint is reported with its status and body.
 */

interface OpenAiEndpoint {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Whether the model takes images/audio/tools; unknown local models default to text + tools. */
  images?: boolean;
  audio?: boolean;
  tools?: boolean;
  stream?: boolean;
  fetch?: typeof fetch;
}

export class ModelEndpointError extends Error {
  override readonly name = 'ModelEndpointError';
  constructor(
    message: string,
    readonly status?: number,
    readonly body?: string,
  ) {
    super(message);
  }
}

type WireContent = string | { type: string; [key: string]: unknown }[];
interface WireMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: WireContent | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export class OpenAiCompatibleProvider implements ChatModelProvider {
  readonly id: string;

  constructor(private readonly endpoint: OpenAiEndpoint) {
    this.id = `openai:${endpoint.baseUrl}#${endpoint.model}`;
  }

  async listModels(): Promise<ModelInfo[]> {
    return [
      {
        id: this.id,
        name: this.endpoint.model,
        providerLabel: new URL(this.endpoint.baseUrl).host,
        abilities: {
          images: this.endpoint.images ?? false,
          audio: this.endpoint.audio ?? false,
          tools: this.endpoint.tools ?? true,
        },
      },
    ];
  }

  async complete(
    model: ModelInfo,
    request: ChatRequest,
    signal: AbortSignal,
    onText?: (delta: string) => void,
  ): Promise<ChatResponse> {
    const stream = this.endpoint.stream ?? true;
    const body: Record<string, unknown> = {
      model: this.endpoint.model,
      messages: toWireMessages(request),
      max_tokens: request.maxTokens,
      stream,
    };
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.stopSequences?.length) body.stop = request.stopSequences;
    if (request.tools?.length && model.abilities.tools) {
      body.tools = request.tools.map((tool) => ({
        type: 'function',
        function: { name: tool.name, description: tool.description ?? '', parameters: tool.inputSchema },
      }));
      body.tool_choice =
        request.toolChoice === 'required' ? 'required' : request.toolChoice === 'none' ? 'none' : 'auto';
    }
    const url = `${this.endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: stream ? 'text/event-stream' : 'application/json',
    };
    if (this.endpoint.apiKey) headers.Authorization = `Bearer ${this.endpoint.apiKey}`;
    let response: Response;
    try {
      response = await (this.endpoint.fetch ?? fetch)(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new ModelEndpointError(`cannot reach the model endpoint ${url}: ${(error as Error).message}`);
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      throw new ModelEndpointError(
        `the model endpoint answered HTTP ${response.status} ${response.statusText}: ${text.slice(0, 2000)}`,
        response.status,
        text,
      );
    }
    const contentType = response.headers.get('content-type') ?? '';
    if (contentType.includes('text/event-stream')) return readStream(response, this.endpoint.model, onText);
    const json = (await response.json()) as CompletionJson;
    return fromCompletion(json, this.endpoint.model, onText);
  }
}

function toWireMessages(request: ChatRequest): WireMessage[] {
  const wire: WireMessage[] = [];
  if (request.systemPrompt) wire.push({ role: 'system', content: request.systemPrompt });
  for (const message of request.messages) {
    const toolResults = message.parts.filter(
      (part): part is Extract<ChatPart, { kind: 'tool-result' }> => part.kind === 'tool-result',
    );
    for (const result of toolResults) {
      wire.push({
        role: 'tool',
        tool_call_id: result.toolCallId,
        content: result.isError ? `Error: ${result.text}` : result.text,
      });
    }
    const others = message.parts.filter((part) => part.kind !== 'tool-result');
    if (others.length === 0) continue;
    const toolCalls = others.filter(
      (part): part is Extract<ChatPart, { kind: 'tool-call' }> => part.kind === 'tool-call',
    );
    const content = others.flatMap((part) => toWireContent(part));
    const entry: WireMessage = {
      role: message.role,
      content:
        content.length === 1 && content[0].type === 'text' ? String(content[0].text) : content.length ? content : null,
    };
    if (toolCalls.length) {
      entry.tool_calls = toolCalls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.input) },
      }));
    }
    wire.push(entry);
  }
  return wire;
}

function toWireContent(part: ChatPart): { type: string; [key: string]: unknown }[] {
  switch (part.kind) {
    case 'text':
      return [{ type: 'text', text: part.text }];
    case 'image':
      return [{ type: 'image_url', image_url: { url: `data:${part.mimeType};base64,${part.data}` } }];
    case 'audio':
      return [
        {
          type: 'input_audio',
          input_audio: {
            data: part.data,
            format: part.mimeType.includes('mp3') || part.mimeType.includes('mpeg') ? 'mp3' : 'wav',
          },
        },
      ];
    case 'tool-call':
    case 'tool-result':
      return [];
    default: {
      const exhaustive: never = part;
      return [exhaustive];
    }
  }
}

interface CompletionJson {
  model?: string;
  choices?: { message?: { content?: string | null; tool_calls?: WireToolCall[] }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
  error?: { message?: string };
}

interface WireToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

function fromCompletion(json: CompletionJson, fallbackModel: string, onText?: (delta: string) => void): ChatResponse {
  if (json.error)
    throw new ModelEndpointError(
      `the model endpoint reported an error: ${json.error.message ?? JSON.stringify(json.error)}`,
    );
  const choice = json.choices?.[0];
  if (!choice) throw new ModelEndpointError('the model endpoint returned no choices');
  const text = choice.message?.content ?? '';
  if (text) onText?.(text);
  return {
    model: json.model ?? fallbackModel,
    text,
    toolCalls: (choice.message?.tool_calls ?? []).map(parseToolCall),
    stopReason: mapFinishReason(choice.finish_reason),
    usage: json.usage
      ? { inputTokens: json.usage.prompt_tokens, outputTokens: json.usage.completion_tokens }
      : undefined,
  };
}

async function readStream(
  response: Response,
  fallbackModel: string,
  onText?: (delta: string) => void,
): Promise<ChatResponse> {
  let model = fallbackModel;
  let text = '';
  let finish: string | null | undefined;
  let usage: ChatResponse['usage'];
  const calls = new Map<number, { id: string; name: string; args: string }>();
  let streamError: string | undefined;
  const parser = new SseParser({
    event: (event) => {
      if (!event.data || event.data === '[DONE]') return;
      let chunk: CompletionChunk;
      try {
        chunk = JSON.parse(event.data) as CompletionChunk;
      } catch {
        streamError = `the model endpoint streamed invalid JSON: ${event.data.slice(0, 200)}`;
        return;
      }
      if (chunk.error) {
        streamError = `the model endpoint reported an error: ${chunk.error.message ?? JSON.stringify(chunk.error)}`;
        return;
      }
      if (chunk.model) model = chunk.model;
      if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
      const choice = chunk.choices?.[0];
      if (!choice) return;
      const delta = choice.delta?.content;
      if (delta) {
        text += delta;
        onText?.(delta);
      }
      for (const call of choice.delta?.tool_calls ?? []) {
        const index = call.index ?? 0;
        const entry = calls.get(index) ?? { id: '', name: '', args: '' };
        if (call.id) entry.id = call.id;
        if (call.function?.name) entry.name += call.function.name;
        if (call.function?.arguments) entry.args += call.function.arguments;
        calls.set(index, entry);
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    },
  });
  if (!response.body) throw new ModelEndpointError('the model endpoint sent no body');
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.push(value);
  }
  parser.end();
  if (streamError) throw new ModelEndpointError(streamError);
  return {
    model,
    text,
    toolCalls: [...calls.values()].map((call, i) =>
      parseToolCall({ id: call.id || `call_${i}`, function: { name: call.name, arguments: call.args } }),
    ),
    stopReason: mapFinishReason(finish),
    usage,
  };
}

interface CompletionChunk {
  model?: string;
  choices?: { delta?: { content?: string | null; tool_calls?: WireToolCall[] }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
  error?: { message?: string };
}

function parseToolCall(call: WireToolCall): ChatResponse['toolCalls'][number] {
  let input: Record<string, unknown> = {};
  const raw = call.function?.arguments ?? '';
  if (raw.trim()) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) input = parsed as Record<string, unknown>;
    } catch {
      throw new ModelEndpointError(`the model produced tool arguments that are not JSON: ${raw.slice(0, 200)}`);
    }
  }
  return { id: call.id ?? '', name: call.function?.name ?? '', input };
}

function mapFinishReason(reason: string | null | undefined): ChatResponse['stopReason'] {
  switch (reason) {
    case 'stop':
      return 'endTurn';
    case 'length':
      return 'maxTokens';
    case 'tool_calls':
    case 'function_call':
      return 'toolUse';
    case null:
    case undefined:
      return undefined;
    default:
      return reason;
  }
}
