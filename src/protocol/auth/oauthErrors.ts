import * as oauth from './oauthLibrary';

/** An OAuth error as text for a person: the server's error code and description, never a token. */
export function describeOAuthError(error: unknown): string {
  if (error instanceof oauth.ResponseBodyError)
    return `${error.error}${error.error_description ? `: ${error.error_description.slice(0, 300)}` : ''} (HTTP ${error.status})`;
  if (error instanceof oauth.AuthorizationResponseError)
    return `${error.error}${error.error_description ? `: ${error.error_description.slice(0, 300)}` : ''}`;
  if (error instanceof oauth.WWWAuthenticateChallengeError) return `HTTP ${error.status} challenge`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The error code and description of a refusal (RFC 7591 §3.2.2, RFC 6749 §5.2) in a parsed body, for the message. */
export function refusalDetail(body: unknown): string {
  if (typeof body !== 'object' || body === null) return '';
  const record = body as Record<string, unknown>;
  if (typeof record.error !== 'string') return '';
  return `: ${record.error.slice(0, 100)}${typeof record.error_description === 'string' ? `: ${record.error_description.slice(0, 300)}` : ''}`;
}
