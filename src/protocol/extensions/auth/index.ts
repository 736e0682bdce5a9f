import type { OAuthGrant } from '../../auth/oauthAuthorizer';
import { enableExtension, type EnabledExtension } from '../protocolExtension';
import type { AuthExtensionDefinition } from './authExtension';
import { oauthClientCredentials } from './clientCredentials';
import { enterpriseManagedAuthorization } from './enterpriseManagedAuthorization';

export { oauthClientCredentials } from './clientCredentials';
export { enterpriseManagedAuthorization } from './enterpriseManagedAuthorization';

/** Every authorization extension this client implements. */
const AUTH_EXTENSIONS: readonly AuthExtensionDefinition[] = [oauthClientCredentials, enterpriseManagedAuthorization];

/** The extension whose grant the authorizer was configured with, enabled; none for the core grants. */
export function authExtensionsFor(grant: OAuthGrant | undefined): EnabledExtension[] {
  const definition = grant && AUTH_EXTENSIONS.find((extension) => extension.grant === grant.kind);
  return definition ? [enableExtension(definition, undefined)] : [];
}
