import type { AuthExtensionDefinition } from './authExtension';

/** io.modelcontextprotocol/oauth-client-credentials: machine-to-machine sign-in with a configured confidential client. */
export const oauthClientCredentials: AuthExtensionDefinition = {
  id: 'io.modelcontextprotocol/oauth-client-credentials',
  grant: 'client-credentials',
  // Supported, no settings.
  settings: () => ({}),
};
