import * as vscode from 'vscode';
import { RegistryClient } from '../../../workbench/registry/client';
import { describeRunOption, reviewRunOption, runOptions, runsWhere } from '../../../workbench/registry/mapping';
import type { RegistryEntry } from '../../../workbench/registry/types';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import { showError } from '../../platform/ui/coreErrors';
import { sayPlace, sayReason, shownArgument } from './argumentWords';

/** Registry text in a quick pick: control characters escaped, `$(icon)` syntax defused, length bounded. */
function shown(text: string, max = 200): string {
  const clean = escapeForDisplay(text).replace(/\$\(/g, '$\u200b(');
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

type Row = vscode.QuickPickItem & { entry?: RegistryEntry; more?: true };

const SEARCH_DELAY_MS = 250;

/**
 * Browse MCP Registry…: searches as the person types (server side, so rows are never filtered out locally),
 * pages through nextCursor with a "Load more" row, and resolves with the chosen entry.
 */
export function pickRegistryEntry(client: RegistryClient): Promise<RegistryEntry | undefined> {
  const quickPick = vscode.window.createQuickPick<Row>();
  quickPick.title = vscode.l10n.t('Browse MCP Registry ({0})', client.baseUrl);
  quickPick.placeholder = vscode.l10n.t('Search servers by name or description');
  quickPick.matchOnDescription = true;
  quickPick.matchOnDetail = true;
  quickPick.ignoreFocusOut = true;
  let generation = 0;
  let rows: Row[] = [];
  let cursor: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const load = async (search: string, append: boolean) => {
    const mine = ++generation;
    quickPick.busy = true;
    try {
      const page = await client.searchPage(search.trim() || undefined, append ? cursor : undefined);
      if (mine !== generation) return; // the person typed on: a newer search owns the list
      cursor = page.nextCursor;
      rows = [...(append ? rows : []), ...page.entries.map(row)];
      const more: Row[] = cursor
        ? [{ label: `$(more) ${vscode.l10n.t('Load more…')}`, alwaysShow: true, more: true }]
        : [];
      quickPick.items = [...rows, ...more];
      if (page.rejected.length > 0)
        quickPick.placeholder = vscode.l10n.t(
          '{0} entries of this page were skipped: they do not match the server.json schema',
          page.rejected.length,
        );
      if (rows.length === 0) quickPick.placeholder = vscode.l10n.t('No servers match "{0}"', shown(search, 60));
    } catch (error) {
      if (mine !== generation) return;
      quickPick.items = [];
      void showError(error, { logAs: 'Browsing the MCP registry failed' });
    } finally {
      if (mine === generation) quickPick.busy = false;
    }
  };

  return new Promise((resolve) => {
    let settled = false;
    const finish = (value: RegistryEntry | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      generation++;
      resolve(value);
      quickPick.dispose();
    };
    quickPick.onDidChangeValue((value) => {
      clearTimeout(timer);
      timer = setTimeout(() => void load(value, false), SEARCH_DELAY_MS);
    });
    quickPick.onDidAccept(() => {
      const [selected] = quickPick.selectedItems;
      if (selected?.more) void load(quickPick.value, true);
      else if (selected?.entry) finish(selected.entry);
    });
    quickPick.onDidHide(() => finish(undefined));
    quickPick.show();
    void load('', false);
  });
}

function row(entry: RegistryEntry): Row {
  const { server, official } = entry;
  const deprecated = official?.status === 'deprecated' ? `$(warning) ${vscode.l10n.t('deprecated')} · ` : '';
  const repository = server.repository ? ` — ${shown(server.repository.url, 100)}` : '';
  return {
    label: shown(server.title ?? server.name, 100),
    description: `${deprecated}${shown(server.version, 40)} · ${runsWhere(server)
      .map((kind) => shown(kind, 20))
      .join(', ')}${server.title ? ` · ${shown(server.name, 100)}` : ''}`,
    detail: `${shown(server.description, 300)}${repository}`,
    alwaysShow: true,
    entry,
  };
}

type DetailAction =
  { kind: 'add'; where: 'workspace' | 'user' } | { kind: 'version' } | { kind: 'card'; url: string } | { kind: 'back' };

/** Remotes whose Server Card the detail page offers to read: Streamable HTTP ones without `{variables}`, a few. */
const MAX_CARD_ROWS = 3;

/** The entry's details (deprecation first) with Add to Workspace / Add to User Settings / another version. */
export async function showRegistryDetails(
  entry: RegistryEntry,
  hasWorkspace: boolean,
): Promise<DetailAction | undefined> {
  const { server, official } = entry;
  type Item = vscode.QuickPickItem & { action?: DetailAction };
  const info = (label: string, detail?: string): Item => ({ label, ...(detail ? { detail } : {}) });
  const items: Item[] = [
    ...(official?.status === 'deprecated'
      ? [
          info(
            `$(warning) ${vscode.l10n.t('Deprecated in the registry')}`,
            official.statusMessage ? shown(official.statusMessage, 300) : undefined,
          ),
        ]
      : []),
    ...argumentItems(entry),
    ...(hasWorkspace
      ? [
          {
            label: `$(add) ${vscode.l10n.t('Add to Workspace')}`,
            detail: vscode.l10n.t('.vscode/mcp.json: shared with everyone who opens this folder'),
            action: { kind: 'add', where: 'workspace' },
          } as Item,
        ]
      : []),
    {
      label: `$(account) ${vscode.l10n.t('Add to User Settings')}`,
      detail: vscode.l10n.t('all workspaces, this user'),
      action: { kind: 'add', where: 'user' },
    },
    { label: `$(versions) ${vscode.l10n.t('Pick Another Version…')}`, action: { kind: 'version' } },
    // SEP-2127: what the remote says about itself, read only when this row is picked.
    ...server.remotes
      .filter((remote) => remote.type === 'streamable-http' && !/[{}]/.test(remote.url))
      .slice(0, MAX_CARD_ROWS)
      .map((remote): Item => ({
        label: `$(preview) ${vscode.l10n.t('Read Server Card')}`,
        detail: vscode.l10n.t('what {0} says about itself, before any connection', shown(remote.url, 200)),
        action: { kind: 'card', url: remote.url },
      })),
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    info(shown(server.description, 300)),
    info(
      vscode.l10n.t('Version {0}', shown(server.version, 40)),
      official?.publishedAt ? vscode.l10n.t('published {0}', shown(official.publishedAt, 40)) : undefined,
    ),
    info(
      vscode.l10n.t(
        'Runs on: {0}',
        runsWhere(server)
          .map((kind) => shown(kind, 20))
          .join(', '),
      ),
    ),
    ...(server.repository ? [info(vscode.l10n.t('Repository: {0}', shown(server.repository.url, 200)))] : []),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: `${shown(server.title ?? server.name, 100)} — ${shown(server.name, 100)}`,
    placeHolder: vscode.l10n.t('Add this server, or pick another version'),
    ignoreFocusOut: true,
  });
  return picked ? (picked.action ?? { kind: 'back' }) : undefined;
}

/**
 * The arguments the policy refuses or finds unusual, one row each, above the Add actions: the entry is labelled by
 * its package, and these are what would change what runs. A refused way to run is refused again on Add.
 */
function argumentItems(entry: RegistryEntry): vscode.QuickPickItem[] {
  const options = runOptions(entry.server);
  return options.flatMap((option) =>
    (reviewRunOption(entry.server, option)?.findings ?? []).slice(0, 12).map((finding) => ({
      label:
        finding.verdict === 'refused'
          ? `$(error) ${vscode.l10n.t('Refused {0}: {1}', sayPlace(finding), shownArgument(finding.argument))}`
          : `$(warning) ${vscode.l10n.t('Unusual {0}: {1}', sayPlace(finding), shownArgument(finding.argument))}`,
      detail: `${sayReason(finding.reason)}${options.length > 1 ? ` · ${shown(describeRunOption(option), 120)}` : ''}`,
    })),
  );
}

/** The versions the registry has, newest as it lists them; resolves with the chosen one. */
export async function pickVersion(client: RegistryClient, name: string): Promise<RegistryEntry | undefined> {
  const page = await client.versions(name);
  const picked = await vscode.window.showQuickPick(
    page.entries.map((entry) => ({
      label: shown(entry.server.version, 60),
      description: [
        entry.official?.isLatest ? vscode.l10n.t('latest') : '',
        entry.official?.status === 'deprecated' ? vscode.l10n.t('deprecated') : '',
      ]
        .filter(Boolean)
        .join(' · '),
      entry,
    })),
    { title: shown(name, 100), placeHolder: vscode.l10n.t('Pick a version'), ignoreFocusOut: true },
  );
  return picked?.entry;
}
