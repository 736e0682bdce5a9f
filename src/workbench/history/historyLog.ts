import { maskSecrets, maskText } from '../secrets';

/**
 * The session's history of exchanges with MCP servers (tool calls, resource reads, prompt gets, sampling and
 * elicitation), host-neutral so the CLI could keep one too. Bounded: a ring of the newest entries, each stored
 * result capped in size, and all stored results together capped, the oldest giving theirs up first. Everything is
 * masked on the way in, so no secret that reached a call's arguments or a result is kept, shown or copied.
 */

/** What was done; each kind carries what is needed to show it again and to do it again. */
export type HistoryOperation =
  | { kind: 'tool'; toolName: string; arguments: Record<string, unknown> }
  | { kind: 'resource'; uri: string }
  | { kind: 'prompt'; promptName: string; arguments: Record<string, string> }
  | { kind: 'sampling'; model?: string; request: string }
  | { kind: 'elicitation'; mode: 'form' | 'url'; message: string }
  /** A playground conversation (Try with a Model): its record (evals/conversation.ts) is the entry's result. */
  | { kind: 'conversation'; model: string; servers: string[]; requests: number; title: string }
  /** An Events subscription (when mcpWorkbench.events.recordInHistory is on): its last events are the entry's result. */
  | { kind: 'events'; eventName: string; mode: 'poll' | 'push' | 'webhook'; arguments: Record<string, unknown> };

/** How it ended. `declined` is a person's or a policy's no (sampling rejected, elicitation declined). */
export type HistoryOutcome =
  | { kind: 'succeeded'; note?: string }
  | { kind: 'tool-error'; note?: string }
  | { kind: 'failed'; message: string }
  | { kind: 'cancelled' }
  | { kind: 'declined'; note?: string };

/** The result as kept: whole, cut to a text prefix with a note, or given up to stay within the memory budget. */
export type StoredResult =
  | { kind: 'none' }
  | { kind: 'kept'; value: unknown; chars: number }
  | { kind: 'truncated'; text: string; originalChars: number }
  | { kind: 'dropped'; originalChars: number };

/**
 * Who asked for an exchange when it was not the person: an MCP App calling its server's tools (named by the tool whose
 * app it is), or an agent calling through the gateway (its clientInfo name and version: the agent's text, shown
 * escaped). Absent for what the person did; entries written before this field existed have none.
 */
export type HistorySource = { kind: 'app'; appTool: string } | { kind: 'agent'; name: string; version: string };

export interface HistoryServer {
  /** The controller's id (stable for the session), to find the server again for a re-run. */
  id: string;
  name: string;
}

export interface HistoryEntry {
  /** Increasing for the session; never reused, also not after Clear. */
  readonly id: number;
  readonly server: HistoryServer;
  readonly startedAt: number;
  readonly durationMs?: number;
  readonly operation: HistoryOperation;
  readonly outcome: HistoryOutcome;
  readonly result: StoredResult;
  readonly source?: HistorySource;
}

/** What a feature hands to History when an operation ends (the extension's HistoryRecorder): it never writes the log itself. */
export interface HistoryRecording {
  record(record: HistoryRecord): void;
}

export interface HistoryRecord {
  server: HistoryServer;
  startedAt: number;
  durationMs?: number;
  operation: HistoryOperation;
  outcome: HistoryOutcome;
  /** The result object as the server sent it (JSON-shaped); omitted when there is none. */
  result?: unknown;
  /** Who asked for it, when not the person (an app's own tool calls). */
  source?: HistorySource;
}

interface HistoryLimits {
  /** Entries kept; the oldest is dropped first. */
  capacity: number;
  /** A result larger than this (as JSON text) is kept as a prefix of that size with a note. */
  maxResultChars: number;
  /** All kept results together; past it the oldest results are dropped (their entries stay). */
  maxTotalResultChars: number;
}

const DEFAULT_HISTORY_LIMITS: HistoryLimits = {
  capacity: 500,
  maxResultChars: 256 * 1024,
  maxTotalResultChars: 8 * 1024 * 1024,
};

interface HistoryChange {
  kind: 'added' | 'removed' | 'cleared';
  /** The servers whose entries changed (names). */
  serverNames: readonly string[];
}

interface Disposable {
  dispose(): void;
}

export class HistoryLog {
  private readonly ring: (HistoryEntry | undefined)[];
  /** Index of the oldest entry in the ring. */
  private start = 0;
  private count = 0;
  private nextId = 1;
  private totalResultChars = 0;
  private readonly listeners = new Set<(change: HistoryChange) => void>();
  readonly limits: HistoryLimits;

  /**
   * `secretsOf` masks at the sink: whatever a caller passes to `record`, the secrets the host knows for that server
   * (password inputs, env and header values, tokens) are masked too.
   */
  constructor(
    limits: Partial<HistoryLimits> = {},
    private readonly secretsOf: (serverId: string) => readonly string[] = () => [],
  ) {
    this.limits = { ...DEFAULT_HISTORY_LIMITS, ...limits };
    if (!(this.limits.capacity >= 1)) throw new RangeError('history capacity must be at least 1');
    this.ring = new Array<HistoryEntry | undefined>(this.limits.capacity);
  }

  onDidChange(listener: (change: HistoryChange) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The entry `id` of `record` as History keeps it: masked with the caller's and the server's secrets, its result stored. */
  private entryOf(id: number, record: HistoryRecord, callerSecrets: readonly string[]): HistoryEntry {
    const knownSecrets = [...callerSecrets, ...this.secretsOf(record.server.id)];
    return {
      id,
      server: { ...record.server },
      startedAt: record.startedAt,
      ...(record.durationMs === undefined ? {} : { durationMs: record.durationMs }),
      operation: maskSecrets(record.operation, knownSecrets),
      outcome: maskOutcome(record.outcome, knownSecrets),
      result: this.store(record.result, knownSecrets),
      ...(record.source === undefined ? {} : { source: { ...record.source } }),
    };
  }

  /** Adds an entry, masked with `knownSecrets` (resolved inputs, launch secrets) and by secret-looking keys. */
  record(record: HistoryRecord, callerSecrets: readonly string[] = []): HistoryEntry {
    const entry = this.entryOf(this.nextId++, record, callerSecrets);
    const removed: string[] = [];
    if (this.count === this.limits.capacity) {
      const oldest = this.ring[this.start];
      if (oldest) {
        this.release(oldest.result);
        removed.push(oldest.server.name);
      }
      this.ring[this.start] = undefined;
      this.start = (this.start + 1) % this.limits.capacity;
      this.count--;
    }
    this.ring[(this.start + this.count) % this.limits.capacity] = entry;
    this.count++;
    this.enforceTotal();
    this.emit({ kind: 'added', serverNames: [...new Set([entry.server.name, ...removed])] });
    return entry;
  }

  /**
   * Replaces entry `id` in place (a playground conversation grows with each request and stays one entry): same id and
   * place, masked and stored like a new record. When the entry is gone (the ring or Clear dropped it), it is recorded
   * anew.
   */
  replace(id: number, record: HistoryRecord, callerSecrets: readonly string[] = []): HistoryEntry {
    const index = this.entries().findIndex((entry) => entry.id === id);
    if (index === -1) return this.record(record, callerSecrets);
    const position = (this.start + index) % this.limits.capacity;
    const old = this.ring[position]!;
    this.release(old.result);
    const entry = this.entryOf(id, record, callerSecrets);
    this.ring[position] = entry;
    this.enforceTotal();
    this.emit({ kind: 'added', serverNames: [...new Set([old.server.name, entry.server.name])] });
    return entry;
  }

  /**
   * Puts back entries kept from an earlier window (History across a reload), older than everything recorded since.
   * They get ids below every current one, so ids stay unique and increase with time; the ring's and the results'
   * bounds apply as to any entry, newest kept first. Their results are stored again, so the budget counts them.
   */
  restore(earlier: readonly HistoryEntry[]): void {
    if (earlier.length === 0) return;
    const current = this.entries();
    const room = this.limits.capacity - current.length;
    if (room <= 0) return;
    const kept = earlier.slice(-room);
    let id = Math.min(this.nextId, ...current.map((entry) => entry.id));
    const restored: HistoryEntry[] = [];
    for (let index = kept.length - 1; index >= 0; index--) {
      const entry = kept[index];
      restored.unshift({ ...entry, id: --id, server: { ...entry.server }, result: this.restoreResult(entry.result) });
    }
    this.ring.fill(undefined);
    this.start = 0;
    this.count = 0;
    for (const entry of [...restored, ...current]) this.ring[this.count++] = entry;
    this.enforceTotal();
    this.emit({ kind: 'added', serverNames: [...new Set(restored.map((entry) => entry.server.name))] });
  }

  /** A result read back from disk, counted against the budget (and cut to the per-result bound if it grew). */
  private restoreResult(result: StoredResult): StoredResult {
    switch (result.kind) {
      case 'none':
      case 'dropped':
        return result;
      case 'kept':
        if (result.chars > this.limits.maxResultChars) return { kind: 'dropped', originalChars: result.chars };
        this.totalResultChars += result.chars;
        return result;
      case 'truncated': {
        const text = result.text.slice(0, this.limits.maxResultChars);
        this.totalResultChars += text.length;
        return { ...result, text };
      }
      default: {
        const exhaustive: never = result;
        return exhaustive;
      }
    }
  }

  /** Every entry, oldest first. */
  entries(): HistoryEntry[] {
    const result: HistoryEntry[] = [];
    for (let index = 0; index < this.count; index++) {
      const entry = this.ring[(this.start + index) % this.limits.capacity];
      if (entry) result.push(entry);
    }
    return result;
  }

  /** One server's entries, newest first (the order the view shows). */
  of(serverName: string): HistoryEntry[] {
    return this.entries()
      .filter((entry) => entry.server.name === serverName)
      .reverse();
  }

  /** Names of the servers with entries, sorted. */
  serverNames(): string[] {
    return [...new Set(this.entries().map((entry) => entry.server.name))].sort((a, b) => a.localeCompare(b));
  }

  get(id: number): HistoryEntry | undefined {
    return this.entries().find((entry) => entry.id === id);
  }

  get size(): number {
    return this.count;
  }

  /** The characters all kept results take together (for tests of the bound). */
  get resultChars(): number {
    return this.totalResultChars;
  }

  /** Forgets every entry, or only one server's. */
  clear(serverName?: string): void {
    const before = this.entries();
    const kept = serverName === undefined ? [] : before.filter((entry) => entry.server.name !== serverName);
    if (kept.length === before.length) return;
    const names = [...new Set(before.filter((entry) => !kept.includes(entry)).map((entry) => entry.server.name))];
    this.ring.fill(undefined);
    this.start = 0;
    this.count = 0;
    this.totalResultChars = 0;
    for (const entry of kept) {
      this.ring[this.count++] = entry;
      this.totalResultChars += resultSize(entry.result);
    }
    this.emit({ kind: 'cleared', serverNames: names });
  }

  private store(result: unknown, knownSecrets: readonly string[]): StoredResult {
    if (result === undefined) return { kind: 'none' };
    const masked = maskSecrets(result, knownSecrets);
    let text: string;
    try {
      text = JSON.stringify(masked) ?? 'undefined';
    } catch (error) {
      text = `(not serialisable: ${(error as Error).message})`;
      return { kind: 'truncated', text, originalChars: text.length };
    }
    if (text.length > this.limits.maxResultChars) {
      const stored: StoredResult = {
        kind: 'truncated',
        text: text.slice(0, this.limits.maxResultChars),
        originalChars: text.length,
      };
      this.totalResultChars += this.limits.maxResultChars;
      return stored;
    }
    this.totalResultChars += text.length;
    return { kind: 'kept', value: masked, chars: text.length };
  }

  private release(result: StoredResult): void {
    this.totalResultChars -= resultSize(result);
  }

  /** Drops the oldest results (not their entries) until all kept results fit the total budget. */
  private enforceTotal(): void {
    if (this.totalResultChars <= this.limits.maxTotalResultChars) return;
    for (let index = 0; index < this.count - 1 && this.totalResultChars > this.limits.maxTotalResultChars; index++) {
      const position = (this.start + index) % this.limits.capacity;
      const entry = this.ring[position];
      if (!entry || entry.result.kind === 'none' || entry.result.kind === 'dropped') continue;
      const originalChars = entry.result.kind === 'kept' ? entry.result.chars : entry.result.originalChars;
      this.release(entry.result);
      this.ring[position] = { ...entry, result: { kind: 'dropped', originalChars } };
    }
  }

  private emit(change: HistoryChange): void {
    for (const listener of [...this.listeners]) listener(change);
  }
}

function resultSize(result: StoredResult): number {
  switch (result.kind) {
    case 'none':
    case 'dropped':
      return 0;
    case 'kept':
      return result.chars;
    case 'truncated':
      return result.text.length;
    default: {
      const exhaustive: never = result;
      return exhaustive;
    }
  }
}

function maskOutcome(outcome: HistoryOutcome, knownSecrets: readonly string[]): HistoryOutcome {
  switch (outcome.kind) {
    case 'failed':
      return { kind: 'failed', message: maskText(outcome.message, knownSecrets) };
    case 'succeeded':
    case 'tool-error':
    case 'declined':
      return outcome.note === undefined
        ? { kind: outcome.kind }
        : { kind: outcome.kind, note: maskText(outcome.note, knownSecrets) };
    case 'cancelled':
      return outcome;
    default: {
      const exhaustive: never = outcome;
      return exhaustive;
    }
  }
}
