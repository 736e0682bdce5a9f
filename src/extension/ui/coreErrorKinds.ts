/**
 * The core's English error texts a person meets most in the first hour, recognized so the extension can say them in
 * the person's language (src/extension/ui/coreErrors.ts): a command not on PATH, an `${input:…}` left without a
 * value, a request that timed out, a package launcher that failed silently. The core keeps writing English (its logs and the CLI are English); what varies
 * (command, folders searched, input id, method, milliseconds) is kept verbatim. No vscode import: unit-tested.
 */
export type CoreErrorKind =
  | { kind: 'command-not-found'; command: string; searched: string }
  | { kind: 'input-without-value'; input: string }
  | { kind: 'timed-out'; method: string; ms: string }
  | { kind: 'launcher-silent'; launcher: string };

export interface RecognizedError {
  /** Where in the message the core's text starts and ends: the rest (the extension's own words) stays as it is. */
  start: number;
  end: number;
  error: CoreErrorKind;
}

const PATTERNS: { regex: RegExp; make(match: RegExpExecArray): CoreErrorKind }[] = [
  {
    regex: /(\S+) not found on PATH \(searched: (.*?)\)\. Use an absolute path, set cwd, or add its folder to PATH through env\./,
    make: (match) => ({ kind: 'command-not-found', command: match[1], searched: match[2] }),
  },
  { regex: /cannot resolve \$\{input:([^}]+)\}: no value was given/, make: (match) => ({ kind: 'input-without-value', input: match[1] }) },
  { regex: /([\w/.$-]+) timed out after (\d+) ms/, make: (match) => ({ kind: 'timed-out', method: match[1], ms: match[2] }) },
  {
    regex: /with nothing on stderr: "([^"]+)" may have failed to download or install the package; run the same command in a terminal to see why/,
    make: (match) => ({ kind: 'launcher-silent', launcher: match[1] }),
  },
];

export function recognizeCoreErrors(message: string): RecognizedError[] {
  const found: RecognizedError[] = [];
  for (const { regex, make } of PATTERNS) {
    const match = regex.exec(message);
    if (match) found.push({ start: match.index, end: match.index + match[0].length, error: make(match) });
  }
  return found.sort((a, b) => a.start - b.start).filter((item, index, all) => index === 0 || item.start >= all[index - 1].end);
}

/** The message with each recognized part replaced by `say(error)`. */
export function rewriteCoreErrors(message: string, say: (error: CoreErrorKind) => string): string {
  let result = '';
  let at = 0;
  for (const { start, end, error } of recognizeCoreErrors(message)) {
    result += message.slice(at, start) + say(error);
    at = end;
  }
  return result + message.slice(at);
}
