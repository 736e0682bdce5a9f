import * as vscode from 'vscode';
import { errorDetail, errorMessage, type ErrorDetail } from '../../../protocol/errors';
import type { StartFailure } from '../../../workbench/lifecycle/startFailure';
import { sayErrorDetail, sayStartFailure, type CoreErrorTemplate } from './coreErrorKinds';
import { notify } from './notifications';

/**
 * The one way an error reaches a person: worded from the core's structured detail (ErrorDetail, translated through
 * coreErrorKinds.ts) or, without one, its message as it is; masked with the server's known secrets (an error can
 * quote a header, an env value, an input, a URL with a key in it); logged once (in English, with the site's words)
 * and shown once.
 */

/** The server an error is about: its secrets mask the text, its log gets the error. */
interface ErrorServer {
  readonly name: string;
  mask(text: string): string;
  readonly log: { error(message: string): void; show(preserveFocus?: boolean): void };
}

/** Where an error about no server is logged (the extension's own log, set at activation). */
export const ownErrorLog: { channel: { error(message: string): void } | undefined } = { channel: undefined };

/** An error (or an error state's message and detail) in the person's words, masked with the server's secrets. */
export function sayError(error: unknown, server?: Pick<ErrorServer, 'mask'>): string {
  const detail = errorDetail(error);
  return sayMessage(detail ? sayDetail(detail) : errorMessage(error), server);
}

/** A stored error (a server's error state keeps the message and the detail, not the error). */
export function sayStoredError(
  stored: { message: string; detail?: ErrorDetail },
  server?: Pick<ErrorServer, 'mask'>,
): string {
  return sayMessage(stored.detail ? sayDetail(stored.detail) : stored.message, server);
}

/** Why a start failed (startFailure.ts), in the person's words, masked. */
export function sayStartFailureTo(failure: StartFailure, server?: Pick<ErrorServer, 'mask'>): string {
  return sayMessage(sayStartFailure(failure, say), server);
}

interface ShowErrorOptions {
  /** The server the error is about: masks the text with its secrets, gets the error in its log, offers its log. */
  server?: ErrorServer;
  /** The site's own words around the error's, e.g. `(reason) => vscode.l10n.t('Calling {0} failed: {1}', tool.name, reason)`. */
  words?: (reason: string) => string;
  /** What the log says before the error's English message (English, like the rest of the log). */
  logAs?: string;
  /** The site logged the error already (a start failure the controller logged): not logged again. */
  logged?: boolean;
  /** 'info' for a refusal that is no failure (a launch the person declined). */
  severity?: 'error' | 'warning' | 'info';
  /** Offers Show Log (a server's errors only); other actions come after it. */
  showLog?: boolean;
  actions?: string[];
  /** The person's words for the error when the site has worked them out already (a start failure's one line). */
  reason?: string;
}

/** Shows the error once, in the person's words and masked, and logs it once; resolves with the action pressed. */
export function showError(error: unknown, options: ShowErrorOptions = {}): Thenable<string | undefined> {
  const { server } = options;
  const reason = options.reason ?? sayError(error, server);
  const text = sayMessage(options.words ? options.words(reason) : reason, server);
  if (!options.logged) {
    const line = sayMessage(options.logAs ? `${options.logAs}: ${errorMessage(error)}` : errorMessage(error), server);
    (server?.log ?? ownErrorLog.channel)?.error(line);
  }
  const showLog = server && options.showLog ? vscode.l10n.t('Show Log') : undefined;
  const actions = [...(showLog ? [showLog] : []), ...(options.actions ?? [])];
  return notify(options.severity ?? 'error', text, ...actions).then((choice) => {
    if (showLog !== undefined && choice === showLog) server?.log.show(true);
    return choice;
  });
}

function sayDetail(detail: ErrorDetail): string {
  return sayErrorDetail(detail, say);
}

function sayMessage(text: string, server: Pick<ErrorServer, 'mask'> | undefined): string {
  return server ? server.mask(text) : text;
}

// The template is one of CORE_ERROR_TEMPLATES (its type says so), each in the zh-CN bundle (test/unit/l10n.test.ts).
function say(template: CoreErrorTemplate, ...args: string[]): string {
  return vscode.l10n.t(template, ...args);
}
