import * as vscode from 'vscode';
import { eraLabel } from '../../../protocol/eras/names';
import { describeTarget, transportLabel } from '../../platform/config/serverEntry';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import type { ServerController } from '../../platform/servers/serverController';
import { ServerState, assertNever } from '../../platform/servers/serverState';
import { nodeId } from '../../platform/servers/treeIds';
import { sayStoredError } from '../../platform/ui/coreErrors';
import { personVisibleTools } from '../../platform/apps/appsSetting';

/** Instructions can be pages long; the tooltip shows the start and links to the whole text. */
const INSTRUCTIONS_IN_TOOLTIP = 400;

/** A server's row in the Servers view: its name, state icon and tooltip (the definition, the session, the last error). */
export function serverItem(controller: ServerController, all: readonly ServerController[]): vscode.TreeItem {
  const state = controller.state;
  const item = new vscode.TreeItem(
    controller.name,
    state.kind === 'running' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
  );
  item.id = nodeId(controller);
  item.iconPath = stateIcon(state);
  item.contextValue = `server.${state.kind}`;
  const sharedName = all.some((other) => other !== controller && other.name === controller.name);
  const parts = [ServerState.label(state), transportLabel(controller.entry.definition)];
  // Only the tool count: resource and prompt counts stand on their group rows, so a catalog reload refreshes those
  // rows alone instead of this one and, with it, every expanded tool row underneath.
  if (state.kind === 'running') parts.push(eraLabel(state.session));
  if (state.kind === 'running' && state.session.capabilities.tools) {
    // The count of the Tools group below: app-only tools are not offered, so they are not counted either.
    const offered = personVisibleTools(state.tools).length;
    parts.push(offered === 1 ? vscode.l10n.t('1 tool') : vscode.l10n.t('{0} tools', offered));
  }
  if (sharedName) parts.push(controller.entry.origin.folder.name);
  parts.push(...sourceParts(controller.entry.origin));
  item.description = parts.join(' · ');
  item.tooltip = serverTooltip(controller);
  return item;
}

function stateIcon(state: ServerState): vscode.ThemeIcon {
  switch (state.kind) {
    case 'stopped':
      return new vscode.ThemeIcon('circle-outline');
    case 'starting':
      return new vscode.ThemeIcon('loading~spin');
    case 'running':
      return new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
    case 'error':
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    case 'signInRequired':
      return new vscode.ThemeIcon('account', new vscode.ThemeColor('list.warningForeground'));
    default:
      return assertNever(state, 'server state');
  }
}

function serverTooltip(controller: ServerController): vscode.MarkdownString {
  const { entry, state } = controller;
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${escape(entry.name)}** — ${escape(ServerState.label(state))}\n\n`);
  // The origin label says which source (workspace folder's mcp.json or user settings); the path says which file.
  const file = entry.origin.configUri.scheme === 'file' ? ` — \`${entry.origin.configUri.fsPath}\`` : '';
  md.appendMarkdown(`${escape(vscode.l10n.t('Defined in'))}: ${escape(entry.origin.label)}${file}\n\n`);
  for (const other of entry.origin.alsoIn ?? []) {
    const otherFile = other.configUri.scheme === 'file' ? ` — \`${other.configUri.fsPath}\`` : '';
    md.appendMarkdown(`${escape(vscode.l10n.t('Also in'))}: ${escape(other.label)}${otherFile}\n\n`);
  }
  if (entry.origin.notes?.length) {
    // The notes quote the file (field names, values): escaped, as every text from a config file is.
    md.appendMarkdown(`**${escape(vscode.l10n.t('Read differently here'))}**:\n\n`);
    for (const note of entry.origin.notes) md.appendMarkdown(`- ${escape(escapeForDisplay(note))}\n`);
    md.appendMarkdown('\n');
  }
  md.appendMarkdown(`${escape(entry.definition.kind === 'stdio' ? vscode.l10n.t('Command') : vscode.l10n.t('URL'))}:`);
  md.appendCodeblock(describeTarget(entry.definition), 'text');
  if (state.kind === 'running') {
    const { serverInfo } = state.session;
    md.appendMarkdown(
      `\n${escape(vscode.l10n.t('Server'))}: ${escape(`${serverInfo.title ?? serverInfo.name} ${serverInfo.version}`)} · ` +
        `${escape(vscode.l10n.t('protocol {0}', eraLabel(state.session)))}` +
        (state.pid === undefined ? '' : ` · pid ${state.pid}`) +
        '\n',
    );
    // Era auto: why this era (the server answered server/discover, refused it, or was slow to answer the probe).
    if (state.session.eraChoice) md.appendMarkdown(`\n${escape(state.session.eraChoice)}\n`);
    const { instructions } = state.session;
    if (instructions) {
      md.appendMarkdown(`\n**${escape(vscode.l10n.t('Instructions'))}**:`);
      const shortened = instructions.length > INSTRUCTIONS_IN_TOOLTIP;
      md.appendCodeblock(shortened ? `${instructions.slice(0, INSTRUCTIONS_IN_TOOLTIP)}…` : instructions, 'text');
      if (shortened) {
        // Only this one command may run from the tooltip's links; its argument is the server's id, nothing else.
        md.isTrusted = { enabledCommands: ['mcpWorkbench.showServerInstructions'] };
        const link = `command:mcpWorkbench.showServerInstructions?${encodeURIComponent(JSON.stringify([controller.id]))}`;
        md.appendMarkdown(`[${escape(vscode.l10n.t('Show all {0} characters', instructions.length))}](${link})\n`);
      }
    }
  }
  if (state.kind === 'error') {
    md.appendMarkdown(`\n**${escape(vscode.l10n.t('Last error'))}**:`);
    const tail = state.stderrTail.filter((line) => !state.message.includes(line));
    // The person's words first; the core's full English (with the stderr it quotes) after them when they differ.
    const said = sayStoredError(state, controller);
    const words = said === state.message ? [said] : [said, '', state.message];
    md.appendCodeblock([...words, ...(tail.length ? ['', '--- stderr ---', ...tail] : [])].join('\n'), 'text');
  }
  return md;
}

/** Where a row comes from, when it is not the usual `.vscode/mcp.json` or settings list, and how many notes it has. */
function sourceParts(origin: ServerController['entry']['origin']): string[] {
  const parts: string[] = [];
  const usual = origin.configUri.path.endsWith('/.vscode/mcp.json') || origin.configUri.scheme !== 'file';
  if (!usual || origin.alsoIn?.length) {
    const labels = [origin.label, ...(origin.alsoIn ?? []).map((other) => other.label)];
    parts.push(labels.map(escapeForDisplay).join(' + '));
  }
  const notes = origin.notes?.length ?? 0;
  if (notes > 0) parts.push(notes === 1 ? vscode.l10n.t('1 note') : vscode.l10n.t('{0} notes', notes));
  return parts;
}

export function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? '';
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
