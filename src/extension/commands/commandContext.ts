import type { ConfigLoader } from '../config/configLoader';
import type { ServerManager } from '../servers/serverManager';
import type { ToolResultDocuments } from '../tools/toolResultDocuments';

/** What the commands need; handed over by the composition root. */
export interface CommandContext {
  manager: ServerManager;
  loader: ConfigLoader;
  results: ToolResultDocuments;
}
