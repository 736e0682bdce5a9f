import * as vscode from 'vscode';
import { McpError } from '../../../protocol/errors';
import type { ClientRequestMethod } from '../../../protocol/methods';
import type { ProtocolLog } from '../../../workbench/protocolLog/protocolLog';
import { toolNameOf, type ReplayCheck, type ReplayRefusal } from '../../../workbench/protocolLog/replay';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import { shownArguments } from '../../../workbench/apps/appToolCalls';
import type { ServerController } from '../../platform/servers/serverController';
import { askSafeDefault } from '../../platform/ui/askSafeDefault';
import { showError } from '../../platform/ui/coreErrors';

/** What the page is told after Replay or Edit and Send: sent (its rows follow on the wire), or why not. */
export type SendOutcome =
  { kind: 'sent' } | { kind: 'answered-error' } | { kind: 'refused'; reason: string } | { kind: 'declined' };

/**
 * Sends a request again to the panel's server (Replay, Edit and Send) through the client's request loop, as any call
 * is sent: a fresh id, the era's `_meta` and headers, deadlines, input rounds. The rows it makes are marked as the
 * replay of row `of`. A tools/call of a tool its server marks destructive is sent only after the person allows it.
 */
export async function sendAgain(
  controller: ServerController,
  log: ProtocolLog,
  of: number,
  check: ReplayCheck,
  edited: boolean,
): Promise<SendOutcome> {
  if (!check.ok) return { kind: 'refused', reason: refusalText(check.refusal) };
  const client = controller.client;
  const state = controller.state;
  if (!client || state.kind !== 'running')
    return {
      kind: 'refused',
      reason: vscode.l10n.t('MCP server "{0}" is not running; start it to send the request.', controller.name),
    };
  const toolName = toolNameOf(check);
  const tool = toolName === undefined ? undefined : state.tools.find((candidate) => candidate.name === toolName);
  // The tree marks such a tool "destructive"; sending it again is the person's choice, asked with a safe default.
  if (tool?.annotations?.destructiveHint === true && tool.annotations.readOnlyHint !== true) {
    const send = vscode.l10n.t('Send Again');
    const args = check.params?.arguments;
    const choice = await askSafeDefault(
      'warning',
      vscode.l10n.t(
        'Send the call to the destructive tool "{0}" of MCP server "{1}" again?',
        escapeForDisplay(tool.name),
        controller.name,
      ),
      vscode.l10n.t(
        'Arguments:\n{0}',
        shownArguments(typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {}),
      ),
      [send],
    );
    if (choice !== send) return { kind: 'declined' };
  }
  log.expectReplay(check.method, of, edited);
  try {
    // `refresh`: a replay goes to the server, never to a cached result.
    await client.forward(check.method as ClientRequestMethod, check.params as never, { refresh: true });
    return { kind: 'sent' };
  } catch (error) {
    log.forgetReplay(check.method, of);
    // The server's own error answer is a row of the view; only the client's own failures are told.
    if (error instanceof McpError) return { kind: 'answered-error' };
    void showError(error, {
      server: controller,
      words: (reason) =>
        vscode.l10n.t('Sending the request to MCP server "{0}" again failed: {1}', controller.name, reason),
    });
    return { kind: 'refused', reason: vscode.l10n.t('Not sent: see the notification.') };
  }
}

export function refusalText(refusal: ReplayRefusal): string {
  switch (refusal.kind) {
    case 'invalid-json':
      return vscode.l10n.t('Not valid JSON: {0}', refusal.detail);
    case 'not-object':
      return vscode.l10n.t('Not a request: a request is a JSON object with a "method" and an "id".');
    case 'not-request':
      switch (refusal.what) {
        case 'notification':
          return vscode.l10n.t('Not a request: it has no "id", so it is a notification.');
        case 'response':
          return vscode.l10n.t('Not a request: it is a response (it has "result" or "error").');
        case 'batch':
          return vscode.l10n.t('Not a request: a batch is not sent again; send its requests one by one.');
        default: {
          const exhaustive: never = refusal.what;
          return String(exhaustive);
        }
      }
    case 'bad-params':
      return vscode.l10n.t('Not a request this client sends: its "params" must be a JSON object.');
    case 'server-method':
      return vscode.l10n.t(
        '"{0}" is a request a server sends to its client, not one this client sends.',
        refusal.method,
      );
    case 'session-method':
      return vscode.l10n.t(
        '"{0}" opens or holds the session; the client sends it itself, and sending it again would break the session.',
        refusal.method,
      );
    case 'masked':
      return vscode.l10n.t('It holds a masked value (••••): type the value itself in Edit and Send.');
    case 'truncated':
      return vscode.l10n.t('The log kept only the start of this request, so it cannot be sent as it was.');
    case 'not-sent-request':
      return vscode.l10n.t('Only a request this client sent can be sent again.');
    default: {
      const exhaustive: never = refusal;
      return String(exhaustive);
    }
  }
}
