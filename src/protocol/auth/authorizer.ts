/**
 * Who supplies the credentials of HTTP requests. The HTTP transports ask the authorizer for headers before
 * every request and tell it about 401/403 challenges, so static configured headers and OAuth are both just
 * authorizers and the transports hold no credentials of their own.
 */

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/** The request about to be sent. */
export interface HttpAuthRequest {
  url: string;
  method: HttpMethod;
}

/** The server refused a request for lack of (valid) credentials. */
export interface HttpAuthChallenge {
  status: 401 | 403;
  /** The WWW-Authenticate header as received (untrusted text; an OAuth authorizer parses it). */
  wwwAuthenticate?: string;
  url: string;
  method: HttpMethod;
  /** The DPoP-Nonce header (RFC 9449 §9), when the server sent one with the refusal. */
  dpopNonce?: string;
}

/** 'retry': credentials were refreshed, send the request once more. 'fail': report the refusal. */
export type ChallengeDecision = 'retry' | 'fail';

export interface HttpAuthorizer {
  /** Headers to add to this request (for example Authorization). Called again for a retried request. */
  headersFor(request: HttpAuthRequest): Promise<Record<string, string>> | Record<string, string>;
  /** Consulted on 401/403. Without it, such an answer is reported as an HTTP error. */
  onChallenge?(challenge: HttpAuthChallenge): Promise<ChallengeDecision> | ChallengeDecision;
}

/** The default authorizer: the headers from the configuration, on every request; challenges fail. */
export function staticHeaders(headers: Readonly<Record<string, string>> = {}): HttpAuthorizer {
  const copy = { ...headers };
  return { headersFor: () => ({ ...copy }) };
}

/** Configured headers under another authorizer's credentials (its Authorization wins over a configured one). */
export function withStaticHeaders(
  authorizer: HttpAuthorizer,
  headers: Readonly<Record<string, string>> = {},
): HttpAuthorizer {
  const copy = { ...headers };
  return {
    headersFor: async (request) => ({ ...copy, ...(await authorizer.headersFor(request)) }),
    onChallenge: authorizer.onChallenge ? (challenge) => authorizer.onChallenge!(challenge) : undefined,
  };
}
