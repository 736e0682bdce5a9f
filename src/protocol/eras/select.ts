import type { ProtocolEra } from './era';
import { AutoEra } from './autoEra';
import type { EraMemorySlot } from './eraMemory';
import { DEFAULT_INITIALIZE_TIMEOUT_MS, HandshakeEra, type HandshakeEraOptions } from './handshake';
import { ModernEra, type ModernEraOptions } from './modern/modernEra';

import type { EraPreference } from './names';

export { handshakeFallbackReason } from './modern/handshakeFallback';
// The names and descriptions live in names.ts, which the configuration reads without loading the eras themselves.
export {
  ERA_NAMES,
  ERA_PREFERENCES,
  describeEra,
  eraChoiceReason,
  eraLabel,
  eraPreferenceFromName,
  type EraPreference,
} from './names';

interface EraSelectionOptions {
  handshake?: HandshakeEraOptions;
  modern?: ModernEraOptions;
  /** auto over stdio: how long server/discover may stay unanswered by a server that shows no sign of life. */
  probeTimeoutMs?: number;
  /** auto over stdio: how long server/discover may stay unanswered once the server showed it is up and reading. */
  probeGraceMs?: number;
  /** auto: the era this server definition spoke last time (a host service). */
  memory?: EraMemorySlot;
}

/**
 * Long enough for a stdio server that is still starting (npx installing, a runtime compiling: its silence says
 * nothing about its revision), short enough that a handshake-era server which ignores the unknown pre-initialize
 * request does not look hung. Handshake-era servers usually answer the probe at once with an error.
 */
const DEFAULT_PROBE_TIMEOUT_MS = 15_000;

/**
 * Once a server has said something (or written to stderr) it is reading its input: a 2026-07-28 server answers
 * server/discover at once, so this long without an answer means it ignores requests it does not know.
 */
const DEFAULT_PROBE_GRACE_MS = 2_000;

export function createEra(preference: EraPreference, options: EraSelectionOptions = {}): ProtocolEra {
  switch (preference) {
    case 'legacy':
      return new HandshakeEra(options.handshake);
    case '2026-07-28':
      return new ModernEra(options.modern);
    case 'auto':
      return new AutoEra({
        handshake: options.handshake,
        modern: options.modern,
        probe: {
          timeoutMs: options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
          graceMs: options.probeGraceMs ?? DEFAULT_PROBE_GRACE_MS,
        },
        startTimeoutMs: options.handshake?.initializeTimeoutMs ?? DEFAULT_INITIALIZE_TIMEOUT_MS,
        memory: options.memory,
      });
  }
}
