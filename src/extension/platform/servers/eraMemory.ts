import { createHash } from 'node:crypto';
import type * as vscode from 'vscode';
import type { EraKind } from '../../../protocol/eras/era';
import type { EraMemory, EraMemorySlot } from '../../../protocol/eras/eraMemory';
import type { EraPreference } from '../../../protocol/eras/select';
import type { ServerEntry } from '../config/serverEntry';
import { isObject } from '../../../protocol/guards';

const STATE_KEY = 'mcpWorkbench.eraMemory';
/** Definitions remembered at most; the oldest are forgotten first. */
const MAX_ENTRIES = 500;

/**
 * The extension's EraMemory: definition hash → era in globalState, so a server that was slow to answer the era probe
 * starts directly in the handshake era the next time, in this window and the next. The key hashes the definition as
 * written (no resolved secret is part of it, and the state holds only the hash): a changed definition probes again.
 */
export class MementoEraMemory implements EraMemory {
  constructor(private readonly state: vscode.Memento) {}

  get(key: string): EraKind | undefined {
    const era = this.entries()[key];
    return era === 'handshake' || era === 'modern' ? era : undefined;
  }

  async set(key: string, era: EraKind): Promise<void> {
    const entries = this.entries();
    delete entries[key];
    entries[key] = era;
    await this.state.update(STATE_KEY, Object.fromEntries(Object.entries(entries).slice(-MAX_ENTRIES)));
  }

  slotFor(entry: ServerEntry): EraMemorySlot {
    return { memory: this, key: definitionKey(entry) };
  }

  /** The eras servers answered with in this window (see WindowEras); one per window, as this memory is. */
  readonly window = new WindowEras();

  private entries(): Record<string, unknown> {
    const value = this.state.get<unknown>(STATE_KEY);
    return isObject(value) ? { ...(value as Record<string, unknown>) } : {};
  }
}

function definitionKey(entry: ServerEntry): string {
  return createHash('sha256').update(JSON.stringify(entry.definition)).digest('hex').slice(0, 32);
}

/** How a start speaks: the era to open with, and the era remembered from this window that chose it (if one did). */
interface EraChoice {
  preference: EraPreference;
  remembered?: EraKind;
}

/**
 * The era each stdio server with era "auto" answered with at its last start in this window, by server entry and a
 * fingerprint of its definition; held in memory only. Its next start (a dev-mode restart above all) opens in that era
 * directly instead of probing: a server paused by `--inspect-brk` until the debugger attaches cannot answer the probe
 * in time, so each dev restart with `debug` cost the probe's wait (about 2 s) again. The globalState memory above
 * remembers only a handshake server that was slow to answer the probe, for later windows; this one remembers either
 * era and forgets it as soon as it may be wrong: a changed definition of that server (its fingerprint differs), or a
 * start in the remembered era that failed, probes again. HTTP servers are not remembered: their probe costs one
 * round trip, and it also picks the transport's session mode.
 */
export class WindowEras {
  private readonly eras = new Map<string, { definition: string; era: EraKind }>();

  /** The era a start of this entry opens with: its own preference, or for "auto" the era remembered in this window. */
  choose(entry: ServerEntry, preference: EraPreference): EraChoice {
    if (preference !== 'auto' || entry.definition.kind !== 'stdio') return { preference };
    const remembered = this.eras.get(entry.id);
    if (!remembered) return { preference };
    if (remembered.definition !== definitionKey(entry)) {
      // The server's configuration changed: what it answered before says nothing about what runs now.
      this.eras.delete(entry.id);
      return { preference };
    }
    switch (remembered.era) {
      case 'handshake':
        return { preference: 'legacy', remembered: 'handshake' };
      case 'modern':
        return { preference: '2026-07-28', remembered: 'modern' };
      default: {
        const exhaustive: never = remembered.era;
        throw new Error(`unknown era ${String(exhaustive)}`);
      }
    }
  }

  /** A start made with `choice` got through its handshake in `era`. */
  started(entry: ServerEntry, choice: EraChoice, era: EraKind): void {
    if (choice.preference !== 'auto' && choice.remembered === undefined) return;
    if (entry.definition.kind !== 'stdio') return;
    this.eras.set(entry.id, { definition: definitionKey(entry), era });
  }

  /** A start made with `choice` failed: a remembered era is forgotten, so the next start probes again. */
  failed(entry: ServerEntry, choice: EraChoice): boolean {
    if (choice.remembered === undefined) return false;
    return this.eras.delete(entry.id);
  }
}
