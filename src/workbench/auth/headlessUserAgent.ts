import type { AuthorizationUserAgent } from '../../protocol/auth/types';

/**
 * A user agent for authorization servers that approve without a person (the conformance suite's, test
 * servers): it requests the authorization URL itself and reads the redirect from the Location header instead
 * of opening a browser. Only a redirect to its own redirect URI is accepted.
 */
export function headlessUserAgent(
  fetchFn: typeof fetch = (input, init) => fetch(input, init),
  redirectUri = 'http://127.0.0.1/callback',
): AuthorizationUserAgent {
  return {
    prepare: async () => ({
      redirectUri,
      complete: async (authorizationUrl, signal) => {
        const response = await fetchFn(authorizationUrl, { redirect: 'manual', signal });
        await response.body?.cancel().catch(() => {});
        const location = response.headers.get('location');
        if (response.status < 300 || response.status >= 400 || location === null) {
          throw new Error(
            `the authorization endpoint answered HTTP ${response.status} without a redirect; it needs a person to sign in`,
          );
        }
        const target = new URL(location, authorizationUrl);
        const expected = new URL(redirectUri);
        if (target.origin !== expected.origin || target.pathname !== expected.pathname) {
          throw new Error(
            `the authorization endpoint redirected to ${target.origin}${target.pathname}, not to the redirect URI ${redirectUri}`,
          );
        }
        return target;
      },
      dispose: () => {},
    }),
  };
}
