/**
 * A provider-neutral chat request, the shape the review panel shows and edits, and that each model provider
 * (VS Code's Language Model API, an OpenAI-compatible endpoint) translates to its own wire format.
 */

export type ChatPart =
  | { kind: 'text'; text: string }
  | { kind: 'image'; mimeType: string; data: string }
  | { kind: 'audio'; mimeType: string; data: string }
  | { kind: 'tool-call'; id: string; name: string; input: Record<string, unknown> }
  | { kind: 'tool-result'; toolCallId: string; text: string; isError: boolean };

export interface ChatMessage {
  role: 'user' | 'assistant';
  parts: ChatPart[];
}

interface ChatTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

export interface ChatRequest {
  systemPrompt?: string;
  messages: ChatMessage[];
  maxTokens: number;
  temperature?: number;
  stopSequences?: string[];
  tools?: ChatTool[];
  toolChoice?: 'auto' | 'required' | 'none';
}

type ChatStopReason = 'endTurn' | 'maxTokens' | 'stopSequence' | 'toolUse' | (string & {});

export interface ChatResponse {
  model: string;
  text: string;
  toolCalls: { id: string; name: string; input: Record<string, unknown> }[];
  stopReason?: ChatStopReason;
  usage?: { inputTokens?: number; outputTokens?: number };
}

/** What a model can take, so parts it cannot are named in the review instead of silently dropped. */
export interface ModelAbilities {
  images: boolean;
  audio: boolean;
  tools: boolean;
}

export interface ModelInfo {
  /** Stable id the user allows per server, e.g. "openai:gpt-4o-mini" or "vscode-lm:copilot/gpt-4o". */
  id: string;
  /** The provider's own model name, reported back to the server as `model`. */
  name: string;
  providerLabel: string;
  abilities: ModelAbilities;
  /** Optional 0..1 scores used with modelPreferences priorities. */
  cost?: number;
  speed?: number;
  intelligence?: number;
}

export interface ChatModelProvider {
  readonly id: string;
  listModels(signal?: AbortSignal): Promise<ModelInfo[]>;
  /** Runs the request; `onText` receives streamed text as it arrives. Errors from the endpoint surface as they are. */
  complete(
    model: ModelInfo,
    request: ChatRequest,
    signal: AbortSignal,
    onText?: (delta: string) => void,
  ): Promise<ChatResponse>;
}
