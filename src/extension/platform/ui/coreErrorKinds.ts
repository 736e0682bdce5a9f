/**
 * The person's words for the core's errors, made from the structured detail the core sets where it throws them
 * (ErrorDetail in src/protocol/errors.ts): a command not on PATH, an `${input:…}` left without a value, a request or a
 * whole start that timed out, a package launcher that failed silently, a program that cannot be run or a cwd it cannot
 * run in, a process that ended, an endpoint that cannot be reached or that answered an HTTP error, a sign-in left
 * unfinished, a server's own JSON-RPC error (the frame only: the server's message is its words). The core keeps writing
 * English in its messages (its logs and the CLI are English); nothing here reads them. What varies (command, folders
 * searched, input id, method, milliseconds, and any server's own words) is only ever passed as an argument, never
 * used as a template.
 * No vscode import: unit-tested, with the zh-CN bundle, in test/component/extension/platform/ui/coreErrorWording.test.ts.
 */
import type { ErrorDetail, ProbeReason, UnreachableWords } from '../../../protocol/errors';
import type { StartFailure } from '../../../workbench/lifecycle/startFailure';

/** Every English template `sayErrorDetail` may use: each must have its entry in l10n/bundle.l10n.zh-cn.json. */
export const CORE_ERROR_TEMPLATES = [
  '{0} was not found on PATH (searched: {1}). Use an absolute path, set cwd, or add its folder to PATH through env.',
  'the command is empty',
  '{0} not found (looked for {1}). Check the path, or use an absolute path.',
  '{0} not found relative to cwd {1} (looked for {2}). Check the path, or use an absolute path.',
  '{0} exists but is not executable: run chmod +x on it, or use the interpreter as the command (e.g. "node", "python")',
  // Not `${input:{0}}`: vscode.l10n.t reads `{input:{0}` as one unknown key and would leave `{0}` unfilled.
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
  // A start failure's one line (startFailure.ts), after "MCP server "x" failed to start: ".
  'exited with code {0}',
  'was killed by {0}',
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
  // An HTTP status: the URL as shown safely, the server's reason phrase and the start of its body verbatim.
  'HTTP {0} from {1}',
  'HTTP {0} {1} from {2}',
  'HTTP {0} from {1}: {2}',
  'HTTP {0} {1} from {2}: {3}',
  // A server's JSON-RPC error: its message ({3}) is the server's words, never translated.
  '{0} answered {1} with error {2}: {3}',
] as const;

export type CoreErrorTemplate = (typeof CORE_ERROR_TEMPLATES)[number];

/** `vscode.l10n.t` in the extension; the zh-CN bundle in the unit test. */
type Translate = (template: CoreErrorTemplate, ...args: string[]) => string;

/** The detail in the person's words. Exhaustive: a new kind fails to compile until it is worded here. */
export function sayErrorDetail(detail: ErrorDetail, t: Translate): string {
  switch (detail.kind) {
    case 'command-not-found':
      return t(
        '{0} was not found on PATH (searched: {1}). Use an absolute path, set cwd, or add its folder to PATH through env.',
        detail.command,
        detail.searched,
      );
    case 'command-empty':
      return t('the command is empty');
    case 'path-not-found':
      return detail.cwd === undefined
        ? t(
            '{0} not found (looked for {1}). Check the path, or use an absolute path.',
            detail.command,
            detail.lookedFor,
          )
        : t(
            '{0} not found relative to cwd {1} (looked for {2}). Check the path, or use an absolute path.',
            detail.command,
            detail.cwd,
            detail.lookedFor,
          );
    case 'not-executable':
      return t(
        '{0} exists but is not executable: run chmod +x on it, or use the interpreter as the command (e.g. "node", "python")',
        detail.path,
      );
    case 'input-without-value':
      return t('no value was given for the input {0}', `\${input:${detail.input}}`);
    case 'timed-out':
      return t('{0} got no answer within {1} ms (timed out)', detail.method, String(detail.ms));
    case 'probe-grace-ran-out':
      return sayProbeReason(
        { kind: 'grace-ran-out', server: detail.server, upMs: detail.upMs, graceMs: detail.graceMs },
        t,
      );
    case 'start-timed-out': {
      const reason = sayProbeReason(detail.reason, t);
      return detail.initializeMs === undefined
        ? t(
            'the start timed out after {0} ms: the era probe took {1} ms ({2}), which left no time for initialize',
            String(detail.totalMs),
            String(detail.probeMs),
            reason,
          )
        : t(
            'the start timed out after {0} ms: the era probe took {1} ms ({2}), then initialize was not answered for {3} ms',
            String(detail.totalMs),
            String(detail.probeMs),
            reason,
            String(detail.initializeMs),
          );
    }
    case 'process-exited': {
      const exited = t('the server process exited with code {0}', String(detail.code));
      if (detail.silentLauncher === undefined) return exited;
      return `${exited}, ${sayLauncher(detail.silentLauncher, t)}`;
    }
    case 'process-killed':
      return t('the server process was killed by {0}', detail.signal);
    case 'process-gone':
      return detail.how === 'not running' ? t('the server process is not running') : t('the server closed its input');
    case 'permission-denied':
      return t('permission denied running "{0}": is it executable?', detail.command);
    case 'cwd-unusable':
      return detail.problem === 'is not a directory'
        ? t('cannot start "{0}": cwd {1} is not a directory', detail.command, detail.cwd)
        : t('cannot start "{0}": cwd {1} does not exist', detail.command, detail.cwd);
    case 'unreachable': {
      const words = sayUnreachable(detail.words, t);
      return detail.url === undefined ? words : `${words} (${detail.url})`;
    }
    case 'sign-in-unfinished':
      return t('the sign-in was not finished within {0} s', String(detail.seconds));
    case 'http-status':
      return sayHttpStatus(detail, t);
    case 'server-error':
      return t(
        '{0} answered {1} with error {2}: {3}',
        detail.server,
        detail.method,
        String(detail.code),
        detail.message,
      );
    default: {
      const exhaustive: never = detail;
      throw new Error(`unknown error detail ${JSON.stringify(exhaustive)}`);
    }
  }
}

/**
 * Why a start failed, in the person's words: the detail (then the server's last stderr line, verbatim), or the line.
 * A process that ended is said short ("exited with code 1"): the words around it already say the server failed to start.
 */
export function sayStartFailure(failure: StartFailure, t: Translate): string {
  if (failure.kind === 'line') return failure.line;
  const { detail } = failure;
  let said: string;
  if (detail.kind === 'process-exited') {
    const exited = t('exited with code {0}', String(detail.code));
    said = detail.silentLauncher === undefined ? exited : `${exited}, ${sayLauncher(detail.silentLauncher, t)}`;
  } else if (detail.kind === 'process-killed') {
    said = t('was killed by {0}', detail.signal);
  } else {
    said = sayErrorDetail(detail, t);
  }
  return failure.lastStderr === undefined ? said : `${said}: ${failure.lastStderr}`;
}

function sayHttpStatus(detail: Extract<ErrorDetail, { kind: 'http-status' }>, t: Translate): string {
  const status = String(detail.status);
  const { statusText, url, body } = detail;
  if (statusText === undefined)
    return body === undefined ? t('HTTP {0} from {1}', status, url) : t('HTTP {0} from {1}: {2}', status, url, body);
  return body === undefined
    ? t('HTTP {0} {1} from {2}', status, statusText, url)
    : t('HTTP {0} {1} from {2}: {3}', status, statusText, url, body);
}

function sayLauncher(launcher: string, t: Translate): string {
  return t(
    'with nothing on stderr: "{0}" may have failed to download or install the package; run the same command in a terminal to see why',
    launcher,
  );
}

function sayProbeReason(reason: ProbeReason, t: Translate): string {
  switch (reason.kind) {
    case 'no-sign-of-life':
      return t('the server showed no sign of life and server/discover was not answered in time');
    case 'slow':
      return t('the server was slow to answer the probe (server/discover was not answered in time)');
    case 'grace-ran-out':
      return t(
        '{0} was slow to answer the probe: it was up {1} ms after start but left server/discover unanswered for {2} ms more',
        reason.server,
        String(reason.upMs),
        String(reason.graceMs),
      );
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
