import type { OAuthGrant } from '../../auth/oauthAuthorizer';
import type { ExtensionDefinition } from '../protocolExtension';

/**
 * An authorization extension: it adds no methods or result types, only a client capability, declared so the server
 * knows this client can obtain tokens with the grant the extension specifies. The grant itself runs in the OAuth
 * authorizer (src/protocol/auth), which names it by the same `OAuthGrant` kind.
 */
export interface AuthExtensionDefinition extends ExtensionDefinition<void, void> {
  readonly grant: OAuthGrant['kind'];
}
