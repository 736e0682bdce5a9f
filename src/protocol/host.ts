import type { Disposable } from './disposable';
import type { CreateMessageRequest, CreateMessageResult, ElicitRequest, ElicitResult, Root } from './types';

/**
 * Services the host (VS Code, the CLI, a test) lends the client. A capability is declared to the server only
 * when its service is supplied; requests for an absent one are answered with -32601.
 */

export interface RequestContext {
  serverName: string;
  /** Aborted when the server cancels the request or the connection closes. */
  signal: AbortSignal;
}

interface RootsProvider {
  listRoots(): Promise<Root[]> | Root[];
  /** When given, the client declares roots.listChanged and forwards each change as notifications/roots/list_changed. */
  onDidChangeRoots?(listener: () => void): Disposable;
}

export interface SamplingHandler {
  /** Declare sampling.tools: the handler can run the tool loop (tools / toolChoice). */
  supportsTools?: boolean;
  createMessage(request: CreateMessageRequest, context: RequestContext): Promise<CreateMessageResult>;
}

export type ElicitationMode = 'form' | 'url';

export interface ElicitationHandler {
  modes: readonly ElicitationMode[];
  elicit(request: ElicitRequest, context: RequestContext): Promise<ElicitResult>;
  /** notifications/elicitation/complete for a URL-mode elicitation. Unknown ids must be ignored. */
  completed?(elicitationId: string, serverName: string): void;
}

export interface ClientHost {
  roots?: RootsProvider;
  sampling?: SamplingHandler;
  elicitation?: ElicitationHandler;
}
