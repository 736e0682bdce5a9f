import * as vscode from 'vscode';
import type { EventSubscription } from '../../../protocol/extensions/events/subscription';
import {
  EVENTS_EXTENSION_ID,
  type DeliveryMode,
  type EventType,
  type FeedItem,
  type SubscriptionStatus,
} from '../../../protocol/extensions/events/eventTypes';
import { FeedModel, type FeedRow } from '../../../workbench/events/feedModel';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import type { ServerController } from '../../platform/servers/serverController';
import type { ServerSection } from '../../platform/services';
import { nodeId } from '../../platform/servers/treeIds';

/** One subscription the person started: its feed's rows, its state, and who draws it. */
export interface SubscriptionRecord {
  readonly id: number;
  readonly controller: ServerController;
  readonly type: EventType;
  readonly mode: DeliveryMode;
  readonly feed: FeedModel;
  subscription: EventSubscription | undefined;
  /** The last status the feed reported (`starting` until the first). */
  status: SubscriptionStatus | 'starting';
  ended: boolean;
  /** Each new row and counter change, for an open feed panel. */
  readonly onDidChange: vscode.Event<FeedRow | undefined>;
  fire(row: FeedRow | undefined): void;
}

/** The Events rows of the Servers view: a group per server that declares the extension, types, subscriptions. */
export type EventsTreeNode = { kind: 'section'; section: 'events' } & (
  | { row: 'eventsGroup'; controller: ServerController }
  | { row: 'eventType'; controller: ServerController; type: EventType }
  | { row: 'subscription'; controller: ServerController; record: SubscriptionRecord }
  | { row: 'eventsMessage'; controller: ServerController; text: string; icon: string }
);

export type EventsListing =
  { kind: 'loading' } | { kind: 'loaded'; types: EventType[]; refused: number } | { kind: 'failed'; message: string };

interface ServerEntry {
  epoch: number;
  listing: EventsListing;
  group: EventsTreeNode;
  /** Held while the server's session lives: the list_changed listener. */
  held: vscode.Disposable[];
}

/** The session declared io.modelcontextprotocol/events (2026-07-28 only): read from the capabilities, no request. */
export function offersEvents(controller: ServerController): boolean {
  const state = controller.state;
  if (state.kind !== 'running' || state.session.kind !== 'modern') return false;
  const extensions = state.session.capabilities.extensions as Record<string, unknown> | undefined;
  const value = extensions?.[EVENTS_EXTENSION_ID];
  return typeof value === 'object' && value !== null;
}

/** How often a subscription's row is redrawn for its count while events arrive. */
const COUNT_REDRAW_MS = 1_000;

/**
 * Lists a server's event types when its Events group is first drawn (again on notifications/events/list_changed),
 * and keeps the subscriptions the person started. A subscription ends with its server's session (the client stops
 * every subscription when it closes) or with this section (the window closing), and Unsubscribe ends one.
 */
export class EventsSection implements ServerSection<EventsTreeNode>, vscode.Disposable {
  private readonly servers = new Map<ServerController, ServerEntry>();
  private readonly records = new Set<SubscriptionRecord>();
  /** Each record's row, one object for its life: VS Code finds the row to redraw by the element's identity. */
  private readonly nodes = new WeakMap<SubscriptionRecord, EventsTreeNode>();
  private nextId = 1;
  private readonly changeEmitter = new vscode.EventEmitter<EventsTreeNode | undefined>();
  readonly onDidChange = this.changeEmitter.event;

  /**
   * `load` lists the types (its code loads lazily with the commands'); it is handed in so that this start-up module
   * does not bring the events client code into the window's start.
   */
  constructor(private readonly load: (section: EventsSection, controller: ServerController) => Promise<void>) {}

  groupNode(controller: ServerController): EventsTreeNode | undefined {
    if (!offersEvents(controller)) return undefined;
    return this.entry(controller).group;
  }

  private entry(controller: ServerController): ServerEntry {
    let entry = this.servers.get(controller);
    if (!entry || entry.epoch !== controller.epoch) {
      for (const held of entry?.held ?? []) held.dispose();
      entry = {
        epoch: controller.epoch,
        listing: { kind: 'loading' },
        group: { kind: 'section', section: 'events', row: 'eventsGroup', controller },
        held: [],
      };
      this.servers.set(controller, entry);
      void this.load(this, controller);
    }
    return entry;
  }

  /** The session's entry, if the section has drawn it (what `load` writes its outcome into). */
  current(controller: ServerController): ServerEntry | undefined {
    const entry = this.servers.get(controller);
    return entry && entry.epoch === controller.epoch ? entry : undefined;
  }

  /** The listing changed (loaded, failed, reloaded): redraw the group. */
  listed(controller: ServerController, listing: EventsListing): void {
    const entry = this.current(controller);
    if (!entry) return;
    entry.listing = listing;
    this.changeEmitter.fire(entry.group);
  }

  /** A new subscription's record; `start` is handed the feed's listener and returns the running subscription. */
  add(
    controller: ServerController,
    type: EventType,
    mode: DeliveryMode,
    start: (listener: (item: FeedItem) => void) => EventSubscription,
  ): SubscriptionRecord {
    const emitter = new vscode.EventEmitter<FeedRow | undefined>();
    const record: SubscriptionRecord = {
      id: this.nextId++,
      controller,
      type,
      mode,
      feed: new FeedModel(),
      subscription: undefined,
      status: 'starting',
      ended: false,
      onDidChange: emitter.event,
      fire: (row) => emitter.fire(row),
    };
    // The tree shows the count and the status: redrawn at once for a status change, and for events at most once per
    // COUNT_REDRAW_MS. A row drawn anew is a new Unsubscribe button: one redrawn with every tick of a fast stream lost
    // the click that landed as it was replaced (seen in the e2e suite, once).
    let redraw: ReturnType<typeof setTimeout> | undefined;
    const drawRow = (): void => {
      clearTimeout(redraw);
      redraw = undefined;
      this.changeEmitter.fire(this.node(record));
    };
    const listener = (item: FeedItem): void => {
      if (item.kind === 'status') record.status = item.status;
      const row = record.feed.add(item);
      emitter.fire(row);
      if (item.kind === 'status') drawRow();
      else redraw ??= setTimeout(drawRow, COUNT_REDRAW_MS);
    };
    this.records.add(record);
    try {
      record.subscription = start(listener);
    } catch (error) {
      this.records.delete(record);
      emitter.dispose();
      throw error;
    }
    void record.subscription.ended.then(() => {
      clearTimeout(redraw);
      record.ended = true;
      if (record.status === 'starting' || record.status === 'active') record.status = 'stopped';
      this.records.delete(record);
      emitter.fire(undefined);
      this.changeEmitter.fire(this.current(controller)?.group);
    });
    this.changeEmitter.fire(this.current(controller)?.group);
    return record;
  }

  /** The subscriptions running on a server. */
  subscriptionsOf(controller: ServerController): SubscriptionRecord[] {
    return [...this.records].filter((record) => record.controller === controller);
  }

  private node(record: SubscriptionRecord): EventsTreeNode {
    let node = this.nodes.get(record);
    if (!node) {
      node = { kind: 'section', section: 'events', row: 'subscription', controller: record.controller, record };
      this.nodes.set(record, node);
    }
    return node;
  }

  hold(controller: ServerController, disposable: vscode.Disposable): void {
    const entry = this.current(controller);
    if (entry) entry.held.push(disposable);
    else disposable.dispose();
  }

  children(node: EventsTreeNode): EventsTreeNode[] {
    const { controller } = node;
    if (node.row === 'eventType')
      return this.subscriptionsOf(controller)
        .filter((record) => record.type.name === node.type.name)
        .map((record) => this.node(record));
    if (node.row !== 'eventsGroup') return [];
    const listing = this.entry(controller).listing;
    const message = (text: string, icon: string): EventsTreeNode => ({
      kind: 'section',
      section: 'events',
      row: 'eventsMessage',
      controller,
      text,
      icon,
    });
    switch (listing.kind) {
      case 'loading':
        return [message(vscode.l10n.t('Loading…'), 'loading~spin')];
      case 'failed':
        return [message(listing.message, 'warning')];
      case 'loaded': {
        const rows: EventsTreeNode[] = listing.types.map((type) => ({
          kind: 'section',
          section: 'events',
          row: 'eventType',
          controller,
          type,
        }));
        if (listing.types.length === 0) rows.push(message(vscode.l10n.t('This server offers no event types'), 'info'));
        if (listing.refused > 0)
          rows.push(message(vscode.l10n.t('{0} event types refused (see the server log)', listing.refused), 'warning'));
        return rows;
      }
    }
  }

  item(node: EventsTreeNode): vscode.TreeItem {
    const id = nodeId(node.controller);
    switch (node.row) {
      case 'eventsGroup': {
        const listing = this.entry(node.controller).listing;
        const item = new vscode.TreeItem(vscode.l10n.t('Events'), vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `${id}/events`;
        item.iconPath = new vscode.ThemeIcon('broadcast');
        item.description =
          listing.kind === 'loaded'
            ? String(listing.types.length)
            : listing.kind === 'loading'
              ? vscode.l10n.t('loading…')
              : '';
        // Not `group.*`: Refresh Events lists the types again; the server rows' refresh does not reach them.
        item.contextValue = 'eventsGroup';
        return item;
      }
      case 'eventType':
        return typeItem(
          node.type,
          id,
          this.subscriptionsOf(node.controller).some((record) => record.type.name === node.type.name),
        );
      case 'subscription':
        return subscriptionItem(node.record, id);
      case 'eventsMessage': {
        const item = new vscode.TreeItem(escapeForDisplay(node.text), vscode.TreeItemCollapsibleState.None);
        item.id = `${id}/events/message/${node.text}`;
        item.iconPath = new vscode.ThemeIcon(node.icon);
        item.contextValue = 'message';
        return item;
      }
    }
  }

  /** Stops every subscription (the window is closing): each unsubscribes and releases its listener and timers. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.records].map((record) => record.subscription?.stop()));
  }

  dispose(): void {
    void this.stopAll();
    for (const entry of this.servers.values()) for (const held of entry.held) held.dispose();
    this.servers.clear();
    this.changeEmitter.dispose();
  }
}

/** A schema's top-level properties, for a tooltip: `name: type` each, cut to a few. */
function schemaSummary(schema: unknown): string {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  if (typeof properties !== 'object' || properties === null) return vscode.l10n.t('(none)');
  const names = Object.entries(properties as Record<string, unknown>).map(([name, value]) => {
    const type = (value as { type?: unknown } | null)?.type;
    return typeof type === 'string' ? `${name}: ${type}` : name;
  });
  if (names.length === 0) return vscode.l10n.t('(none)');
  return names.slice(0, 10).join(', ') + (names.length > 10 ? ', …' : '');
}

function typeItem(type: EventType, id: string, mayHaveChildren: boolean): vscode.TreeItem {
  const item = new vscode.TreeItem(
    escapeForDisplay(type.name),
    mayHaveChildren ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
  );
  // A new id when it gains subscriptions: VS Code keeps a known row's collapsed state, and this one must open.
  item.id = `${id}/event/${type.name}${mayHaveChildren ? '/subscribed' : ''}`;
  item.description = escapeForDisplay((type.description ?? '').slice(0, 200));
  item.iconPath = new vscode.ThemeIcon('symbol-event');
  // appendText: the server's words stay text in the tooltip's Markdown.
  const tooltip = new vscode.MarkdownString();
  tooltip.appendText(`${escapeForDisplay(type.name)}\n${escapeForDisplay(type.description ?? '')}\n\n`);
  tooltip.appendText(`${vscode.l10n.t('Arguments: {0}', escapeForDisplay(schemaSummary(type.inputSchema)))}\n`);
  tooltip.appendText(`${vscode.l10n.t('Payload: {0}', escapeForDisplay(schemaSummary(type.payloadSchema)))}\n`);
  tooltip.appendText(vscode.l10n.t('Delivery: {0}', type.delivery.join(', ')));
  item.tooltip = tooltip;
  item.contextValue = 'eventType';
  return item;
}

export function modeLabel(mode: DeliveryMode): string {
  switch (mode) {
    case 'push':
      return vscode.l10n.t('push');
    case 'poll':
      return vscode.l10n.t('poll');
    case 'webhook':
      return vscode.l10n.t('webhook');
  }
}

export function statusLabel(status: SubscriptionStatus | 'starting'): string {
  switch (status) {
    case 'starting':
      return vscode.l10n.t('starting');
    case 'active':
      return vscode.l10n.t('active');
    case 'reconnecting':
      return vscode.l10n.t('reconnecting');
    case 'refreshed':
      return vscode.l10n.t('refreshed');
    case 'error':
      return vscode.l10n.t('error');
    case 'terminated':
      return vscode.l10n.t('terminated');
    case 'stopped':
      return vscode.l10n.t('stopped');
  }
}

function subscriptionItem(record: SubscriptionRecord, id: string): vscode.TreeItem {
  const stats = record.subscription?.stats;
  const item = new vscode.TreeItem(
    vscode.l10n.t('{0} #{1}', modeLabel(record.mode), record.id),
    vscode.TreeItemCollapsibleState.None,
  );
  item.id = `${id}/event/${record.type.name}/subscription/${record.id}`;
  item.description = vscode.l10n.t('{0} events · {1}', stats?.delivered ?? 0, statusLabel(record.status));
  item.iconPath = new vscode.ThemeIcon(record.ended ? 'circle-slash' : 'pulse');
  item.contextValue = record.ended ? 'eventSubscription.ended' : 'eventSubscription';
  item.command = {
    command: 'mcpWorkbench.openEventFeed',
    title: vscode.l10n.t('Open Live Feed'),
    arguments: [{ kind: 'section', section: 'events', row: 'subscription', controller: record.controller, record }],
  };
  return item;
}
