import { createHash } from 'node:crypto';
import type * as vscode from 'vscode';
import type { EraKind } from '../../../protocol/eras/era';
import type { EraMemory, EraMemorySlot } from '../../../protocol/eras/eraMemory';
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
    return {
      memory: this,
      key: createHash('sha256').update(JSON.stringify(entry.definition)).digest('hex').slice(0, 32),
    };
  }

  private entries(): Record<string, unknown> {
    const value = this.state.get<unknown>(STATE_KEY);
    return isObject(value) ? { ...(value as Record<string, unknown>) } : {};
  }
}
