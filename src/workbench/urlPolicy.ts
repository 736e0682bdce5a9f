/**
 * The one check every URL a server asks the person to open goes through. The string shown for consent and the
 * string handed to the browser are the same value, produced once here, so what the person approved is what opens.
 * A URL is refused (never "fixed") when its text could make the host shown differ from the host reached:
 * userinfo (`https://good.example@evil.example/`), backslashes (some parsers read them as `/`), control, space or
 * bidirectional-override characters, or a scheme other than http(s).
 */

type UrlVerdict = { kind: 'allowed'; url: string; host: string } | UrlRefused;

/** Why a URL is refused, with what a message needs; `detail` is the English sentence (logs, the CLI, the registry). */
export type UrlRefused = { kind: 'refused'; detail: string } & (
  | { reason: 'missing' | 'unparsable' | 'no-host' | 'userinfo' | 'backslash' }
  | { reason: 'control-character'; character: string }
  | { reason: 'scheme'; scheme: string }
);

/** True when the text holds a control, space, bidirectional or zero-width character (UNSAFE_CHARACTER). */
export function hasUnsafeCharacter(text: string): boolean {
  return UNSAFE_CHARACTER.test(text);
}

/** C0/C1 controls, space, and the bidirectional / zero-width formatting characters that reorder or hide text. */
const UNSAFE_CHARACTER = /[\u0000-\u0020\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;

export function checkExternalUrl(raw: unknown): UrlVerdict {
  if (typeof raw !== 'string' || raw.length === 0)
    return { kind: 'refused', reason: 'missing', detail: 'the URL is missing or not a string' };
  const unsafe = UNSAFE_CHARACTER.exec(raw);
  if (unsafe) {
    const character = escapeCodePoint(unsafe[0]);
    return {
      kind: 'refused',
      reason: 'control-character',
      character,
      detail: `the URL contains the character ${character}`,
    };
  }
  if (raw.includes('\\')) return { kind: 'refused', reason: 'backslash', detail: 'the URL contains a backslash' };
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return { kind: 'refused', reason: 'unparsable', detail: 'the URL cannot be parsed' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return {
      kind: 'refused',
      reason: 'scheme',
      scheme: parsed.protocol,
      detail: `${parsed.protocol} URLs are not allowed, only http: and https:`,
    };
  }
  // `https://user@host` and `https://:pw@host`: the part before @ is shown first and is easily read as the host.
  if (parsed.username !== '' || parsed.password !== '' || /^[a-z]+:\/\/[^/?#]*@/i.test(raw)) {
    return { kind: 'refused', reason: 'userinfo', detail: 'the URL has a user name or password before the host' };
  }
  if (parsed.hostname === '') return { kind: 'refused', reason: 'no-host', detail: 'the URL has no host' };
  return { kind: 'allowed', url: parsed.href, host: parsed.host };
}

/**
 * Text from a server as a consent dialog must show it: control, bidirectional and zero-width characters written
 * as `\uXXXX`, so a right-to-left override cannot make `gpj.exe` read as `exe.jpg` and a newline cannot forge a
 * line of the dialog. Backslashes are doubled so an escaped form cannot be faked by typing it.
 */
export function escapeForDisplay(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(new RegExp(UNSAFE_DISPLAY.source, 'gu'), (character) => escapeCodePoint(character));
}

/** As UNSAFE_CHARACTER but keeping the plain space (command lines and messages contain spaces). */
const UNSAFE_DISPLAY = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;

function escapeCodePoint(character: string): string {
  return `\\u${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}
