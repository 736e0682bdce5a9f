import type { AuthExtensionDefinition } from './authExtension';

/**
 * io.modelcontextprotocol/enterprise-managed-authorization: the enterprise IdP's ID token is exchanged for an ID-JAG
 * (RFC 8693) and presented to the MCP authorization server as a JWT bearer grant.
 */
export const enterpriseManagedAuthorization: AuthExtensionDefinition = {
  id: 'io.modelcontextprotocol/enterprise-managed-authorization',
  grant: 'enterprise',
  // Supported, no settings.
  settings: () => ({}),
};
