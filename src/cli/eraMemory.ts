import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EraKind } from '../protocol/eras/era';
import type { EraMemory, EraMemorySlot } from '../protocol/eras/eraMemory';
import { isObject } from '../protocol/guards';

/** Definitions remembered at most; the oldest are forgotten first (a CLI run against many servers stays small). */
const MAX_ENTRIES = 500;

/** `$XDG_CACHE_HOME/mcp-workbench/` or `~/.cache/mcp-workbench/`. */
export function cacheDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  return path.join(base, 'mcp-workbench');
}

/** The key of one server definition: a hash, so the file holds no command line, URL or secret. */
export function eraMemoryKey(definition: string): string {
  return createHash('sha256').update(definition).digest('hex').slice(0, 32);
}

/**
 * The CLI's EraMemory: a small JSON file of definition hash → era. Reading or writing may fail (a read-only home, a
 * file another run is rewriting): the memory then forgets, which only costs the next start one probe.
 */
export class FileEraMemory implements EraMemory {
  readonly file: string;

  constructor(directory = cacheDirectory()) {
    this.file = path.join(directory, 'era-memory.json');
  }

  get(key: string): EraKind | undefined {
    const era = this.read()[key];
    return era === 'handshake' || era === 'modern' ? era : undefined;
  }

  set(key: string, era: EraKind): void {
    const entries = this.read();
    delete entries[key];
    entries[key] = era;
    const kept = Object.entries(entries).slice(-MAX_ENTRIES);
    mkdirSync(path.dirname(this.file), { recursive: true });
    // Written aside and renamed: a concurrent run reads the old file or the new one, never half of one.
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(Object.fromEntries(kept)));
    renameSync(temporary, this.file);
  }

  private read(): Record<string, unknown> {
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.file, 'utf8'));
      return isObject(parsed) ? parsed : {};
    } catch {
      return {};
    }
  }
}

/** The slot the client is given for one server definition (its masked description: command line and cwd, or URL). */
export function cliEraMemory(definition: string, memory: EraMemory = new FileEraMemory()): EraMemorySlot {
  return { memory, key: eraMemoryKey(definition) };
}
