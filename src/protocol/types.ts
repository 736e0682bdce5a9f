/**
 * The MCP shapes this client reads and writes, kept deliberately open (index signatures) so fields added by
 * newer revisions pass through untouched instead of being stripped.
 */

export type JsonObject = Record<string, unknown>;

export interface Implementation {
  name: string;
  version: string;
  title?: string;
  [key: string]: unknown;
}

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

export interface ServerCapabilities {
  tools?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  prompts?: { listChanged?: boolean };
  logging?: JsonObject;
  completions?: JsonObject;
  experimental?: JsonObject;
  [key: string]: unknown;
}

export interface ClientCapabilities {
  roots?: { listChanged?: boolean };
  sampling?: { context?: JsonObject; tools?: JsonObject };
  elicitation?: { form?: JsonObject; url?: JsonObject };
  experimental?: JsonObject;
  [key: string]: unknown;
}

export interface InitializeResult {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
  [key: string]: unknown;
}

interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  [key: string]: unknown;
}

export type ContentBlock =
  | { type: 'text'; text: string; [key: string]: unknown }
  | { type: 'image'; data: string; mimeType: string; [key: string]: unknown }
  | { type: 'audio'; data: string; mimeType: string; [key: string]: unknown }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; [key: string]: unknown }
  | { type: 'resource'; resource: ResourceContents; [key: string]: unknown };

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  [key: string]: unknown;
}

export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  [key: string]: unknown;
}

export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: Icon[];
  [key: string]: unknown;
}

export type ResourceContents =
  | { uri: string; mimeType?: string; text: string; [key: string]: unknown }
  | { uri: string; mimeType?: string; blob: string; [key: string]: unknown };

export interface ReadResourceResult {
  contents: ResourceContents[];
  [key: string]: unknown;
}

interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  [key: string]: unknown;
}

interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  [key: string]: unknown;
}

export type CompletionReference = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

export interface CompleteResult {
  completion: { values: string[]; total?: number; hasMore?: boolean };
  [key: string]: unknown;
}

export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
export const LOGGING_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

export interface LogMessage {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
}

export interface Root {
  uri: string;
  name?: string;
}

interface SamplingMessage {
  role: 'user' | 'assistant';
  content: JsonObject | JsonObject[];
  [key: string]: unknown;
}

export interface CreateMessageRequest {
  messages: SamplingMessage[];
  modelPreferences?: {
    hints?: { name?: string }[];
    costPriority?: number;
    speedPriority?: number;
    intelligencePriority?: number;
  };
  systemPrompt?: string;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  temperature?: number;
  maxTokens: number;
  stopSequences?: string[];
  metadata?: JsonObject;
  tools?: Tool[];
  toolChoice?: { mode?: 'auto' | 'required' | 'none' };
  [key: string]: unknown;
}

export interface CreateMessageResult {
  role: 'assistant';
  content: JsonObject | JsonObject[];
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

export interface ElicitRequest {
  mode?: 'form' | 'url';
  message: string;
  requestedSchema?: JsonObject;
  url?: string;
  elicitationId?: string;
  [key: string]: unknown;
}

export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
  [key: string]: unknown;
}
