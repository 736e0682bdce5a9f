/**
 * The core's English error texts a person meets most in the first hour, recognized so the extension can say them in
 * the person's language (src/extension/platform/ui/coreErrors.ts): a command not on PATH, an `${input:…}` left without a
 * value, a request or a whole start that timed out, a package launcher that failed silently, a program that cannot
 * be run or a cwd it cannot run in, a process that ended,
 * an endpoint that cannot be reached, a sign-in left unfinished. The core keeps writing English (its logs and the CLI
 * are English); what varies (command, folders searched, input id, method, milliseconds, and any server's own words
 * inside the message) is kept verbatim and only ever passed as an argument, never used as a template.
 * No vscode import: unit-tested, with the zh-CN bundle, in test/unit/coreErrorWording.test.ts.
 */
import type { UnreachableWords } from '../../../workbench/lifecycle/startFailure';

/**
 * Why the era probe ended, inside a start timeout (autoEra.ts, eraProbe.ts). Only the probe's own three texts are
 * translated, matched whole; any other reason (a server's error reply, its words) is kept verbatim.
 */
export type ProbeReason =
  | { kind: 'no-sign-of-life' }
  | { kind: 'slow' }
  | { kind: 'grace-ran-out'; server: string; upMs: string; graceMs: string }
  | { kind: 'verbatim'; text: string };

export type CoreErrorKind =
  | { kind: 'command-not-found'; command: string; searched: string }
  /** commandResolution.ts: a command given as a path that is not there, or not executable. */
  | { kind: 'path-not-found'; command: string; cwd: string | undefined; lookedFor: string }
  | { kind: 'not-executable'; path: string }
  | { kind: 'input-without-value'; input: string }
  | { kind: 'timed-out'; method: string; ms: string }
  /** autoEra.ts: one deadline for the whole start, spent by the era probe and then by initialize. */
  | { kind: 'start-timed-out'; totalMs: string; probeMs: string; reason: ProbeReason; initializeMs: string | undefined }
  | { kind: 'launcher-silent'; launcher: string }
  | { kind: 'permission-denied'; command: string }
  /** stdio.ts: the server's cwd is missing or is a file. */
  | { kind: 'cwd-unusable'; command: string; cwd: string; problem: 'is not a directory' | 'does not exist' }
  | { kind: 'process-exited'; code: string }
  /** stdio.ts: a request sent after the server's process ended or closed its input. */
  | { kind: 'process-gone'; how: 'not running' | 'closed its input' }
  | { kind: 'process-killed'; signal: string }
  | { kind: 'unreachable'; words: UnreachableWords }
  | { kind: 'sign-in-unfinished'; seconds: string };

/** Every English template `sayCoreError` may use: each must have its entry in l10n/bundle.l10n.zh-cn.json. */
export const CORE_ERROR_TEMPLATES = [
  '{0} was not found on PATH (searched: {1}). Use an absolute path, set cwd, or add its folder to PATH through env.',
  // Not `${input:{0}}`: vscode.l10n.t reads `{input:{0}` as one unknown key and would leave `{0}` unfilled.
  '{0} not found (looked for {1}). Check the path, or use an absolute path.',
  '{0} not found relative to cwd {1} (looked for {2}). Check the path, or use an absolute path.',
  '{0} exists but is not executable: run chmod +x on it, or use the interpreter as the command (e.g. "node", "python")',
  'no value was given for the input {0}',
  '{0} got no answer within {1} ms (timed out)',
  'the start timed out after {0} ms: the era probe took {1} ms ({2}), then initialize was not answered for {3} ms',
  'the start timed out after {0} ms: the era probe took {1} ms ({2}), which left no time for initialize',
  'the server showed no sign of life and server/discover was not answered in time',
  'the server was slow to answer the probe (server/discover was not answered in time)',
  '{0} was slow to answer the probe: it was up {1} ms after start but left server/discover unanswered for {2} ms more',
  'with nothing on stderr: "{0}" may have failed to download or install the package; run the same command in a terminal to see why',
  'permission denied running "{0}": is it executable?',
  'cannot start "{0}": cwd {1} is not a directory',
  'cannot start "{0}": cwd {1} does not exist',
  'the server process exited with code {0}',
  'the server process is not running',
  'the server closed its input',
  'the server process was killed by {0}',
  'unreachable: connection refused',
  'unreachable: host not found',
  'unreachable: connection timed out',
  'unreachable: connection reset',
  'unreachable: host unreachable',
  'unreachable: network unreachable',
  'unreachable: the port is not allowed',
  'unreachable: TLS certificate problem',
  'the sign-in was not finished within {0} s',
] as const;

export type CoreErrorTemplate = (typeof CORE_ERROR_TEMPLATES)[number];

/** `vscode.l10n.t` in the extension; the zh-CN bundle in the unit test. */
export type Translate = (template: CoreErrorTemplate, ...args: string[]) => string;

const UNREACHABLE_PATTERN =
  /unreachable: (connection refused|host not found|connection timed out|connection reset|host unreachable|network unreachable|the port is not allowed|TLS certificate problem)/;

const PATTERNS: { regex: RegExp; make(match: RegExpExecArray): CoreErrorKind }[] = [
  {
    // Not \S: in zh-CN the wrapper "找不到命令“x”：" runs into the command with no space after its full-width colon.
    regex: /([^\s：]+) not found on PATH \(searched: (.*?)\)\. Use an absolute path, set cwd, or add its folder to PATH through env\./,
    make: (match) => ({ kind: 'command-not-found', command: match[1], searched: match[2] }),
  },
  {
    regex: /([^\s：]+) not found(?: relative to cwd (.*?))? \(looked for (.*?)\)\. Check the path, or use an absolute path\./,
    make: (match) => ({ kind: 'path-not-found', command: match[1], cwd: match[2], lookedFor: match[3] }),
  },
  {
    regex: /([^\s：]+) exists but is not executable: run chmod \+x on it, or use the interpreter as the command \(e\.g\. "node", "python"\)/,
    make: (match) => ({ kind: 'not-executable', path: match[1] }),
  },
  { regex: /cannot resolve \$\{input:([^}]+)\}: no value was given/, make: (match) => ({ kind: 'input-without-value', input: match[1] }) },
  {
    // Greedy up to the last "), then…" / "), which…": the reason may hold parentheses of its own (a server's error text).
    regex: /the start timed out after (\d+) ms: the era probe took (\d+) ms \((.*)\), (?:then initialize was not answered for (\d+) ms|which left no time for initialize)/,
    make: (match) => ({ kind: 'start-timed-out', totalMs: match[1], probeMs: match[2], reason: probeReason(match[3]), initializeMs: match[4] }),
  },
  { regex: /([\w/.$-]+) timed out after (\d+) ms/, make: (match) => ({ kind: 'timed-out', method: match[1], ms: match[2] }) },
  {
    regex: /with nothing on stderr: "([^"]+)" may have failed to download or install the package; run the same command in a terminal to see why/,
    make: (match) => ({ kind: 'launcher-silent', launcher: match[1] }),
  },
  // Greedy up to the literal tail: the command is the person's own and may hold quotes or colons.
  { regex: /permission denied running "(.*)": is it executable\?/, make: (match) => ({ kind: 'permission-denied', command: match[1] }) },
  {
    regex: /cannot start "(.*)": cwd (.*?) (is not a directory|does not exist)/,
    make: (match) => ({ kind: 'cwd-unusable', command: match[1], cwd: match[2], problem: match[3] as 'is not a directory' | 'does not exist' }),
  },
  { regex: /the server (?:process is not running|closed its input)/, make: (match) => ({ kind: 'process-gone', how: match[0].endsWith('input') ? 'closed its input' : 'not running' }) },
  // The start failure's summary (startFailure.ts) drops "the server process"; both say the same thing.
  { regex: /(?:the server process )?exited with code (-?\d+)/, make: (match) => ({ kind: 'process-exited', code: match[1] }) },
  { regex: /(?:the server process )?was killed by ([A-Z0-9]+)/, make: (match) => ({ kind: 'process-killed', signal: match[1] }) },
  { regex: UNREACHABLE_PATTERN, make: (match) => ({ kind: 'unreachable', words: match[1] as UnreachableWords }) },
  { regex: /the sign-in was not finished within ([\d.]+) s/, make: (match) => ({ kind: 'sign-in-unfinished', seconds: match[1] }) },
];

const GRACE_RAN_OUT = /^(.+?) was slow to answer the probe: it was up (\d+) ms after start but left server\/discover unanswered for (\d+) ms more$/;

function probeReason(text: string): ProbeReason {
  if (text === 'the server showed no sign of life and server/discover was not answered in time') return { kind: 'no-sign-of-life' };
  if (text === 'the server was slow to answer the probe (server/discover was not answered in time)') return { kind: 'slow' };
  const grace = GRACE_RAN_OUT.exec(text);
  if (grace) return { kind: 'grace-ran-out', server: grace[1], upMs: grace[2], graceMs: grace[3] };
  return { kind: 'verbatim', text };
}

export interface RecognizedError {
  /** Where in the message the core's text starts and ends: the rest (the extension's own words) stays as it is. */
  start: number;
  end: number;
  error: CoreErrorKind;
}

/** The recognized parts, in order, without overlaps: where two start at once, the longer (the whole text) wins. */
export function recognizeCoreErrors(message: string): RecognizedError[] {
  const found: RecognizedError[] = [];
  for (const { regex, make } of PATTERNS) {
    const match = regex.exec(message);
    if (match) found.push({ start: match.index, end: match.index + match[0].length, error: make(match) });
  }
  const ordered = found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: RecognizedError[] = [];
  for (const item of ordered) if (kept.length === 0 || item.start >= kept[kept.length - 1].end) kept.push(item);
  return kept;
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

/** The message with its recognized parts said through `t`. */
export function translateCoreErrors(message: string, t: Translate): string {
  return rewriteCoreErrors(message, (error) => sayCoreError(error, t));
}

export function sayCoreError(error: CoreErrorKind, t: Translate): string {
  switch (error.kind) {
    case 'command-not-found':
      return t('{0} was not found on PATH (searched: {1}). Use an absolute path, set cwd, or add its folder to PATH through env.', error.command, error.searched);
    case 'path-not-found':
      return error.cwd === undefined
        ? t('{0} not found (looked for {1}). Check the path, or use an absolute path.', error.command, error.lookedFor)
        : t('{0} not found relative to cwd {1} (looked for {2}). Check the path, or use an absolute path.', error.command, error.cwd, error.lookedFor);
    case 'not-executable':
      return t('{0} exists but is not executable: run chmod +x on it, or use the interpreter as the command (e.g. "node", "python")', error.path);
    case 'input-without-value':
      return t('no value was given for the input {0}', `\${input:${error.input}}`);
    case 'timed-out':
      return t('{0} got no answer within {1} ms (timed out)', error.method, error.ms);
    case 'start-timed-out': {
      const reason = sayProbeReason(error.reason, t);
      return error.initializeMs === undefined
        ? t('the start timed out after {0} ms: the era probe took {1} ms ({2}), which left no time for initialize', error.totalMs, error.probeMs, reason)
        : t('the start timed out after {0} ms: the era probe took {1} ms ({2}), then initialize was not answered for {3} ms', error.totalMs, error.probeMs, reason, error.initializeMs);
    }
    case 'launcher-silent':
      return t('with nothing on stderr: "{0}" may have failed to download or install the package; run the same command in a terminal to see why', error.launcher);
    case 'permission-denied':
      return t('permission denied running "{0}": is it executable?', error.command);
    case 'cwd-unusable':
      return error.problem === 'is not a directory'
        ? t('cannot start "{0}": cwd {1} is not a directory', error.command, error.cwd)
        : t('cannot start "{0}": cwd {1} does not exist', error.command, error.cwd);
    case 'process-exited':
      return t('the server process exited with code {0}', error.code);
    case 'process-gone':
      return error.how === 'not running' ? t('the server process is not running') : t('the server closed its input');
    case 'process-killed':
      return t('the server process was killed by {0}', error.signal);
    case 'unreachable':
      return sayUnreachable(error.words, t);
    case 'sign-in-unfinished':
      return t('the sign-in was not finished within {0} s', error.seconds);
    default: {
      const exhaustive: never = error;
      throw new Error(`unknown core error ${JSON.stringify(exhaustive)}`);
    }
  }
}

function sayProbeReason(reason: ProbeReason, t: Translate): string {
  switch (reason.kind) {
    case 'no-sign-of-life':
      return t('the server showed no sign of life and server/discover was not answered in time');
    case 'slow':
      return t('the server was slow to answer the probe (server/discover was not answered in time)');
    case 'grace-ran-out':
      return t('{0} was slow to answer the probe: it was up {1} ms after start but left server/discover unanswered for {2} ms more', reason.server, reason.upMs, reason.graceMs);
    case 'verbatim':
      return reason.text;
    default: {
      const exhaustive: never = reason;
      throw new Error(`unknown probe reason ${JSON.stringify(exhaustive)}`);
    }
  }
}

function sayUnreachable(words: UnreachableWords, t: Translate): string {
  switch (words) {
    case 'connection refused':
      return t('unreachable: connection refused');
    case 'host not found':
      return t('unreachable: host not found');
    case 'connection timed out':
      return t('unreachable: connection timed out');
    case 'connection reset':
      return t('unreachable: connection reset');
    case 'host unreachable':
      return t('unreachable: host unreachable');
    case 'network unreachable':
      return t('unreachable: network unreachable');
    case 'the port is not allowed':
      return t('unreachable: the port is not allowed');
    case 'TLS certificate problem':
      return t('unreachable: TLS certificate problem');
    default: {
      const exhaustive: never = words;
      throw new Error(`unknown unreachable words ${JSON.stringify(exhaustive)}`);
    }
  }
}
