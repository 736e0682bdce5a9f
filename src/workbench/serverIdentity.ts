/**
 * The identity of a server definition: where it is defined and its name. Consent that outlives a session (sampling
 * policies, model allow-lists) is keyed by it, never by the display name, so a workspace's `.vscode/mcp.json` that
 * names a server like one of the user's own inherits none of the user's grants.
 */

type ServerIdentity = { scope: 'user'; name: string } | { scope: 'workspace'; configPath: string; name: string };

/** `user#name`, or `workspace:/path/.vscode/mcp.json#name`. */
export function serverIdentityKey(identity: ServerIdentity): string {
  switch (identity.scope) {
    case 'user':
      return `user#${identity.name}`;
    case 'workspace':
      return `workspace:${identity.configPath}#${identity.name}`;
    default: {
      const exhaustive: never = identity;
      throw new Error(`unknown server scope ${JSON.stringify(exhaustive)}`);
    }
  }
}

/**
 * Looks a value up in a map keyed by identity. Only a user-level server also finds an entry under its bare name
 * (what older versions stored and what people write in their settings); a workspace server never does.
 */
export function lookupByIdentity<T>(map: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  if (!map) return undefined;
  if (Object.hasOwn(map, key)) return map[key];
  const bareName = userServerName(key);
  return bareName !== undefined && Object.hasOwn(map, bareName) ? map[bareName] : undefined;
}

/** The name of a user-level server's key, undefined for any other key. */
function userServerName(key: string): string | undefined {
  return key.startsWith('user#') ? key.slice('user#'.length) : undefined;
}

/** Whether a stored key predates identities (a bare name; an identity key always holds `#`). */
export function isBareNameKey(key: string): boolean {
  return !key.startsWith('user#') && !key.startsWith('workspace:');
}
