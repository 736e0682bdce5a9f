import * as vscode from 'vscode';
import type { ToolRule } from '../../../workbench/gateway/toolPolicy';
import { hasApp } from '../../../protocol/extensions/apps/toolUi';
import type { Icon, Prompt, Resource, ResourceTemplate, Tool } from '../../../protocol/types';
import type { ServerController } from '../../platform/servers/serverController';
import type { ToolLintService, ToolLintSummary } from '../../platform/services';
import { rowKind } from './rowLists';
import { safeIconSource } from './serverIcons';
import { nodeId } from '../../platform/servers/treeIds';

/** Tree items for what a server offers. Everything shown here comes from the server, so it is escaped or plain text. */

export type OfferingGroup = 'tools' | 'resources' | 'templates' | 'prompts';

export function groupItem(
  controller: ServerController,
  group: OfferingGroup,
  count: number | undefined,
): vscode.TreeItem {
  const labels: Record<OfferingGroup, string> = {
    tools: vscode.l10n.t('Tools'),
    resources: vscode.l10n.t('Resources'),
    templates: vscode.l10n.t('Resource Templates'),
    prompts: vscode.l10n.t('Prompts'),
  };
  const icons: Record<OfferingGroup, string> = {
    tools: 'tools',
    resources: 'file-text',
    templates: 'file-symlink-file',
    prompts: 'comment-discussion',
  };
  const item = new vscode.TreeItem(labels[group], vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `${nodeId(controller)}/${group}`;
  item.iconPath = new vscode.ThemeIcon(icons[group]);
  item.description = count === undefined ? vscode.l10n.t('loading…') : String(count);
  item.contextValue = `group.${group}`;
  return item;
}

export function toolItem(
  controller: ServerController,
  tool: Tool,
  lintService?: ToolLintService,
  agentRule?: ToolRule,
): vscode.TreeItem {
  const lint = lintService?.forTool(controller, tool.name);
  const item = new vscode.TreeItem(tool.name, vscode.TreeItemCollapsibleState.None);
  item.id = `${nodeId(controller)}/${rowKind('tool', tool)}/${tool.name}`;
  const title = tool.title ?? tool.annotations?.title;
  const hints = [...annotationLabels(tool), ...(hasApp(tool) ? [vscode.l10n.t('app')] : [])];
  const summary = title && title !== tool.name ? title : firstLine(tool.description ?? '');
  // The title (what a person recognises) first, then the hints that tell a read-only lookup from a destructive action,
  // then the lint's badge (features/lint, through the toolLint service).
  const rule = agentRule ? agentRuleBadge(agentRule) : undefined;
  item.description = [
    summary,
    ...hints.map((hint) => `[${hint}]`),
    lint ? `[${lintBadge(lint)}]` : '',
    rule ? `[${rule}]` : '',
  ]
    .filter(Boolean)
    .join(' ');
  // A tool agents may not call shows it in its icon too: the row is the person's own, the rule is for agents.
  item.iconPath =
    agentRule?.enabled === false
      ? new vscode.ThemeIcon('circle-slash')
      : iconFor(tool.icons, hints.includes(vscode.l10n.t('destructive')) ? 'warning' : 'tools');
  // `tool.agentsOff` offers Enable for Agents instead of Disable; every other tool action matches both.
  item.contextValue = agentRule?.enabled === false ? 'tool.agentsOff' : 'tool';
  // The tooltip is built on hover (resolveTreeItem): 50,000 Markdown tooltips nobody reads cost real memory.
  item.command = {
    command: 'mcpWorkbench.callTool',
    title: vscode.l10n.t('Call Tool'),
    arguments: [{ kind: 'tool', controller, tool }],
  };
  return item;
}

/** The agent rule of a tool as its row shows it; undefined for the default (enabled, run), which shows nothing. */
export function agentRuleBadge(rule: ToolRule): string | undefined {
  if (!rule.enabled) return vscode.l10n.t('off for agents');
  switch (rule.policy) {
    case 'run':
      return undefined;
    case 'ask':
      return vscode.l10n.t('agents: ask first');
    case 'review':
      return vscode.l10n.t('agents: review result');
    default: {
      const exhaustive: never = rule.policy;
      return exhaustive;
    }
  }
}

/** The lint's word on a tool: fine, or how many errors and warnings (notes do not count). */
export function lintBadge(lint: ToolLintSummary): string {
  const errors = lint.findings.filter((finding) => finding.severity === 'error').length;
  const warnings = lint.findings.filter((finding) => finding.severity === 'warning').length;
  if (errors > 0) return vscode.l10n.t('lint: {0} error(s), {1} warning(s)', errors, warnings);
  if (warnings > 0) return vscode.l10n.t('lint: {0} warning(s)', warnings);
  return vscode.l10n.t('lint: fine');
}

/** Findings listed in a tooltip; the rest are in Problems. */
const TOOLTIP_FINDINGS = 12;

/** A tool row's tooltip: title, name, description, the annotation hints, and the lint's findings. */
export function toolTooltip(tool: Tool, lint?: ToolLintSummary): vscode.MarkdownString {
  const title = tool.title ?? tool.annotations?.title;
  const hints = annotationLabels(tool);
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${escapeMarkdown(title ?? tool.name)}** \`${escapeCode(tool.name)}\`\n\n`);
  if (tool.description) md.appendText(`${tool.description}\n\n`);
  if (hints.length) {
    md.appendMarkdown(hints.map((hint) => `\`${hint}\``).join(' '));
    md.appendMarkdown(
      `\n\n_${escapeMarkdown(vscode.l10n.t('Annotations are hints from the server, not guarantees.'))}_`,
    );
  }
  if (lint) appendLint(md, lint);
  return md;
}

function appendLint(md: vscode.MarkdownString, lint: ToolLintSummary): void {
  md.appendMarkdown(`\n\n**${escapeMarkdown(lintBadge(lint))}**`);
  if (lint.tokens !== undefined)
    md.appendMarkdown(` · ${escapeMarkdown(vscode.l10n.t('about {0} tokens of context', lint.tokens))}`);
  md.appendMarkdown('\n\n');
  // The findings quote the server's names and paths: appended as text, never as Markdown.
  for (const finding of lint.findings.slice(0, TOOLTIP_FINDINGS)) {
    md.appendMarkdown(`- \`${escapeCode(finding.rule)}\` `);
    md.appendText(
      `${finding.path ? `${finding.path}: ` : ''}${finding.message}${finding.fix ? ` ${vscode.l10n.t('Fix: {0}', finding.fix)}` : ''}`,
    );
    md.appendMarkdown('\n');
  }
  if (lint.findings.length > TOOLTIP_FINDINGS)
    md.appendMarkdown(
      `- ${escapeMarkdown(vscode.l10n.t('… and {0} more in Problems', lint.findings.length - TOOLTIP_FINDINGS))}\n`,
    );
}

export function resourceItem(controller: ServerController, resource: Resource, contextValue: string): vscode.TreeItem {
  const item = new vscode.TreeItem(resource.title ?? resource.name, vscode.TreeItemCollapsibleState.None);
  item.id = `${nodeId(controller)}/${rowKind('resource', resource)}/${resource.uri}`;
  const subscribed = contextValue === 'resource.subscribed';
  item.description = [subscribed ? vscode.l10n.t('subscribed') : '', resource.mimeType, resource.uri]
    .filter(Boolean)
    .join(' · ');
  // A subscribed resource gets the bell instead of its own icon, so the rows that will update stand out.
  item.iconPath = subscribed
    ? new vscode.ThemeIcon('bell-dot')
    : iconFor(resource.icons, resource.mimeType?.startsWith('image/') ? 'file-media' : 'file');
  item.contextValue = contextValue;
  item.tooltip = tooltip(resource.title ?? resource.name, resource.uri, resource.description, resource.mimeType);
  item.command = {
    command: 'mcpWorkbench.readResource',
    title: vscode.l10n.t('Read Resource'),
    arguments: [{ kind: 'resource', controller, resource }],
  };
  return item;
}

export function templateItem(controller: ServerController, template: ResourceTemplate): vscode.TreeItem {
  const item = new vscode.TreeItem(template.title ?? template.name, vscode.TreeItemCollapsibleState.None);
  item.id = `${nodeId(controller)}/${rowKind('template', template)}/${template.uriTemplate}`;
  item.description = template.uriTemplate;
  item.iconPath = iconFor(template.icons, 'file-symlink-file');
  item.contextValue = 'template';
  item.tooltip = tooltip(
    template.title ?? template.name,
    template.uriTemplate,
    template.description,
    template.mimeType,
  );
  // A single click opens the template's flow (fill in its variables, read), as it does for tools and resources.
  item.command = {
    command: 'mcpWorkbench.readResourceTemplate',
    title: vscode.l10n.t('Read Resource from Template…'),
    arguments: [{ kind: 'template', controller, template }],
  };
  return item;
}

export function promptItem(controller: ServerController, prompt: Prompt): vscode.TreeItem {
  const item = new vscode.TreeItem(prompt.name, vscode.TreeItemCollapsibleState.None);
  item.id = `${nodeId(controller)}/${rowKind('prompt', prompt)}/${prompt.name}`;
  const args = prompt.arguments ?? [];
  const argText = args.map((arg) => `${arg.name}${arg.required ? '*' : ''}`).join(', ');
  item.description = [
    prompt.title && prompt.title !== prompt.name ? prompt.title : firstLine(prompt.description ?? ''),
    argText ? `(${argText})` : '',
  ]
    .filter(Boolean)
    .join(' ');
  item.iconPath = iconFor(prompt.icons, 'comment-discussion');
  item.contextValue = 'prompt';
  item.tooltip = tooltip(prompt.title ?? prompt.name, prompt.name, prompt.description, undefined);
  item.command = {
    command: 'mcpWorkbench.getPrompt',
    title: vscode.l10n.t('Get Prompt…'),
    arguments: [{ kind: 'prompt', controller, prompt }],
  };
  return item;
}

function annotationLabels(tool: Tool): string[] {
  const a = tool.annotations;
  if (!a || typeof a !== 'object') return [];
  const labels: string[] = [];
  if (a.readOnlyHint === true) labels.push(vscode.l10n.t('read-only'));
  // The spec's default for destructiveHint is true, but only an explicit hint is shown: a guess would mislead.
  if (a.destructiveHint === true && a.readOnlyHint !== true) labels.push(vscode.l10n.t('destructive'));
  if (a.idempotentHint === true) labels.push(vscode.l10n.t('idempotent'));
  if (a.openWorldHint === true) labels.push(vscode.l10n.t('open world'));
  return labels;
}

function iconFor(icons: readonly Icon[] | undefined, codicon: string): vscode.TreeItem['iconPath'] {
  const light = safeIconSource(icons, 'light');
  const dark = safeIconSource(icons, 'dark');
  if (!light || !dark) return new vscode.ThemeIcon(codicon);
  return { light: vscode.Uri.parse(light, true), dark: vscode.Uri.parse(dark, true) };
}

function tooltip(
  title: string,
  identifier: string,
  description: string | undefined,
  mimeType: string | undefined,
): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(
    `**${escapeMarkdown(title)}**\n\n\`${escapeCode(identifier)}\`${mimeType ? ` · ${escapeMarkdown(mimeType)}` : ''}\n\n`,
  );
  if (description) md.appendText(description);
  return md;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? '';
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

function escapeCode(text: string): string {
  return text.replace(/`/g, "'");
}
