import type { HistoryEntry, HistoryOperation, HistoryOutcome, HistorySource, StoredResult } from './historyLog';
import { isObject, isStringRecord } from '../../protocol/guards';

/**
 * History as text, to keep it across a window reload. The entries are already masked (History masks on the way in),
 * so what is written holds no more than what the view shows. Reading back is defensive: the file lives in the
 * person's storage folder and may be cut short, edited or from another version, so anything that is not exactly an
 * entry is left out rather than trusted, and a file that does not parse gives no entries.
 */

const SNAPSHOT_VERSION = 1;

export function serializeHistory(entries: readonly HistoryEntry[]): string {
  return JSON.stringify({ version: SNAPSHOT_VERSION, entries });
}

/** The entries of a snapshot, oldest first; an unreadable snapshot gives none and says why. */
export function parseHistory(text: string): { entries: HistoryEntry[]; problem?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { entries: [], problem: `not JSON (${(error as Error).message})` };
  }
  if (!isObject(value) || value.version !== SNAPSHOT_VERSION || !Array.isArray(value.entries)) {
    return { entries: [], problem: `not a version ${SNAPSHOT_VERSION} History snapshot` };
  }
  const entries: HistoryEntry[] = [];
  for (const candidate of value.entries) {
    const entry = readEntry(candidate);
    if (entry) entries.push(entry);
  }
  const skipped = value.entries.length - entries.length;
  return skipped > 0 ? { entries, problem: `${skipped} unreadable entries left out` } : { entries };
}

function readEntry(value: unknown): HistoryEntry | undefined {
  if (!isObject(value) || !isObject(value.server)) return undefined;
  const { id, startedAt, durationMs } = value;
  const { id: serverId, name } = value.server;
  if (!Number.isSafeInteger(id) || typeof startedAt !== 'number' || !Number.isFinite(startedAt)) return undefined;
  if (durationMs !== undefined && (typeof durationMs !== 'number' || !Number.isFinite(durationMs))) return undefined;
  if (typeof serverId !== 'string' || typeof name !== 'string') return undefined;
  const operation = readOperation(value.operation);
  const outcome = readOutcome(value.outcome);
  const result = readResult(value.result);
  if (!operation || !outcome || !result) return undefined;
  // Written by this version for an app's own calls; files from before it have none and stay readable.
  const source = value.source === undefined ? undefined : readSource(value.source);
  if (value.source !== undefined && !source) return undefined;
  return {
    id: id as number,
    server: { id: serverId, name },
    startedAt,
    ...(durationMs === undefined ? {} : { durationMs }),
    operation,
    outcome,
    result,
    ...(source === undefined ? {} : { source }),
  };
}

function readSource(value: unknown): HistorySource | undefined {
  if (!isObject(value) || typeof value.kind !== 'string') return undefined;
  const kind = value.kind as HistorySource['kind'];
  switch (kind) {
    case 'app':
      return typeof value.appTool === 'string' ? { kind, appTool: value.appTool } : undefined;
    case 'agent':
      return typeof value.name === 'string' && typeof value.version === 'string'
        ? { kind, name: value.name, version: value.version }
        : undefined;
    default: {
      // Exhaustive over the sources this version writes; an entry with any other is left out.
      const unknownKind: never = kind;
      void unknownKind;
      return undefined;
    }
  }
}

function readOperation(value: unknown): HistoryOperation | undefined {
  if (!isObject(value) || typeof value.kind !== 'string') return undefined;
  const kind = value.kind as HistoryOperation['kind'];
  switch (kind) {
    case 'tool':
      return typeof value.toolName === 'string' && isObject(value.arguments)
        ? { kind, toolName: value.toolName, arguments: value.arguments }
        : undefined;
    case 'resource':
      return typeof value.uri === 'string' ? { kind, uri: value.uri } : undefined;
    case 'prompt':
      return typeof value.promptName === 'string' && isStringRecord(value.arguments)
        ? { kind, promptName: value.promptName, arguments: value.arguments }
        : undefined;
    case 'sampling':
      if (typeof value.request !== 'string' || (value.model !== undefined && typeof value.model !== 'string'))
        return undefined;
      return { kind, request: value.request, ...(value.model === undefined ? {} : { model: value.model as string }) };
    case 'elicitation':
      return (value.mode === 'form' || value.mode === 'url') && typeof value.message === 'string'
        ? { kind, mode: value.mode, message: value.message }
        : undefined;
    case 'conversation':
      return typeof value.model === 'string' &&
        Array.isArray(value.servers) &&
        value.servers.every((server) => typeof server === 'string') &&
        isCount(value.requests) &&
        typeof value.title === 'string'
        ? { kind, model: value.model, servers: value.servers as string[], requests: value.requests, title: value.title }
        : undefined;
    case 'events':
      return typeof value.eventName === 'string' &&
        (value.mode === 'poll' || value.mode === 'push' || value.mode === 'webhook') &&
        isObject(value.arguments)
        ? { kind, eventName: value.eventName, mode: value.mode, arguments: value.arguments }
        : undefined;
    default: {
      // Exhaustive over the kinds this version writes; any other kind in the file is left out.
      const unknownKind: never = kind;
      void unknownKind;
      return undefined;
    }
  }
}

function readOutcome(value: unknown): HistoryOutcome | undefined {
  if (!isObject(value) || typeof value.kind !== 'string') return undefined;
  const kind = value.kind as HistoryOutcome['kind'];
  switch (kind) {
    case 'failed':
      return typeof value.message === 'string' ? { kind, message: value.message } : undefined;
    case 'cancelled':
      return { kind };
    case 'succeeded':
    case 'tool-error':
    case 'declined':
      if (value.note === undefined) return { kind };
      return typeof value.note === 'string' ? { kind, note: value.note } : undefined;
    default: {
      // Exhaustive over the kinds this version writes; any other kind in the file is left out.
      const unknownKind: never = kind;
      void unknownKind;
      return undefined;
    }
  }
}

function readResult(value: unknown): StoredResult | undefined {
  if (!isObject(value) || typeof value.kind !== 'string') return undefined;
  const kind = value.kind as StoredResult['kind'];
  switch (kind) {
    case 'none':
      return { kind };
    case 'dropped':
      return isCount(value.originalChars) ? { kind, originalChars: value.originalChars } : undefined;
    case 'kept':
      return isCount(value.chars) && 'value' in value ? { kind, value: value.value, chars: value.chars } : undefined;
    case 'truncated':
      return typeof value.text === 'string' && isCount(value.originalChars)
        ? { kind, text: value.text, originalChars: value.originalChars }
        : undefined;
    default: {
      // Exhaustive over the kinds this version writes; any other kind in the file is left out.
      const unknownKind: never = kind;
      void unknownKind;
      return undefined;
    }
  }
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
