import * as vscode from 'vscode';
import { errorMessage } from '../../../protocol/errors';
import { EVENTS_API, type DeliveryMode, type EventsApi, type EventType } from '../../../protocol/extensions/events';
import type { JsonObject } from '../../../protocol/types';
import { SchemaValidator } from '../../../protocol/validation/schemaValidation';
import { EventsHistoryWriter } from '../../../workbench/events/eventsHistory';
import { CoalescedRefresh } from '../../../workbench/lists/coalescedRefresh';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import type { HistoryRecorder } from '../../platform/history/historyRecorder';
import type { ServerController } from '../../platform/servers/serverController';
import { showError } from '../../platform/ui/coreErrors';
import { modeLabel, type EventsSection, type EventsTreeNode, type SubscriptionRecord } from './eventsSection';
import { FeedPanels } from './feedPanel';

/**
 * The Events commands and the listing, loaded when the Events group is first drawn or a command first runs (the
 * events client code and the validator stay out of the window's start).
 */
export interface EventsContext {
  readonly section: EventsSection;
  readonly panels: FeedPanels;
  readonly history: HistoryRecorder;
}

export function eventsOf(controller: ServerController): EventsApi | undefined {
  const events = controller.client?.extension(EVENTS_API);
  return events?.supported ? events : undefined;
}

/** Each session's coalesced listing, so Refresh and list_changed share one in flight. */
const refreshes = new WeakMap<object, CoalescedRefresh>();

/** Lists the server's event types into the section; listens for list_changed (coalesced) while the session lives. */
export async function loadEvents(section: EventsSection, controller: ServerController): Promise<void> {
  const events = eventsOf(controller);
  const entry = section.current(controller);
  if (!events || !entry) return;
  let refresh = refreshes.get(entry);
  if (!refresh) {
    // A flood of notifications/events/list_changed costs one events/list in flight and one after it.
    refresh = new CoalescedRefresh(async () => {
      try {
        const listing = await events.list();
        for (const invalid of listing.invalid)
          controller.log.warn(`Event type refused: ${invalid.name ?? `#${invalid.index}`}: ${invalid.reason}`);
        section.listed(controller, { kind: 'loaded', types: listing.types, refused: listing.invalid.length });
      } catch (error) {
        section.listed(controller, { kind: 'failed', message: errorMessage(error) });
      }
    });
    const coalesced = refresh;
    refreshes.set(entry, coalesced);
    section.hold(controller, coalesced);
    section.hold(
      controller,
      events.onListChanged(() => void coalesced.request()),
    );
  }
  await refresh.request();
}

function node(argument: unknown, row: EventsTreeNode['row']): EventsTreeNode | undefined {
  const candidate = argument as Partial<EventsTreeNode> | undefined;
  return candidate?.kind === 'section' && candidate.section === 'events' && candidate.row === row
    ? (candidate as EventsTreeNode)
    : undefined;
}

/** The schema declares arguments worth asking for. */
function hasArguments(type: EventType): boolean {
  const properties = type.inputSchema?.properties;
  return typeof properties === 'object' && properties !== null && Object.keys(properties).length > 0;
}

/** The event's arguments as a JSON object, checked against its inputSchema; undefined when the person cancels. */
async function askArguments(type: EventType): Promise<JsonObject | undefined> {
  if (!hasArguments(type)) return {};
  const validator = new SchemaValidator();
  const names = Object.keys(type.inputSchema?.properties as object).slice(0, 10);
  const value = await vscode.window.showInputBox({
    title: vscode.l10n.t('Subscribe to {0}', escapeForDisplay(type.name)),
    prompt: vscode.l10n.t('Arguments as a JSON object ({0})', escapeForDisplay(names.join(', '))),
    value: '{}',
    ignoreFocusOut: true,
    validateInput: (text) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return vscode.l10n.t('Not JSON');
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        return vscode.l10n.t('The arguments are a JSON object');
      const verdict = validator.validate(type.inputSchema, parsed);
      return verdict.kind === 'invalid' ? escapeForDisplay(verdict.errors.slice(0, 3).join('; ')) : undefined;
    },
  });
  return value === undefined ? undefined : (JSON.parse(value) as JsonObject);
}

function modeDetail(mode: DeliveryMode): string {
  switch (mode) {
    case 'push':
      return vscode.l10n.t('The server streams each event as it happens (events/stream)');
    case 'poll':
      return vscode.l10n.t('This client asks at the interval the server names (events/poll)');
    case 'webhook':
      return vscode.l10n.t('The server posts each event to a listener on this machine (127.0.0.1 only)');
  }
}

async function askMode(modes: DeliveryMode[]): Promise<DeliveryMode | undefined> {
  if (modes.length === 1) return modes[0];
  const picked = await vscode.window.showQuickPick(
    modes.map((mode) => ({ label: modeLabel(mode), detail: modeDetail(mode), mode })),
    { title: vscode.l10n.t('Deliver events by'), ignoreFocusOut: true },
  );
  return picked?.mode;
}

/** Subscribe…: the event's arguments, a delivery mode the server and this host share, then the live feed. */
export async function subscribeEvent(context: EventsContext, argument: unknown): Promise<void> {
  const target = node(argument, 'eventType');
  if (target?.row !== 'eventType') return;
  const { controller, type } = target;
  const events = eventsOf(controller);
  if (!events) {
    void vscode.window.showWarningMessage(vscode.l10n.t('{0} is not running with events.', controller.name));
    return;
  }
  const modes = type.delivery.filter((mode) => events.modes.includes(mode));
  if (modes.length === 0) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('{0} is delivered only in ways this window cannot receive.', escapeForDisplay(type.name)),
    );
    return;
  }
  const args = await askArguments(type);
  if (args === undefined) return;
  const mode = await askMode(modes);
  if (mode === undefined) return;
  let record: SubscriptionRecord;
  try {
    record = context.section.add(controller, type, mode, (listener) =>
      events.subscribe(type, mode, { arguments: args }, listener),
    );
  } catch (error) {
    void showError(error, {
      server: controller,
      words: (reason) => vscode.l10n.t('Subscribing to {0} failed: {1}', escapeForDisplay(type.name), reason),
    });
    return;
  }
  if (vscode.workspace.getConfiguration('mcpWorkbench').get<boolean>('events.recordInHistory', false))
    recordInHistory(context.history, record, args);
  context.panels.open(record);
}

/** One History entry for the subscription, rewritten as events come (throttled) and when it ends. */
function recordInHistory(history: HistoryRecorder, record: SubscriptionRecord, args: JsonObject): void {
  const subscription = record.subscription;
  if (!subscription) return;
  const { controller } = record;
  const writer = new EventsHistoryWriter(
    {
      server: { id: controller.id, name: controller.name },
      eventName: record.type.name,
      mode: record.mode,
      arguments: args,
      startedAt: Date.now(),
      stats: () => subscription.stats,
      recent: () => subscription.recent(),
    },
    (previousId, entry) => history.recordConversation(previousId, entry, controller.knownSecrets()),
  );
  const listening = record.onDidChange(() => writer.changed());
  void subscription.ended.then(() => {
    listening.dispose();
    writer.end(record.status);
  });
}

export async function unsubscribeEvent(argument: unknown): Promise<void> {
  const target = node(argument, 'subscription');
  if (target?.row !== 'subscription') return;
  await target.record.subscription?.stop();
}

export function openEventFeed(context: EventsContext, argument: unknown): void {
  const target = node(argument, 'subscription');
  if (target?.row === 'subscription') context.panels.open(target.record);
}

export async function refreshEvents(context: EventsContext, argument: unknown): Promise<void> {
  const target = node(argument, 'eventsGroup');
  if (target?.row !== 'eventsGroup') return;
  await loadEvents(context.section, target.controller);
}
