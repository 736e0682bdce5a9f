/**
 * Masks secrets before they reach logs, protocol traces and the UI. Two sources of truth: values we know are
 * secret (resolved `${input:...}` passwords, keys read from env files) are replaced wherever they appear, and values
 * stored under keys that name a secret (`Authorization`, `apiKey`, `GITHUB_TOKEN`, ...) are replaced whole.
 */

export const MASK = '••••';

/** Below this length a substring replacement would mangle unrelated text ("abc" is in many words). */
const MIN_SECRET_LENGTH = 4;

/**
 * Key names that hold secrets. Anchored at the end so `maxTokens`, `tokenType` and `secretName` stay readable;
 * protocol fields that merely end in "token" are listed in NOT_SECRET_KEYS.
 */
const SECRET_KEY = /(?:authorization|api[-_]?key|token|secret|password|passwd|cookie|credentials?)$/i;
const NOT_SECRET_KEYS = new Set(['progresstoken', 'pagetoken', 'nextpagetoken', 'cursor', 'nextcursor']);

/** `Bearer abc` keeps its scheme so a trace still shows which kind of credential was sent. */
const AUTH_SCHEME = /^(Bearer|Basic|Token|Digest|Bot)\s+\S/i;
/** Credentials written after an auth scheme in free text, e.g. in a logged header line. */
const SCHEME_IN_TEXT = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g;
/**
 * A query parameter in a URL written in free text (`https://host/mcp?api_key=…&x=1`): its value is masked when its
 * name names a secret, so a URL typed literally into mcp.json (not a known secret) is not logged in clear.
 */
const QUERY_PARAMETER_IN_TEXT = /([?&])([A-Za-z0-9_.~%-]{1,64})=([^&#\s"'<>]+)/g;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key) && !NOT_SECRET_KEYS.has(key.toLowerCase());
}

/** Returns a deep copy of `value` with secrets masked; the input is never modified. */
export function maskSecrets<T>(value: T, knownSecrets: readonly string[] = []): T {
  return maskValue(value, maskerFor(knownSecrets)) as T;
}

/** Masks known secret values and `Bearer <credential>` patterns inside free text. */
export function maskText(text: string, knownSecrets: readonly string[] = []): string {
  return maskerFor(knownSecrets).mask(text);
}

let lastSecrets: readonly string[] = [];
let lastMasker: TextMasker | undefined;

/**
 * The masker of the last list of secrets asked for, while the list has the same values: a Protocol view or a log
 * masks every message with the same few secrets (asked afresh each time, so an input entered later counts), and
 * building the needles (escaped and URL-encoded forms, sorted) per message cost more than masking.
 */
function maskerFor(knownSecrets: readonly string[]): TextMasker {
  if (lastMasker && sameValues(knownSecrets, lastSecrets)) return lastMasker;
  lastMasker = new TextMasker(knownSecrets);
  lastSecrets = [...knownSecrets];
  return lastMasker;
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

/** Masks HTTP headers for display: secret-looking header names entirely (keeping the auth scheme), others by value. */
export function maskHeaders(
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
  knownSecrets: readonly string[] = [],
): Record<string, string | string[] | undefined> {
  const masker = new TextMasker(knownSecrets);
  const result: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) result[name] = undefined;
    else if (typeof value === 'string') result[name] = maskField(name, value, masker);
    else result[name] = value.map((item) => maskField(name, item, masker));
  }
  return result;
}

function maskField(key: string, value: string, masker: TextMasker): string {
  if (!isSecretKey(key) || value === '') return masker.mask(value);
  const scheme = AUTH_SCHEME.exec(value);
  return scheme ? `${scheme[1]} ${MASK}` : MASK;
}

/**
 * Copies iteratively, not recursively: a server can send a value nested 100,000 levels deep, which would
 * overflow the stack of a recursive copy and lose the whole log line.
 */
function maskValue(root: unknown, masker: TextMasker): unknown {
  type Container = unknown[] | Record<string, unknown>;
  const seen = new WeakMap<object, Container>();
  const pending: { source: object; target: Container }[] = [];
  // A leaf's masked copy, or the still-empty copy of a container that is queued for filling.
  const copy = (value: unknown): unknown => {
    if (typeof value === 'string') return masker.mask(value);
    if (typeof value !== 'object' || value === null) return value;
    const existing = seen.get(value);
    if (existing !== undefined) return existing; // cycles and shared references: reuse the copy
    const target: Container = Array.isArray(value) ? [] : {};
    seen.set(value, target);
    pending.push({ source: value, target });
    return target;
  };
  const result = copy(root);
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { source, target } = next;
    if (Array.isArray(target)) {
      for (const item of source as unknown[]) target.push(copy(item));
      continue;
    }
    for (const [key, item] of Object.entries(source)) {
      // Booleans and null under a secret key are flags (`"password": true` in an input definition), not secrets.
      if (isSecretKey(key) && typeof item === 'string') target[key] = maskField(key, item, masker);
      else if (isSecretKey(key) && (typeof item === 'number' || typeof item === 'bigint')) target[key] = MASK;
      else target[key] = copy(item);
    }
  }
  return result;
}

class TextMasker {
  private readonly needles: string[];

  constructor(knownSecrets: readonly string[]) {
    const needles = new Set<string>();
    for (const secret of knownSecrets) {
      if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) continue;
      needles.add(secret);
      // A secret can appear escaped inside serialized JSON (traces) or URL-encoded (query strings).
      needles.add(JSON.stringify(secret).slice(1, -1));
      needles.add(encodeURIComponent(secret));
    }
    // Longest first, so a secret that contains another is replaced whole.
    this.needles = [...needles]
      .filter((needle) => needle.length >= MIN_SECRET_LENGTH)
      .sort((a, b) => b.length - a.length);
  }

  mask(text: string): string {
    let result = text;
    for (const needle of this.needles) if (result.includes(needle)) result = result.split(needle).join(MASK);
    // Each pattern needs a literal its match cannot do without: a text without it is not scanned.
    if (result.includes('Bearer') || result.includes('Basic'))
      result = result.replace(SCHEME_IN_TEXT, (_match, scheme: string) => `${scheme} ${MASK}`);
    if (result.includes('=')) {
      result = result.replace(QUERY_PARAMETER_IN_TEXT, (match, separator: string, name: string) =>
        isSecretKey(safeDecode(name)) ? `${separator}${name}=${MASK}` : match,
      );
    }
    return result;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
