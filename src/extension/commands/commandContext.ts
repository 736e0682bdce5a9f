import type { ConfigLoader } from '../configLoader';
import type { ServerManager } from '../serverManager';
import type { ToolResultDocuments } from '../toolResultDocuments';

/** What the commands need; handed over by the composition root. */
export interface CommandContext {
  manager: ServerManager;
  loader: ConfigLoader;
  results: ToolResultDocuments;
}
