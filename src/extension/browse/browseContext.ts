import type { ServerManager } from '../serverManager';
import type { ToolResultDocuments } from '../toolResultDocuments';
import type { ResourceDocuments } from './resourceDocuments';
import type { ResourceSubscriptions } from './resourceSubscriptions';
import type { ServerCatalog } from './serverCatalog';

/** The services the browsing commands share; built once by the composition root. */
export interface BrowseContext {
  manager: ServerManager;
  catalog: ServerCatalog;
  resources: ResourceDocuments;
  subscriptions: ResourceSubscriptions;
  /** Markdown documents (`mcp-result:`) for prompts and "Open as Markdown". */
  documents: ToolResultDocuments;
}
