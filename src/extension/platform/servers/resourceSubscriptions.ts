import * as vscode from 'vscode';
import type { ServerController } from './serverController';
import type { ServerCatalog } from './serverCatalog';

/**
 * Which resources the user subscribed to, per server. A subscription lives as long as the server's connection:
 * a restart starts without any (the new session knows nothing of the old ones), so entries follow the client.
 */
export class ResourceSubscriptions implements vscode.Disposable {
  private readonly subscribed = new Map<ServerController, { client: unknown; uris: Set<string> }>();
  private readonly changeEmitter = new vscode.EventEmitter<{ controller: ServerController; uri: string }>();
  private readonly subscription: vscode.Disposable;

  /** Fires with the one resource whose subscription changed, so the tree refreshes only that row. */
  readonly onDidChange = this.changeEmitter.event;

  constructor(catalog: ServerCatalog) {
    this.subscription = catalog.onDidChange((controller) => {
      const entry = this.subscribed.get(controller);
      if (entry && entry.client !== controller.client) this.subscribed.delete(controller);
    });
  }

  static supported(controller: ServerController): boolean {
    const client = controller.client;
    return client?.state.kind === 'ready' && client.session.capabilities.resources?.subscribe === true;
  }

  isSubscribed(controller: ServerController, uri: string): boolean {
    const entry = this.subscribed.get(controller);
    return entry !== undefined && entry.client === controller.client && entry.uris.has(uri);
  }

  async subscribe(controller: ServerController, uri: string): Promise<void> {
    const client = controller.client;
    if (!client) throw new Error(vscode.l10n.t('MCP server "{0}" is not running', controller.name));
    await client.subscribeResource(uri);
    let entry = this.subscribed.get(controller);
    if (!entry || entry.client !== client) {
      entry = { client, uris: new Set() };
      this.subscribed.set(controller, entry);
    }
    entry.uris.add(uri);
    controller.log.info(`Subscribed to ${uri}`);
    this.changeEmitter.fire({ controller, uri });
  }

  async unsubscribe(controller: ServerController, uri: string): Promise<void> {
    const client = controller.client;
    const entry = this.subscribed.get(controller);
    entry?.uris.delete(uri);
    if (client && entry?.client === client) await client.unsubscribeResource(uri);
    controller.log.info(`Unsubscribed from ${uri}`);
    this.changeEmitter.fire({ controller, uri });
  }

  dispose(): void {
    this.subscription.dispose();
    this.changeEmitter.dispose();
    this.subscribed.clear();
  }
}
