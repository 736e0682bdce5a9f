import type { ServerManager } from '../servers/serverManager';
import type { ToolResultDocuments } from '../tools/toolResultDocuments';
import type { ResourceDocuments } from '../resources/resourceDocuments';
import type { ResourceSubscriptions } from '../resources/resourceSubscriptions';
import type { ServerCatalog } from '../servers/serverCatalog';

/** The services the browsing commands share; built once by the composition root. */
export interface BrowseContext {
  manager: ServerManager;
  catalog: ServerCatalog;
  resources: ResourceDocuments;
  subscriptions: ResourceSubscriptions;
  /** Markdown documents (`mcp-result:`) for prompts and "Open as Markdown". */
  documents: ToolResultDocuments;
}
