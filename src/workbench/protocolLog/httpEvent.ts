import { displayUrl } from '../../protocol/transports/httpShared';
import type { HttpExchangeRecord } from '../../protocol/transports/wireObserver';
import { maskHeaders, maskText, MASK } from '../secrets';
import type { HeaderLine, HttpEvent } from './wireEvent';

/** Headers whose value proves possession of a key or carries a session credential, masked whatever masking says. */
const CREDENTIAL_HEADERS = new Set(['dpop', 'proxy-authorization', 'x-api-key']);
/** OAuth form fields that are credentials although their names do not say "token" or "secret". */
const CREDENTIAL_FORM_FIELDS = new Set([
  'code',
  'code_verifier',
  'assertion',
  'client_assertion',
  'subject_token',
  'actor_token',
  'password',
  'refresh_token',
  'client_secret',
  'device_code',
]);

const SENTINEL = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/;

/** An HTTP exchange as the log keeps it: URL, headers and form masked, Base64 `Mcp-Param-*` values decoded. */
export function httpEventOf(record: HttpExchangeRecord, knownSecrets: readonly string[], seq: number): HttpEvent {
  const mask = (text: string) => maskText(text, knownSecrets);
  const event: HttpEvent = {
    kind: 'http',
    seq,
    time: record.startedAt,
    purpose: record.purpose,
    method: record.method,
    url: mask(displayUrl(record.url)),
    requestHeaders: headerLines(record.requestHeaders, knownSecrets),
    durationMs: record.durationMs,
    responseHeaders: [],
  };
  if (record.requestBody !== undefined) event.requestBody = maskForm(record.requestBody, knownSecrets);
  const { outcome } = record;
  switch (outcome.kind) {
    case 'response': {
      event.status = outcome.status;
      event.statusText = outcome.statusText;
      event.responseHeaders = headerLines(outcome.headers, knownSecrets);
      const location = outcome.headers.location;
      if (location !== undefined && outcome.status >= 300 && outcome.status < 400)
        event.location = mask(displayUrl(location));
      break;
    }
    case 'failed':
      event.failure = mask(outcome.reason);
      break;
    default: {
      const exhaustive: never = outcome;
      throw new Error(`unknown HTTP outcome ${JSON.stringify(exhaustive)}`);
    }
  }
  return event;
}

function headerLines(headers: Record<string, string>, knownSecrets: readonly string[]): HeaderLine[] {
  const masked = maskHeaders(headers, knownSecrets);
  return Object.keys(headers).map((name) => {
    const value = CREDENTIAL_HEADERS.has(name) ? MASK : String(masked[name] ?? '');
    const line: HeaderLine = { name, value };
    if (name.startsWith('mcp-param-')) {
      const decoded = decodeSentinel(value);
      if (decoded !== undefined) line.decoded = maskText(decoded, knownSecrets);
    }
    return line;
  });
}

/** `=?base64?<UTF-8 Base64>?=` (SEP-2243's encoding of values a header cannot carry) decoded; undefined otherwise. */
export function decodeSentinel(value: string): string | undefined {
  const match = SENTINEL.exec(value.trim());
  if (!match) return undefined;
  try {
    const binary = atob(match[1]);
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function maskForm(body: string, knownSecrets: readonly string[]): string {
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(body);
  } catch {
    return maskText(body, knownSecrets);
  }
  const parts: string[] = [];
  for (const [name, value] of params) {
    const secret = CREDENTIAL_FORM_FIELDS.has(name.toLowerCase()) || /token|secret/i.test(name);
    parts.push(`${name}=${secret ? MASK : maskText(value, knownSecrets)}`);
  }
  return parts.join('&');
}
