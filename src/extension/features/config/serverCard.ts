import * as vscode from 'vscode';
import { serverIdentityKey } from '../../../workbench/serverIdentity';
import { decideOnConnect, forgetCard, rememberCard } from '../../../workbench/serverCards/afterAdd';
import { serverCardUrl, type ServerCard } from '../../../workbench/serverCards/cards';
import { compareCard, suggestedHeaders, type SuggestedHeader } from '../../../workbench/serverCards/compare';
import { shown, shownDifference } from '../../../workbench/serverCards/display';
import type { AddTarget } from '../../platform/config/addTargets';
import type { ServerController } from '../../platform/servers/serverController';
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
import { PENDING_CARDS_KEY } from './pendingCard';

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
export async function reviewCardBeforeAdding(
  serverUrl: string,
): Promise<{ headers: SuggestedHeader[]; card?: ServerCard } | undefined> {
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
      return choice === add
        ? { headers: suggestedHeaders(read.reading.card, serverUrl), card: read.reading.card }
        : undefined;
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

/** The identity the server added as `name` to `target` will have once loaded (serverIdentityKeyOf of its entry). */
export function addedServerIdentity(target: AddTarget, name: string): string {
  switch (target.kind) {
    case 'user':
      return serverIdentityKey({ scope: 'user', name });
    case 'workspace':
    case 'dotMcp':
      return serverIdentityKey({
        scope: 'workspace',
        configPath: target.uri.scheme === 'file' ? target.uri.fsPath : target.uri.toString(),
        name,
      });
    default: {
      const exhaustive: never = target;
      return exhaustive;
    }
  }
}

/** Keeps the card a server is being added from, for its first connection (compareAfterAdd). */
export async function rememberAddedCard(state: vscode.Memento, identity: string, card: ServerCard): Promise<void> {
  await state.update(PENDING_CARDS_KEY, rememberCard(state.get(PENDING_CARDS_KEY), identity, card, Date.now()));
}

/** The add failed after the card was kept: nothing is to be compared under that identity. */
export async function forgetAddedCard(state: vscode.Memento, identity: string): Promise<void> {
  await state.update(PENDING_CARDS_KEY, forgetCard(state.get(PENDING_CARDS_KEY), identity));
}

/**
 * A server added from its card has connected (the first time since): the card compared with what it says, once, and
 * forgotten. Where they differ, one notification (not modal: the server runs, and the server is believed) names the
 * server and the differences, the card's and the server's words escaped (shownDifference), with Show Server Card.
 */
export async function compareAfterAdd(state: vscode.Memento, controller: ServerController): Promise<void> {
  const running = controller.state;
  if (running.kind !== 'running') return;
  const definition = controller.entry.definition;
  const stored = state.get(PENDING_CARDS_KEY);
  if (definition.kind !== 'http') {
    // Edited into a local command since it was added: a card describes only a remote.
    await state.update(PENDING_CARDS_KEY, forgetCard(stored, controller.identityKey));
    return;
  }
  const decision = decideOnConnect(
    stored,
    controller.identityKey,
    {
      serverInfo: running.session.serverInfo,
      protocolVersion: running.session.protocolVersion,
      transport: controller.client?.transport.kind ?? 'streamable-http',
      url: definition.url,
    },
    Date.now(),
  );
  switch (decision.kind) {
    case 'none':
      return;
    case 'expired':
      await state.update(PENDING_CARDS_KEY, decision.next);
      return;
    case 'compared': {
      await state.update(PENDING_CARDS_KEY, decision.next);
      if (decision.differences.length === 0) return;
      const show = vscode.l10n.t('Show Server Card');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t(
          '{0} differs from the Server Card it was added from (the server is believed): {1}',
          controller.name,
          decision.differences.map((difference) => sayDifference(shownDifference(difference))).join('; '),
        ),
        show,
      );
      if (choice === show) await vscode.commands.executeCommand('mcpWorkbench.showServerCard', { controller });
      return;
    }
    default: {
      const exhaustive: never = decision;
      return exhaustive;
    }
  }
}
