import * as vscode from 'vscode';
import { readServerCard, serverCardUrl, type CardReading } from '../../../workbench/serverCards/cards';
import { compareCard, type CardDifference } from '../../../workbench/serverCards/compare';
import { DiscoveryError } from '../../../workbench/serverCards/discoveryFetch';
import { cardFacts, shown, shownDifference, type CardFact } from '../../../workbench/serverCards/display';
import { configuredInputLimits, extensionHttpFetch } from '../../platform/config/hostLimits';
import type { ServerManager } from '../../platform/servers/serverManager';
import { resolveServer } from '../../platform/servers/serverPicker';
import { showError } from '../../platform/ui/coreErrors';

/**
 * Server Cards in the editor (SEP-2127): Add Server's "Read its Server Card first" and Show Server Card on an HTTP
 * server's row. A card is read only here, when the person asks, with the servers' own fetch (proxy settings) and
 * `mcpWorkbench.limits.maxDocumentBytes`, never with the server's headers or tokens. It is shown in a modal as plain
 * text (display.ts escapes every value of the server's), with the URL it was read from; on a running server the
 * differences from what the server said when it connected are listed under it.
 * Loaded when one of those two runs (addServer.ts, index.ts), not with the extension.
 */

type Read = { kind: 'read'; reading: CardReading } | { kind: 'failed'; error: DiscoveryError } | { kind: 'cancelled' };

async function readCard(serverUrl: string): Promise<Read> {
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Reading the Server Card of {0}…', shown(serverUrl, 1000)),
      cancellable: true,
    },
    async (_progress, token) => {
      const cancel = new AbortController();
      const listener = token.onCancellationRequested(() => cancel.abort());
      try {
        const reading = await readServerCard(serverUrl, {
          fetch: extensionHttpFetch().fetch,
          maxBytes: configuredInputLimits().maxDocumentBytes,
          signal: cancel.signal,
        });
        return { kind: 'read', reading } as const;
      } catch (error) {
        if (cancel.signal.aborted) return { kind: 'cancelled' } as const;
        if (error instanceof DiscoveryError) return { kind: 'failed', error } as const;
        throw error;
      } finally {
        listener.dispose();
      }
    },
  );
}

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
          shown(cardUrl, 1000),
        ),
        read: true,
      },
    ],
    { title, placeHolder: vscode.l10n.t('Add {0} now?', shown(serverUrl, 1000)), ignoreFocusOut: true },
  );
  return picked?.read;
}

/**
 * Add Server's step: the card of `serverUrl` before the server is added. Resolves true when the person goes on to
 * add it (after the card, or anyway after a card that could not be read), false when they cancel.
 */
export async function reviewCardBeforeAdding(serverUrl: string): Promise<boolean> {
  const read = await readCard(serverUrl);
  switch (read.kind) {
    case 'cancelled':
      return false;
    case 'failed': {
      const addAnyway = vscode.l10n.t('Add Anyway');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('No Server Card was read for {0}', shown(serverUrl, 1000)),
        { modal: true, detail: sayDiscoveryError(read.error) },
        addAnyway,
      );
      return choice === addAnyway;
    }
    case 'read': {
      const add = vscode.l10n.t('Add This Server');
      const choice = await vscode.window.showInformationMessage(
        vscode.l10n.t('Server Card of {0}', shown(serverUrl, 1000)),
        { modal: true, detail: [...cardLines(read.reading), '', advisoryLine()].join('\n') },
        add,
      );
      return choice === add;
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

function advisoryLine(): string {
  return vscode.l10n.t(
    'A Server Card is what the server says about itself, read before any connection: nothing in it is trusted or run.',
  );
}

function cardLines(reading: CardReading): string[] {
  return cardFacts(reading).map(sayFact);
}

/** One fact in the person's words; the values are already escaped (display.ts). */
export function sayFact(fact: CardFact): string {
  switch (fact.kind) {
    case 'title':
      return vscode.l10n.t('Title: {0}', fact.value);
    case 'name':
      return vscode.l10n.t('Name: {0}', fact.value);
    case 'version':
      return vscode.l10n.t('Version: {0}', fact.value);
    case 'description':
      return vscode.l10n.t('Description: {0}', fact.value);
    case 'website':
      return vscode.l10n.t('Website: {0}', fact.value);
    case 'repository':
      return vscode.l10n.t('Source code: {0}', fact.value);
    case 'remote': {
      const transport = fact.transport === 'sse' ? 'HTTP+SSE' : 'Streamable HTTP';
      const versions = fact.versions === '' ? vscode.l10n.t('revisions not stated') : fact.versions;
      return fact.templated
        ? vscode.l10n.t(
            'Endpoint: {0} ({1}; {2}; a template: its variables need values)',
            fact.url,
            transport,
            versions,
          )
        : vscode.l10n.t('Endpoint: {0} ({1}; {2})', fact.url, transport, versions);
    }
    case 'headers': {
      const parts: string[] = [];
      if (fact.required !== '') parts.push(vscode.l10n.t('needs the headers {0}', fact.required));
      if (fact.optional !== '') parts.push(vscode.l10n.t('accepts the headers {0}', fact.optional));
      if (fact.secret !== '') parts.push(vscode.l10n.t('secret: {0}', fact.secret));
      return vscode.l10n.t('Credentials: {0}', parts.join('; '));
    }
    case 'no-remotes':
      return vscode.l10n.t('Endpoints: the card lists none.');
    case 'source':
      return vscode.l10n.t('Read from: {0}', fact.value);
    case 'plain-http':
      return vscode.l10n.t('Read over plain HTTP from another machine: anyone on the way could have changed it.');
    case 'redirected':
      return vscode.l10n.t('The address redirected to {0} (same origin).', fact.to);
    default: {
      const exhaustive: never = fact;
      return exhaustive;
    }
  }
}

/** A difference in the person's words; the values are already escaped (shownDifference). */
export function sayDifference(difference: CardDifference): string {
  switch (difference.kind) {
    case 'name':
      return vscode.l10n.t('name: the card says {0}, the server {1}', difference.card, difference.server);
    case 'version':
      return vscode.l10n.t('version: the card says {0}, the server {1}', difference.card, difference.server);
    case 'title':
      return vscode.l10n.t('title: the card says {0}, the server {1}', difference.card, difference.server);
    case 'description':
      return vscode.l10n.t('description: the card says {0}, the server {1}', difference.card, difference.server);
    case 'website':
      return vscode.l10n.t('website: the card says {0}, the server {1}', difference.card, difference.server);
    case 'transport':
      return vscode.l10n.t('transport: the card says {0}, the connection uses {1}', difference.card, difference.server);
    case 'protocol-version':
      return vscode.l10n.t(
        'revision: the card lists {0}, the server speaks {1}',
        difference.card.join(', '),
        difference.server,
      );
    case 'url-not-listed':
      return vscode.l10n.t('endpoint: the card does not list {0}', difference.url);
    default: {
      const exhaustive: never = difference;
      return exhaustive;
    }
  }
}

/** Why no card was read, in the person's words, from the error's kind and fields (never its English message). */
export function sayDiscoveryError(error: DiscoveryError): string {
  const url = shown(error.url, 1000);
  switch (error.kind) {
    case 'refused-url':
      return vscode.l10n.t('{0} cannot be used: {1}', url, shown(error.detail.reason ?? ''));
    case 'unreachable':
      return vscode.l10n.t('{0} could not be reached: {1}', url, shown(error.detail.reason ?? ''));
    case 'timeout':
      return vscode.l10n.t('{0} did not answer in time.', url);
    case 'not-found':
      return vscode.l10n.t('The server publishes no Server Card at {0} (HTTP {1}).', url, String(error.detail.status));
    case 'http-status':
      return vscode.l10n.t('{0} answered HTTP {1}.', url, String(error.detail.status));
    case 'redirected-away':
      return vscode.l10n.t(
        '{0} redirected to another origin ({1}); a card is only read from the address shown.',
        url,
        shown(error.detail.location ?? ''),
      );
    case 'too-many-redirects':
      return vscode.l10n.t('{0} redirected too many times.', url);
    case 'too-large':
      return vscode.l10n.t(
        'The card at {0} is larger than {1} bytes (setting mcpWorkbench.limits.maxDocumentBytes); reading stopped.',
        url,
        String(error.detail.limitBytes),
      );
    case 'not-json':
      return vscode.l10n.t('The answer at {0} is not JSON.', url);
    case 'too-deep':
      return vscode.l10n.t('The answer at {0} is nested too deeply to be a Server Card.', url);
    case 'invalid':
      return vscode.l10n.t(
        'The card at {0} does not match the Server Card schema: {1}',
        url,
        shown((error.detail.errors ?? []).slice(0, 5).join('; '), 1000),
      );
    default: {
      const exhaustive: never = error.kind;
      return exhaustive;
    }
  }
}
