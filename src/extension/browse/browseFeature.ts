import * as vscode from 'vscode';
import type { ServerManager } from '../servers/serverManager';
import type { ToolResultDocuments } from '../tools/toolResultDocuments';
import type { BrowseContext } from './browseContext';
import { registerItemCommands } from '../views/itemCommands';
import { registerOpenConfig } from '../config/openConfig';
import { registerPromptCommands } from '../prompts/promptCommands';
import { readResourceWithFeedback } from '../resources/readResource';
import { registerResourceCommands } from '../resources/resourceCommands';
import { ResourceDocuments } from '../resources/resourceDocuments';
import { ResourceSubscriptions } from '../resources/resourceSubscriptions';
import { ServerCatalog } from '../servers/serverCatalog';
import { ToolForms } from '../tools/toolFormPanel';
import { ToolResultView } from '../tools/toolResultView';

/** What integration tests reach through the extension's API: the open form and the last result shown. */
export interface BrowseTestApi {
  catalog: ServerCatalog;
  forms: ToolForms;
  results: ToolResultView;
  /** Which resources are subscribed, per server (the tree shows them as `resource.subscribed`). */
  subscriptions: ResourceSubscriptions;
}

/** Builds the browsing services (catalog, resource documents, forms, result view) and registers their commands. */
export function createBrowseFeature(extensionUri: vscode.Uri, manager: ServerManager, documents: ToolResultDocuments) {
  const catalog = new ServerCatalog(manager);
  const subscriptions = new ResourceSubscriptions(catalog);
  const resources = new ResourceDocuments(manager, catalog);
  const context: BrowseContext = { manager, catalog, resources, subscriptions, documents };
  const results = new ToolResultView(extensionUri, documents, async (controller, uri) => {
    await readResourceWithFeedback(context, controller, uri);
  });
  const forms = new ToolForms(extensionUri, (controller, record) => results.show(controller, record));
  const disposable = vscode.Disposable.from(
    forms,
    results,
    resources,
    subscriptions,
    catalog,
    registerResourceCommands(context),
    registerPromptCommands(context),
    registerItemCommands(context),
    registerOpenConfig(),
  );
  const testApi: BrowseTestApi = { catalog, forms, results, subscriptions };
  return { catalog, subscriptions, forms, results, disposable, testApi };
}
