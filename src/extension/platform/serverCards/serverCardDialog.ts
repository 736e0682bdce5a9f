import * as vscode from 'vscode';
import { readCardAt, readServerCard, type CardReading } from '../../../workbench/serverCards/cards';
import type { CardDifference } from '../../../workbench/serverCards/compare';
import { DiscoveryError, type DiscoveryFetchOptions } from '../../../workbench/serverCards/discoveryFetch';
import { cardFacts, shown, type CardFact } from '../../../workbench/serverCards/display';
import { configuredInputLimits, extensionHttpFetch } from '../config/hostLimits';

/**
 * A Server Card (SEP-2127) read and shown in the editor, for the features that offer one (Add Server and Show Server
 * Card in `features/config`, the registry's detail page). A card is read only when the person asks, with the servers'
 * own fetch (proxy settings) and `mcpWorkbench.limits.maxDocumentBytes`, never with a server's headers or tokens. It
 * is shown in a modal as plain text (display.ts escapes every value of the server's), with the URL it was read from.
 * Loaded by those features when they first need it, not with the extension.
 */

/** A document read on the person's request, or why not: it failed (a DiscoveryError), or the person cancelled. */
export type Discovered<T> =
  { kind: 'read'; value: T } | { kind: 'failed'; error: DiscoveryError } | { kind: 'cancelled' };

export type Read =
  { kind: 'read'; reading: CardReading } | { kind: 'failed'; error: DiscoveryError } | { kind: 'cancelled' };

/**
 * Reads a Server Card document (a card, a catalog) under a cancellable progress notification titled `title`, with the
 * servers' own fetch (proxy settings) and `mcpWorkbench.limits.maxDocumentBytes`: the one way the editor reads one.
 */
export async function readWithProgress<T>(
  title: string,
  read: (options: DiscoveryFetchOptions) => Promise<T>,
): Promise<Discovered<T>> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (_progress, token) => {
      const cancel = new AbortController();
      const listener = token.onCancellationRequested(() => cancel.abort());
      try {
        const value = await read({
          fetch: extensionHttpFetch().fetch,
          maxBytes: configuredInputLimits().maxDocumentBytes,
          signal: cancel.signal,
        });
        return { kind: 'read', value } as const;
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

/** `serverUrl`'s card (`<serverUrl>/server-card`), or with `exact` the card at exactly that URL. */
export async function readCard(serverUrl: string, exact = false): Promise<Read> {
  const read = await readWithProgress(
    vscode.l10n.t('Reading the Server Card of {0}…', shown(serverUrl, 1000)),
    (options) => (exact ? readCardAt(serverUrl, options) : readServerCard(serverUrl, options)),
  );
  return read.kind === 'read' ? { kind: 'read', reading: read.value } : read;
}

/** The card's lines, in the person's words. */
export function cardLines(reading: CardReading): string[] {
  return cardFacts(reading).map(sayFact);
}

/**
 * The card of `url` read and shown, or why not (the registry's detail page: nothing to decide, only to see).
 * `exact`: `url` is the card's own URL rather than the server's.
 */
export async function showCardOf(url: string, exact = false): Promise<void> {
  const read = await readCard(url, exact);
  switch (read.kind) {
    case 'cancelled':
      return;
    case 'failed':
      return showCardNotRead(url, read.error);
    case 'read':
      await vscode.window.showInformationMessage(vscode.l10n.t('Server Card of {0}', shown(url, 1000)), {
        modal: true,
        detail: [...cardLines(read.reading), '', advisoryLine()].join('\n'),
      });
      return;
    default: {
      const exhaustive: never = read;
      return exhaustive;
    }
  }
}

/** Why no card was read from `url`, in a modal (nothing to decide: the step that asked for it ends). */
export async function showCardNotRead(url: string, error: DiscoveryError): Promise<void> {
  await vscode.window.showWarningMessage(vscode.l10n.t('No Server Card was read for {0}', shown(url, 1000)), {
    modal: true,
    detail: sayDiscoveryError(error),
  });
}

export function advisoryLine(): string {
  return vscode.l10n.t(
    'A Server Card is what the server says about itself, read before any connection: nothing in it is trusted or run.',
  );
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
      return error.detail.alsoTried !== undefined
        ? vscode.l10n.t('Nothing is published at {0} nor at {1}.', url, shown(error.detail.alsoTried, 1000))
        : vscode.l10n.t('Nothing is published at {0} (HTTP {1}).', url, String(error.detail.status));
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
        'The document at {0} is larger than {1} bytes (setting mcpWorkbench.limits.maxDocumentBytes); reading stopped.',
        url,
        String(error.detail.limitBytes),
      );
    case 'not-json':
      return vscode.l10n.t('The answer at {0} is not JSON.', url);
    case 'too-deep':
      return vscode.l10n.t('The answer at {0} is nested too deeply to be read.', url);
    case 'invalid':
      return vscode.l10n.t(
        'The document at {0} does not match its schema: {1}',
        url,
        shown((error.detail.errors ?? []).slice(0, 5).join('; '), 1000),
      );
    default: {
      const exhaustive: never = error.kind;
      return exhaustive;
    }
  }
}
