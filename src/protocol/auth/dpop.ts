/**
 * DPoP proofs for resource requests (RFC 9449 §4, §7): one fresh ES256-signed JWT per request, bound to the
 * method, the URL without query or fragment, the access token (`ath`) and the server's nonce when it sent one.
 * The token endpoint's proofs come from oauth4webapi, with the same key pair.
 */

export interface DpopKey {
  pair: CryptoKeyPair;
  publicJwk: JsonWebKey;
}

export async function createDpopKey(): Promise<DpopKey> {
  const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const jwk = await crypto.subtle.exportKey('jwk', pair.publicKey);
  return { pair, publicJwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y } };
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const encoder = new TextEncoder();

export async function dpopProof(
  key: DpopKey,
  method: string,
  url: string,
  options: { accessToken?: string; nonce?: string } = {},
): Promise<string> {
  const target = new URL(url);
  target.search = '';
  target.hash = '';
  const header = { typ: 'dpop+jwt', alg: 'ES256', jwk: key.publicJwk };
  const payload: Record<string, unknown> = {
    jti: crypto.randomUUID(),
    htm: method,
    htu: target.href,
    iat: Math.floor(Date.now() / 1000),
  };
  if (options.accessToken !== undefined) {
    payload.ath = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(options.accessToken))));
  }
  if (options.nonce !== undefined) payload.nonce = options.nonce;
  const signingInput = `${base64url(encoder.encode(JSON.stringify(header)))}.${base64url(encoder.encode(JSON.stringify(payload)))}`;
  const signature = await crypto.subtle.sign(
    { name: 'ECDSA', hash: 'SHA-256' },
    key.pair.privateKey,
    encoder.encode(signingInput),
  );
  return `${signingInput}.${base64url(new Uint8Array(signature))}`;
}
