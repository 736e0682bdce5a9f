import * as vscode from 'vscode';
import {
  cardUrlFromDocument,
  readCatalog,
  type CardReading,
  type ServerCard,
} from '../../../workbench/serverCards/cards';
import { suggestedHeaders, type SuggestedHeader } from '../../../workbench/serverCards/compare';
import { shown } from '../../../workbench/serverCards/display';
import {
  advisoryLine,
  cardLines,
  readCard,
  readWithProgress,
  sayDiscoveryError,
  showCardNotRead,
} from '../../platform/serverCards/serverCardDialog';

/**
 * Add Server's "From a Domain's Catalog" (SEP-2127): the domain's catalog (`/.well-known/mcp/catalog.json`, else
 * `/.well-known/ai-catalog.json`), one of its servers picked, that server's card read and shown, then one of the
 * card's endpoints. Each document is read when the person's step asks for it, never ahead. What it resolves with is
 * an endpoint the person saw in the card, and the headers the card says it needs (names only: suggestedHeaders).
 */

export interface CatalogChoice {
  url: string;
  type: 'sse' | 'streamable-http';
  headers: SuggestedHeader[];
  /** The card the endpoint was picked from, compared with the server at its first connection. */
  card: ServerCard;
}

/** Catalog text in a quick pick: escaped, cut, and `$(icon)` syntax defused. */
function pickText(text: string, max = 200): string {
  return shown(text, max).replace(/\$\(/g, '$\u200b(');
}

export async function pickFromCatalog(title: string, givenDomain?: string): Promise<CatalogChoice | undefined> {
  const domain =
    givenDomain ??
    (await vscode.window.showInputBox({
      title,
      prompt: vscode.l10n.t('The domain whose MCP catalog to read (its /.well-known/mcp/catalog.json)'),
      placeHolder: 'example.com',
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() === '' ? vscode.l10n.t('Enter a domain, e.g. example.com.') : undefined),
    }));
  if (domain === undefined) return undefined;
  const read = await readWithProgress(
    vscode.l10n.t('Reading the MCP catalog of {0}…', shown(domain.trim(), 300)),
    (options) => readCatalog(domain.trim(), options),
  );
  if (read.kind === 'cancelled') return undefined;
  if (read.kind === 'failed') {
    await vscode.window.showWarningMessage(vscode.l10n.t('No MCP catalog was read for {0}', shown(domain, 300)), {
      modal: true,
      detail: sayDiscoveryError(read.error),
    });
    return undefined;
  }
  const catalog = read.value;
  if (catalog.entries.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'The catalog at {0} lists no MCP server this client can read ({1} entries left out).',
        shown(catalog.source, 1000),
        String(catalog.skipped.length),
      ),
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    catalog.entries.map((entry) => ({
      // The identifier is what tells entries apart; a display name, when the catalog gives one, leads.
      label: pickText(entry.displayName ?? entry.identifier),
      ...(entry.displayName !== undefined ? { description: pickText(entry.identifier) } : {}),
      detail: entry.cardUrl
        ? vscode.l10n.t('Server Card at {0}', pickText(entry.cardUrl, 300))
        : vscode.l10n.t('Server Card included in the catalog'),
      entry,
    })),
    {
      title,
      placeHolder:
        catalog.skipped.length > 0
          ? vscode.l10n.t(
              'Servers of {0} ({1} entries left out: not MCP, or refused)',
              shown(catalog.source, 300),
              String(catalog.skipped.length),
            )
          : vscode.l10n.t('Servers of {0}', shown(catalog.source, 300)),
      matchOnDescription: true,
      ignoreFocusOut: true,
    },
  );
  if (!picked) return undefined;
  let reading: CardReading;
  if (picked.entry.card) {
    reading = { requested: catalog.source, source: catalog.source, card: picked.entry.card, notes: catalog.notes };
  } else {
    const cardUrl = picked.entry.cardUrl ?? '';
    const card = await readCard(cardUrl, true);
    if (card.kind === 'cancelled') return undefined;
    if (card.kind === 'failed') {
      await showCardNotRead(cardUrl, card.error);
      return undefined;
    }
    reading = card.reading;
  }
  const add = vscode.l10n.t('Add This Server');
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t('Server Card of {0}', shown(picked.entry.displayName ?? picked.entry.identifier, 300)),
    { modal: true, detail: [...cardLines(reading), '', advisoryLine()].join('\n') },
    add,
  );
  if (choice !== add) return undefined;
  return pickEndpoint(title, reading);
}

/**
 * The card's endpoint to add: the only one, or the one picked. It is written into mcp.json, where `${…}` is resolved,
 * so a URL with a brace is never offered (a templated `{tenant}`, or `${env:TOKEN}` that would send the person's
 * variable to the card's host); nor one the URL policy refuses, nor one a public card points into this machine or
 * its network with (cardUrlFromDocument).
 */
async function pickEndpoint(title: string, reading: CardReading): Promise<CatalogChoice | undefined> {
  const usable = (reading.card.remotes ?? []).filter(
    (remote) => !/[{}]/.test(remote.url) && 'url' in cardUrlFromDocument(remote.url, reading.source),
  );
  if (usable.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'The card of {0} lists no endpoint without variables: add the server with its URL instead.',
        shown(reading.card.name, 200),
      ),
    );
    return undefined;
  }
  const remote =
    usable.length === 1
      ? usable[0]
      : (
          await vscode.window.showQuickPick(
            usable.map((candidate) => ({
              label: pickText(candidate.url, 300),
              description: candidate.type === 'sse' ? 'HTTP+SSE' : 'Streamable HTTP',
              candidate,
            })),
            { title, placeHolder: vscode.l10n.t('Which endpoint of the card to add'), ignoreFocusOut: true },
          )
        )?.candidate;
  if (!remote) return undefined;
  return {
    url: remote.url,
    type: remote.type,
    headers: suggestedHeaders(reading.card, remote.url),
    card: reading.card,
  };
}
