/**
 * Client authentication at the token endpoint (RFC 6749 §2.3, RFC 7523 private_key_jwt): the method was chosen
 * once, when the client identity was settled (clientRegistration.ts); this only carries it out.
 */
import * as oauth from './oauthLibrary';
import type { ConfiguredClient } from './authorizerOptions';
import { OAuthFlowError } from './discovery';
import type { RegisteredClient } from './types';

export async function clientAuthentication(
  client: RegisteredClient,
  configured: ConfiguredClient | undefined,
  serverName: string,
): Promise<oauth.ClientAuth> {
  switch (client.authMethod) {
    case 'client_secret_basic':
      return clientSecretBasic(requireSecret(client, serverName));
    case 'client_secret_post':
      return oauth.ClientSecretPost(requireSecret(client, serverName));
    case 'none':
      return oauth.None();
    case 'private_key_jwt': {
      if (!configured?.privateKeyPem) throw new OAuthFlowError(`${serverName}: private_key_jwt needs a private key`);
      return oauth.PrivateKeyJwt(
        await importPrivateKey(configured.privateKeyPem, configured.signingAlgorithm ?? 'ES256'),
      );
    }
    default: {
      const exhaustive: never = client.authMethod;
      throw new OAuthFlowError(`${serverName}: unsupported token endpoint authentication ${String(exhaustive)}`);
    }
  }
}

/** A secret method without a secret would send an empty one, which a server rightly answers with invalid_client. */
function requireSecret(client: RegisteredClient, serverName: string): string {
  if (client.clientSecret === undefined || client.clientSecret === '') {
    throw new OAuthFlowError(
      `${serverName}: the client ${client.clientId} authenticates with ${client.authMethod} but has no client secret`,
    );
  }
  return client.clientSecret;
}

/**
 * RFC 6749 §2.3.1 HTTP Basic client authentication. The id and secret are form-encoded as URLSearchParams
 * does, which leaves `-._*` as they are: oauth4webapi escapes those too, and servers that skip the decoding
 * step (common, the conformance suite's included) then see a different client id.
 */
function clientSecretBasic(secret: string): oauth.ClientAuth {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return (_as, client, _body, headers) => {
    const credentials = new TextEncoder().encode(`${encode(client.client_id)}:${encode(secret)}`);
    let binary = '';
    for (const byte of credentials) binary += String.fromCharCode(byte);
    headers.set('authorization', `Basic ${btoa(binary)}`);
  };
}

const KEY_ALGORITHMS: Record<string, EcKeyImportParams | RsaHashedImportParams> = {
  ES256: { name: 'ECDSA', namedCurve: 'P-256' },
  ES384: { name: 'ECDSA', namedCurve: 'P-384' },
  RS256: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
  PS256: { name: 'RSA-PSS', hash: 'SHA-256' },
};

async function importPrivateKey(pem: string, algorithm: string): Promise<CryptoKey> {
  const params = KEY_ALGORITHMS[algorithm];
  if (!params)
    throw new OAuthFlowError(
      `unsupported signing algorithm ${algorithm} (supported: ${Object.keys(KEY_ALGORITHMS).join(', ')})`,
    );
  const base64 = pem.replace(/-----(BEGIN|END) [A-Z ]+-----/g, '').replace(/\s+/g, '');
  const der = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return crypto.subtle.importKey('pkcs8', der, params, false, ['sign']);
}
