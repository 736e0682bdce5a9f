import * as vscode from 'vscode';
import type { McpClient } from '../../../protocol/client';
import { errorMessage } from '../../../protocol/errors';
import type { Prompt, Resource, ResourceTemplate } from '../../../protocol/types';
import type { ServerController } from './serverController';
import { CoalescedRefresh } from '../../../workbench/lists/coalescedRefresh';
import type { ServerManager } from './serverManager';

/** What a running server offers besides tools (tools live in the controller's state). Every page is loaded. */
interface ServerOfferings {
  resources: readonly Resource[];
  templates: readonly ResourceTemplate[];
  prompts: readonly Prompt[];
  /** Set while the first listing is in flight. */
  loading: boolean;
  /** Why the last listing failed, if it did. */
  error?: string;
}

interface Entry {
  client: McpClient;
  offerings: ServerOfferings;
  subscriptions: { dispose(): void }[];
  /** The listing that is current; an older one finishing late must not overwrite a newer one. */
  generation: number;
  /** The listing in flight, so callers that need the lists wait for it rather than list again. */
  pending?: Promise<void>;
  /** A flood of resources or prompts list_changed costs at most one listing in flight and one after it. */
  refresh: CoalescedRefresh;
}

const EMPTY: ServerOfferings = { resources: [], templates: [], prompts: [], loading: true };

/**
 * Keeps the resources, resource templates and prompts of every running server, reloaded on the server's
 * `list_changed` notifications. Entries follow the client: a restart brings a new client and a fresh listing,
 * a stop drops the entry.
 */
export class ServerCatalog implements vscode.Disposable {
  private readonly entries = new Map<ServerController, Entry>();
  private readonly changeEmitter = new vscode.EventEmitter<ServerController>();
  private readonly updatedEmitter = new vscode.EventEmitter<{ controller: ServerController; uri: string }>();
  private readonly subscription: vscode.Disposable;

  /** Fires when a server's offerings changed (or were dropped). */
  readonly onDidChange = this.changeEmitter.event;
  /** `notifications/resources/updated` from a server, for subscribed resources. */
  readonly onDidUpdateResource = this.updatedEmitter.event;

  constructor(manager: ServerManager) {
    this.subscription = vscode.Disposable.from(
      manager.onDidChangeServerState((controller) => this.sync(controller)),
      manager.onDidChangeServers(() => {
        for (const controller of [...this.entries.keys()])
          if (!manager.servers.includes(controller)) this.drop(controller);
        for (const controller of manager.servers) this.sync(controller);
      }),
    );
    for (const controller of manager.servers) this.sync(controller);
  }

  offerings(controller: ServerController): ServerOfferings | undefined {
    this.sync(controller);
    return this.entries.get(controller)?.offerings;
  }

  /** Lists everything again (the Refresh action on a server). */
  async refresh(controller: ServerController): Promise<void> {
    const entry = this.entries.get(controller);
    if (entry) await this.load(controller, entry);
  }

  /** Resolves once the server's first listing finished (for commands that need the lists right away). */
  async ready(controller: ServerController): Promise<ServerOfferings | undefined> {
    this.sync(controller);
    const entry = this.entries.get(controller);
    if (!entry) return undefined;
    if (entry.offerings.loading) await (entry.pending ?? this.load(controller, entry));
    return this.entries.get(controller)?.offerings;
  }

  private sync(controller: ServerController): void {
    const client = controller.client;
    const entry = this.entries.get(controller);
    if (entry && entry.client === client) return;
    if (entry) this.drop(controller);
    if (!client) return;
    const fresh: Entry = {
      client,
      offerings: EMPTY,
      subscriptions: [],
      generation: 0,
      refresh: new CoalescedRefresh(() => this.list(controller, fresh)),
    };
    fresh.subscriptions.push(
      fresh.refresh,
      client.onResourcesChanged(() => void this.load(controller, fresh)),
      client.onPromptsChanged(() => void this.load(controller, fresh)),
      client.onResourceUpdated((uri) => this.updatedEmitter.fire({ controller, uri })),
    );
    this.entries.set(controller, fresh);
    void this.load(controller, fresh);
  }

  private load(controller: ServerController, entry: Entry): Promise<void> {
    const pending = entry.refresh.request().finally(() => {
      if (entry.pending === pending) entry.pending = undefined;
    });
    entry.pending = pending;
    return pending;
  }

  private async list(controller: ServerController, entry: Entry): Promise<void> {
    const generation = ++entry.generation;
    const { client } = entry;
    try {
      const [resources, templates, prompts] = await Promise.all([
        client.listResources(),
        client.listResourceTemplates(),
        client.listPrompts(),
      ]);
      if (generation !== entry.generation || this.entries.get(controller) !== entry) return;
      entry.offerings = { resources, templates, prompts, loading: false };
      controller.log.info(
        `Listed ${resources.length} resources, ${templates.length} resource templates, ${prompts.length} prompts`,
      );
    } catch (error) {
      if (generation !== entry.generation || this.entries.get(controller) !== entry) return;
      controller.log.warn(`Could not list resources and prompts: ${errorMessage(error)}`);
      entry.offerings = { ...entry.offerings, loading: false, error: errorMessage(error) };
    }
    this.changeEmitter.fire(controller);
  }

  private drop(controller: ServerController): void {
    const entry = this.entries.get(controller);
    if (!entry) return;
    this.entries.delete(controller);
    for (const subscription of entry.subscriptions) subscription.dispose();
    this.changeEmitter.fire(controller);
  }

  dispose(): void {
    for (const controller of [...this.entries.keys()]) this.drop(controller);
    this.subscription.dispose();
    this.changeEmitter.dispose();
    this.updatedEmitter.dispose();
  }
}
