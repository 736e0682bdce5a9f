/**
 * Per-server consent for sampling. "ask" is the default; "session" lasts until the window closes; "always"
 * and "never" persist through the host's storage.
 */

export type SamplingPolicy = 'ask' | 'session' | 'always' | 'never';

export const SAMPLING_POLICIES: readonly SamplingPolicy[] = ['ask', 'session', 'always', 'never'];

export interface PolicyStorage {
  get(server: string): SamplingPolicy | undefined;
  set(server: string, policy: Exclude<SamplingPolicy, 'session'> | undefined): Promise<void> | void;
}

export class SamplingPolicies {
  private readonly sessionAllowed = new Set<string>();

  constructor(private readonly storage: PolicyStorage) {}

  get(server: string): SamplingPolicy {
    if (this.sessionAllowed.has(server)) return 'session';
    return this.storage.get(server) ?? 'ask';
  }

  async set(server: string, policy: SamplingPolicy): Promise<void> {
    this.sessionAllowed.delete(server);
    switch (policy) {
      case 'session':
        this.sessionAllowed.add(server);
        await this.storage.set(server, undefined);
        return;
      case 'ask':
        await this.storage.set(server, undefined);
        return;
      case 'always':
      case 'never':
        await this.storage.set(server, policy);
        return;
      default: {
        const exhaustive: never = policy;
        throw new Error(`unknown policy ${String(exhaustive)}`);
      }
    }
  }

  /** Whether a request may run without asking the person first. */
  isPreApproved(server: string): boolean {
    const policy = this.get(server);
    return policy === 'session' || policy === 'always';
  }
}

/** In-memory storage for the CLI and tests. */
export class MemoryPolicyStorage implements PolicyStorage {
  private readonly values = new Map<string, SamplingPolicy>();
  get(server: string): SamplingPolicy | undefined {
    return this.values.get(server);
  }
  set(server: string, policy: Exclude<SamplingPolicy, 'session'> | undefined): void {
    if (policy === undefined) this.values.delete(server);
    else this.values.set(server, policy);
  }
}
