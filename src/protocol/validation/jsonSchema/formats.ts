import { compileLinearPattern, type CompiledPattern } from '../linearRegExp';

/**
 * The formats ajv-formats checks in its "full" mode, with its definitions (RFC 3339 dates and times, RFC 3986
 * URIs, ...), in linear time. Expressions that cannot backtrack far (anchored, bounded or unambiguous) run on the
 * native engine; the long, ambiguous ones (uri, uri-reference) run on the linear engine of
 * linearRegExp.ts, whose per-character cost the caller charges to the validation's budget. `url` is the WHATWG
 * URL parser behind a scheme check: ajv-formats' own `url` expression backtracks for seconds on 50 KB.
 */

interface StringFormat {
  readonly kind: 'string';
  /** Budget units per character of the subject (see StringCheckRun.admit). */
  cost(): number;
  /** `undefined`: the format could not be evaluated (its expression did not compile). */
  test(text: string): boolean | undefined;
}

interface NumberFormat {
  readonly kind: 'number';
  test(value: number): boolean;
}

export type Format = StringFormat | NumberFormat;

const native = (check: (text: string) => boolean): StringFormat => ({ kind: 'string', cost: () => 1, test: check });

/** ajv-formats' expressions are case-insensitive (`i`); the linear engine takes explicit classes instead. */
function caseless(source: string): string {
  return source.replace(/a-z/g, 'a-zA-Z').replace(/a-f/g, 'a-fA-F');
}

/** An expression compiled on first use on the linear engine. */
function linear(source: string, extra?: (text: string) => boolean): StringFormat {
  let compiled: CompiledPattern | undefined;
  const get = () => (compiled ??= compileLinearPattern(caseless(source)));
  return {
    kind: 'string',
    cost: () => {
      const pattern = get();
      return pattern.kind === 'linear' ? pattern.cost : 1;
    },
    test: (text) => {
      const pattern = get();
      if (pattern.kind !== 'linear') return undefined;
      return (extra === undefined || extra(text)) && pattern.test(text);
    },
  };
}

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

const DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isDate(text: string): boolean {
  const matches = DATE.exec(text);
  if (!matches) return false;
  const year = +matches[1];
  const month = +matches[2];
  const day = +matches[3];
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && isLeapYear(year) ? 29 : DAYS[month]);
}

// One `\d+` followed by a distinct suffix: backtracking is linear.
const TIME = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$/i;

function timeCheck(strictTimeZone: boolean): (text: string) => boolean {
  return (text) => {
    const matches = TIME.exec(text);
    if (!matches) return false;
    const hour = +matches[1];
    const minute = +matches[2];
    const second = +matches[3];
    const zone = matches[4];
    const zoneSign = matches[5] === '-' ? -1 : 1;
    const zoneHour = +(matches[6] || 0);
    const zoneMinute = +(matches[7] || 0);
    if (zoneHour > 23 || zoneMinute > 59 || (strictTimeZone && !zone)) return false;
    if (hour <= 23 && minute <= 59 && second < 60) return true;
    // A leap second: 23:59:60 in UTC.
    const utcMinute = minute - zoneMinute * zoneSign;
    const utcHour = hour - zoneHour * zoneSign - (utcMinute < 0 ? 1 : 0);
    return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1) && second < 61;
  };
}

function dateTimeCheck(strictTimeZone: boolean): (text: string) => boolean {
  const time = timeCheck(strictTimeZone);
  return (text) => {
    const parts = text.split(/t|\s/i);
    return parts.length === 2 && isDate(parts[0]) && time(parts[1]);
  };
}

function isWebUrl(text: string): boolean {
  if (!/^(?:https?|ftp):\/\/[^\s/?#@]/i.test(text) || /\s/.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** ajv-formats' `byte` expression has the `m` flag: a string passes when one of its lines is base64. */
const BASE64_LINE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function isByte(text: string): boolean {
  return text.split(/[\n\r\u2028\u2029]/).some((line) => BASE64_LINE.test(line));
}

/** ajv-formats' `regex`: the native parser (parsing is linear; nothing is matched) without the `u` flag. */
function isRegex(text: string): boolean {
  if (/[^\\]\\Z/.test(text)) return false;
  try {
    new RegExp(text);
    return true;
  } catch {
    return false;
  }
}

// ajv-formats' hostname starts with the lookahead (?=.{1,253}\.?$), which bounds everything after it.
const HOSTNAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\.?$/i;

function isHostname(text: string): boolean {
  const bare = text.endsWith('.') ? text.length - 1 : text.length;
  return bare >= 1 && bare <= 253 && !/[\n\r\u2028\u2029]/.test(text) && HOSTNAME.test(text);
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const V4 = `(${OCTET}(\\.${OCTET}){3})`;
const H16 = '[0-9a-f]{1,4}';
// Every branch is bounded (at most 45 characters), so backtracking is bounded too.
const IPV6 = new RegExp(
  `^(((${H16}:){7}(${H16}|:))|((${H16}:){6}(:${H16}|${V4}|:))|((${H16}:){5}(((:${H16}){1,2})|:${V4}|:))|((${H16}:){4}(((:${H16}){1,3})|((:${H16})?:${V4})|:))|((${H16}:){3}(((:${H16}){1,4})|((:${H16}){0,2}:${V4})|:))|((${H16}:){2}(((:${H16}){1,5})|((:${H16}){0,3}:${V4})|:))|((${H16}:){1}(((:${H16}){1,6})|((:${H16}){0,4}:${V4})|:))|(:(((:${H16}){1,7})|((:${H16}){0,5}:${V4})|:)))$`,
  'i',
);

const UUID = /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;

function isUuid(text: string): boolean {
  return UUID.test(/^urn:uuid:/i.test(text) ? text.slice(9) : text);
}

// The lookaheads are at fixed places and every `\d+` has a distinct suffix: linear.
const DURATION = /^P(?!$)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)$/;

// Segments start with a character their contents exclude ('/', '%', ','): no ambiguity, linear backtracking.
const JSON_POINTER = /^(?:\/(?:[^~/]|~0|~1)*)*$/;
const JSON_POINTER_URI_FRAGMENT = /^#(?:\/(?:[a-z0-9_\-.!$&'()*+,;:=@]|%[0-9a-f]{2}|~0|~1)*)*$/i;
const RELATIVE_JSON_POINTER = /^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~0|~1)*)*)$/;
const URI_TEMPLATE =
  /^(?:(?:[^\x00-\x20"'<>%\\^`{|}]|%[0-9a-f]{2})|\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?)*\})*$/i;

// ajv-formats' uri and uri-reference (RFC 3986, from jmrware.com), verbatim; they are ambiguous, so they run on
// the linear engine.
const URI = String.raw`^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$`;
const URI_REFERENCE = String.raw`^(?:[a-z][a-z0-9+\-.]*:)?(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'"()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*)?(?:\?(?:[a-z0-9\-._~!$&'"()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'"()*+,;=:@/?]|%[0-9a-f]{2})*)?$`;

// ajv-formats' email, `^local@(?:label\.)+label$`, split at the '@' and the dots neither part may contain, so
// each expression left is unambiguous and linear.
const EMAIL_LOCAL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/i;
const EMAIL_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

function isEmail(text: string): boolean {
  const at = text.indexOf('@');
  if (at < 0 || !EMAIL_LOCAL.test(text.slice(0, at))) return false;
  const labels = text.slice(at + 1).split('.');
  return labels.length >= 2 && labels.every((label) => EMAIL_LABEL.test(label));
}

const MIN_INT32 = -(2 ** 31);
const MAX_INT32 = 2 ** 31 - 1;

const FORMATS = new Map<string, Format>([
  ['date', native(isDate)],
  ['time', native(timeCheck(true))],
  ['date-time', native(dateTimeCheck(true))],
  ['iso-time', native(timeCheck(false))],
  ['iso-date-time', native(dateTimeCheck(false))],
  ['duration', native((text) => DURATION.test(text))],
  ['uri', linear(URI, (text) => /\/|:/.test(text))],
  ['uri-reference', linear(URI_REFERENCE)],
  ['uri-template', native((text) => URI_TEMPLATE.test(text))],
  ['url', native(isWebUrl)],
  ['email', native(isEmail)],
  ['hostname', native(isHostname)],
  ['ipv4', native((text) => IPV4.test(text))],
  ['ipv6', native((text) => IPV6.test(text))],
  ['regex', native(isRegex)],
  ['uuid', native(isUuid)],
  ['json-pointer', native((text) => JSON_POINTER.test(text))],
  ['json-pointer-uri-fragment', native((text) => JSON_POINTER_URI_FRAGMENT.test(text))],
  ['relative-json-pointer', native((text) => RELATIVE_JSON_POINTER.test(text))],
  ['byte', native(isByte)],
  ['password', native(() => true)],
  ['binary', native(() => true)],
  ['int32', { kind: 'number', test: (value) => Number.isInteger(value) && value <= MAX_INT32 && value >= MIN_INT32 }],
  ['int64', { kind: 'number', test: (value) => Number.isInteger(value) }],
  ['float', { kind: 'number', test: () => true }],
  ['double', { kind: 'number', test: () => true }],
]);

/** The check for a format name; unknown formats are not checked (as ajv with strict: false). */
export function formatCheck(name: string): Format | undefined {
  return FORMATS.get(name);
}
