import * as vscode from 'vscode';
import { serverCardUrl } from '../../../workbench/serverCards/cards';
import { compareCard, suggestedHeaders, type SuggestedHeader } from '../../../workbench/serverCards/compare';
import { shown, shownDifference } from '../../../workbench/serverCards/display';
import type { ServerManager } from '../../platform/servers/serverManager';
import { resolveServer } from '../../platform/servers/serverPicker';
import { showError } from '../../platform/ui/coreErrors';
import {
  advisoryLine,
  cardLines,
  readCard,
  sayDifference,
  sayDiscoveryError,
} from '../../platform/serverCards/serverCardDialog';

/**
 * Server Cards in Add Server (HTTP: "Read Its Server Card First", before anything is added) and Show Server Card on a
 * server's row (with the differences from the running session). Reading and wording: platform/serverCards/serverCardDialog.ts.
 * Loaded when one of those two runs (addServer.ts, index.ts), not with the extension.
 */

/**
 * Add Server's question after an HTTP URL: add it, or read its card first. Nothing is read unless the person picks
 * that. Resolves undefined on Escape; false without asking when no card URL can be made of `serverUrl`.
 */
export async function askToReadCard(title: string, serverUrl: string): Promise<boolean | undefined> {
  let cardUrl: string;
  try {
    cardUrl = serverCardUrl(serverUrl);
  } catch {
    return false;
  }
  const picked = await vscode.window.showQuickPick(
    [
      {
        label: '$(add) ' + vscode.l10n.t('Add the Server'),
        detail: vscode.l10n.t('Nothing is read from the server until it starts.'),
        read: false,
      },
      {
        label: '$(preview) ' + vscode.l10n.t('Read Its Server Card First'),
        detail: vscode.l10n.t(
          'What the server says about itself (SEP-2127), from {0}, before any connection and without credentials',
          shown(cardUrl, 1000).replace(/\$\(/g, '$\u200b('),
        ),
        read: true,
      },
    ],
    { title, placeHolder: vscode.l10n.t('Add {0} now?', shown(serverUrl, 1000)), ignoreFocusOut: true },
  );
  return picked?.read;
}

/**
 * Add Server's step: the card of `serverUrl` before the server is added. Resolves undefined when the person cancels;
 * else they go on to add it (after the card, or anyway after a card that could not be read), with the header lines
 * the card says a connection needs (names only, each value an `${input:…}` to ask for: suggestedHeaders).
 */
export async function reviewCardBeforeAdding(serverUrl: string): Promise<{ headers: SuggestedHeader[] } | undefined> {
  const read = await readCard(serverUrl);
  switch (read.kind) {
    case 'cancelled':
      return undefined;
    case 'failed': {
      const addAnyway = vscode.l10n.t('Add Anyway');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('No Server Card was read for {0}', shown(serverUrl, 1000)),
        { modal: true, detail: sayDiscoveryError(read.error) },
        addAnyway,
      );
      return choice === addAnyway ? { headers: [] } : undefined;
    }
    case 'read': {
      const add = vscode.l10n.t('Add This Server');
      const choice = await vscode.window.showInformationMessage(
        vscode.l10n.t('Server Card of {0}', shown(serverUrl, 1000)),
        { modal: true, detail: [...cardLines(read.reading), '', advisoryLine()].join('\n') },
        add,
      );
      return choice === add ? { headers: suggestedHeaders(read.reading.card, serverUrl) } : undefined;
    }
    default: {
      const exhaustive: never = read;
      return exhaustive;
    }
  }
}

/** Show Server Card: an HTTP server's card, and where its running session differs from it. */
export async function showServerCard(manager: ServerManager, argument: unknown): Promise<void> {
  const controller = await resolveServer(manager, argument, {
    placeHolder: vscode.l10n.t('Select the HTTP server whose Server Card to read'),
    prefer: (candidate) => candidate.entry.definition.kind === 'http',
  });
  if (!controller) return;
  const definition = controller.entry.definition;
  if (definition.kind !== 'http') {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('{0} runs as a local command: only HTTP servers have a Server Card.', controller.name),
    );
    return;
  }
  if (definition.url.includes('${')) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('The URL of {0} has variables: its Server Card is read from a URL without them.', controller.name),
    );
    return;
  }
  const read = await readCard(definition.url);
  if (read.kind === 'cancelled') return;
  if (read.kind === 'failed') {
    void showError(read.error, {
      reason: sayDiscoveryError(read.error),
      words: (reason) => vscode.l10n.t('No Server Card was read for {0}: {1}', controller.name, reason),
      logAs: `No Server Card for ${controller.name}`,
    });
    return;
  }
  const lines = cardLines(read.reading);
  const state = controller.state;
  if (state.kind === 'running') {
    const differences = compareCard(read.reading.card, {
      serverInfo: state.session.serverInfo,
      protocolVersion: state.session.protocolVersion,
      transport: controller.client?.transport.kind ?? 'streamable-http',
      url: definition.url,
    });
    lines.push('');
    if (differences.length === 0)
      lines.push(vscode.l10n.t('The running server answers as its card says (name, version, transport, revision).'));
    else {
      lines.push(vscode.l10n.t('Where the running server differs from its card (the server is believed):'));
      for (const difference of differences) lines.push(`• ${sayDifference(shownDifference(difference))}`);
    }
  } else {
    lines.push('', vscode.l10n.t('Start the server to compare its card with what it says when it connects.'));
  }
  lines.push('', advisoryLine());
  await vscode.window.showInformationMessage(vscode.l10n.t('Server Card of {0}', controller.name), {
    modal: true,
    detail: lines.join('\n'),
  });
}
