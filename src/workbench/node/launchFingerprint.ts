import { createHash } from 'node:crypto';
import type { ResolvedServer } from './launch';
import { maskSecrets } from '../secrets';

/**
 * What a remembered first-start consent is keyed by: the server's id and the hash of the masked definition it was
 * asked on. A changed definition (a new argument, a debugger's flag) hashes differently and asks again; key order
 * does not count (a reformatted file is the same definition).
 */
export function launchFingerprint(serverId: string, resolved: ResolvedServer, secrets: readonly string[]): string {
  return `${serverId}\n${createHash('sha256')
    .update(canonicalJson(maskSecrets(resolved, secrets)))
    .digest('hex')}`;
}

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b)))
      : item,
  );
}
