import type { EraKind } from './era';

/**
 * A host service: the era a server definition spoke the last time it started, so era "auto" opens the second start
 * directly (a handshake-era server that ignores the probe costs its wait once, not at every start). Keys are opaque to the
 * protocol layer (the CLI hashes the server's definition); a memory that fails to read or write simply forgets.
 */
export interface EraMemory {
  get(key: string): EraKind | undefined | Promise<EraKind | undefined>;
  set(key: string, era: EraKind): void | Promise<void>;
}

/** The memory of one server definition, as the client is given it. */
export interface EraMemorySlot {
  memory: EraMemory;
  key: string;
}

export async function recall(slot: EraMemorySlot | undefined): Promise<EraKind | undefined> {
  if (!slot) return undefined;
  try {
    const era = await slot.memory.get(slot.key);
    return era === 'handshake' || era === 'modern' ? era : undefined;
  } catch {
    return undefined;
  }
}

export async function remember(slot: EraMemorySlot | undefined, era: EraKind): Promise<void> {
  if (!slot) return;
  try {
    await slot.memory.set(slot.key, era);
  } catch {
    // Forgetting costs the next start one probe; it must not fail this one.
  }
}

/** A memory held in this process only (tests, and hosts that keep nothing between runs). */
export class InMemoryEraMemory implements EraMemory {
  private readonly eras = new Map<string, EraKind>();

  get(key: string): EraKind | undefined {
    return this.eras.get(key);
  }

  set(key: string, era: EraKind): void {
    this.eras.set(key, era);
  }
}
