import * as vscode from 'vscode';
import { LOGGING_LEVELS, type LoggingLevel } from '../../../protocol/types';
import type { ServerManager } from '../../platform/servers/serverManager';
import { resolveServer } from '../../platform/servers/serverPicker';
import { ServerState } from '../../platform/servers/serverState';
import { showError } from '../../platform/ui/coreErrors';

/**
 * MCP Workbench: Set Log Level… — sends `logging/setLevel` to a server that offers logging; the level is kept and sent again
 * after each restart. A second argument (a level) skips the level picker, for automation and tests.
 */
export async function setLogLevel(manager: ServerManager, argument: unknown, presetLevel: unknown): Promise<boolean> {
  const controller = await resolveServer(manager, argument, {
    placeHolder: vscode.l10n.t('Select the MCP server whose log level to set'),
    prefer: (server) => server.client?.session.capabilities.logging !== undefined,
  });
  if (!controller) return false;
  const level = isLevel(presetLevel) ? presetLevel : await pickLevel(controller.logLevel);
  if (!level) return false;
  try {
    const sent = await controller.setLogLevel(level);
    if (!sent) {
      const message = ServerState.isRunning(controller.state)
        ? vscode.l10n.t('MCP server "{0}" does not offer logging; the level was not sent.', controller.name)
        : vscode.l10n.t(
            'MCP server "{0}" is not running; the level {1} will be sent when it starts.',
            controller.name,
            level,
          );
      void vscode.window.showInformationMessage(message);
    }
    return sent;
  } catch (error) {
    void showError(error, {
      server: controller,
      words: (reason) => vscode.l10n.t('Could not set the log level of {0}: {1}', controller.name, reason),
      logAs: `Could not set the log level ${level}`,
    });
    return false;
  }
}

async function pickLevel(current: LoggingLevel | undefined): Promise<LoggingLevel | undefined> {
  const picked = await vscode.window.showQuickPick(
    LOGGING_LEVELS.map((level) => ({
      label: level,
      description: level === current ? vscode.l10n.t('current') : undefined,
    })),
    { placeHolder: vscode.l10n.t('The lowest level of messages the server should send'), ignoreFocusOut: true },
  );
  return picked && isLevel(picked.label) ? picked.label : undefined;
}

function isLevel(value: unknown): value is LoggingLevel {
  return typeof value === 'string' && (LOGGING_LEVELS as readonly string[]).includes(value);
}
