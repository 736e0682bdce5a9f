import * as vscode from 'vscode';
import type { ConfigEntryProblem, ConfigSyntaxError } from '../../platform/config/configLoader';
import { escapeForDisplay } from '../../../workbench/urlPolicy';

// The Servers view's rows for a configuration that does not load: a file that does not parse, an entry that does not
// validate. Neither has a server behind it.

/**
 * A server entry that does not load, e.g. `nourl` with 'an http server needs a "url" string': its name with an error
 * icon where the server would be, the problem as its description, and a click that opens the file at the entry. It
 * has no server behind it, so nothing can start it (its context value matches no server command).
 */
export function badEntryItem(problem: ConfigEntryProblem): vscode.TreeItem {
  // The name and the problem quote the file's text: control and bidirectional characters are shown escaped.
  const name = escapeForDisplay(problem.server);
  const message = escapeForDisplay(problem.message);
  const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.None);
  item.id = `badEntry/${problem.configUri.toString()}#${problem.server}`;
  item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
  item.contextValue = 'badEntry';
  item.description = vscode.l10n.t('not loaded: {0}', message);
  item.tooltip = problem.at
    ? vscode.l10n.t(
        '{0}, line {1}: "{2}" is not loaded: {3}. Fix the entry; it loads once the file is saved. Click to open the file at it.',
        problem.sourceLabel,
        problem.at.line,
        name,
        message,
      )
    : vscode.l10n.t(
        '{0}: "{1}" is not loaded: {2}. Fix the entry; it loads once it is saved. Click to open the settings.',
        problem.sourceLabel,
        name,
        message,
      );
  if (problem.scope === 'user') {
    item.command = { command: 'workbench.action.openSettingsJson', title: vscode.l10n.t('Open') };
  } else {
    const at = problem.at;
    const selection = at
      ? new vscode.Range(
          new vscode.Position(at.line - 1, at.column - 1),
          new vscode.Position(at.line - 1, at.column - 1 + at.length),
        )
      : undefined;
    item.command = {
      command: 'vscode.open',
      title: vscode.l10n.t('Open'),
      arguments: [problem.configUri, ...(selection ? [{ selection } satisfies vscode.TextDocumentShowOptions] : [])],
    };
  }
  return item;
}

/** "mcp.json: expected a property name at line 12, column 5"; clicking it reveals the spot in the file. */
export function configErrorItem(error: ConfigSyntaxError): vscode.TreeItem {
  const { syntax } = error;
  const where = vscode.l10n.t('{0} at line {1}, column {2}', vscode.l10n.t(syntax.reason), syntax.line, syntax.column);
  const item = new vscode.TreeItem(`${error.sourceLabel}: ${where}`, vscode.TreeItemCollapsibleState.None);
  item.id = `configError/${error.configUri.toString()}`;
  item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
  item.contextValue = 'configError';
  item.description =
    error.keptServers > 0
      ? vscode.l10n.t('servers keep the last working configuration')
      : vscode.l10n.t('no servers loaded from this file');
  item.tooltip = vscode.l10n.t(
    '{0} does not parse. It is applied again as soon as it does. Click to open it at the error.',
    error.sourceLabel,
  );
  const start = new vscode.Position(syntax.line - 1, syntax.column - 1);
  const selection = new vscode.Range(start, start.translate(0, Math.max(syntax.length, 0)));
  item.command = {
    command: 'vscode.open',
    title: vscode.l10n.t('Open'),
    arguments: [error.configUri, { selection } satisfies vscode.TextDocumentShowOptions],
  };
  return item;
}
