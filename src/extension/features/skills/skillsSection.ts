import * as vscode from 'vscode';
import { errorMessage } from '../../../protocol/errors';
import type { Skill, SkillFileEntry, SkillsApi } from '../../../protocol/extensions/skills';
import { DYNAMIC_RESOURCES, SKILLS_API } from '../../../protocol/extensions/skills/skillTypes';
import { updateStatus, type InstalledSkill, type UpdateStatus } from '../../../workbench/skills/installPlan';
import type { ServerController } from '../../platform/servers/serverController';
import type { ServerSection } from '../../platform/services';
import { nodeId } from '../../platform/servers/treeIds';

/** The Skills rows of the Servers view: a section per server that declares the extension, one row per skill and file. */
export type SkillsTreeNode = { kind: 'section'; section: 'skills' } & (
  | { row: 'skillsGroup'; controller: ServerController }
  | { row: 'skill'; controller: ServerController; skill: Skill }
  | { row: 'skillFile'; controller: ServerController; skill: Skill; file: SkillFileEntry }
  | { row: 'skillsMessage'; controller: ServerController; text: string; icon: string }
);

type Listing =
  { kind: 'loading' } | { kind: 'loaded'; skills: Skill[]; refused: number } | { kind: 'failed'; message: string };

const INSTALLED_KEY = 'mcpWorkbench.installedSkills';

export function skillsOf(controller: ServerController): SkillsApi | undefined {
  const client = controller.client;
  if (!client) return undefined;
  const skills = client.extension(SKILLS_API);
  return skills?.supported ? skills : undefined;
}

/**
 * Lists a server's skills when its Skills section is expanded (skills/list only: no file is read on connect, on
 * listing or on approval), remembers what was installed into the workspace (keyed by server and uri) and tells the
 * tree which rows changed.
 */
export class SkillsSection implements ServerSection<SkillsTreeNode>, vscode.Disposable {
  private readonly listings = new Map<ServerController, { epoch: number; listing: Listing; group: SkillsTreeNode }>();
  private readonly changeEmitter = new vscode.EventEmitter<SkillsTreeNode | undefined>();
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly state: vscode.Memento) {}

  get installed(): InstalledSkill[] {
    const value = this.state.get<unknown>(INSTALLED_KEY);
    return Array.isArray(value) ? (value as InstalledSkill[]) : [];
  }

  async remember(record: InstalledSkill): Promise<void> {
    const others = this.installed.filter((entry) => !(entry.server === record.server && entry.uri === record.uri));
    await this.state.update(INSTALLED_KEY, [...others, record]);
    this.changeEmitter.fire(undefined);
  }

  /** The Skills section of a running server that declares the extension, else nothing. */
  groupNode(controller: ServerController): SkillsTreeNode | undefined {
    if (!skillsOf(controller)) return undefined;
    return this.entry(controller).group;
  }

  private entry(controller: ServerController) {
    let entry = this.listings.get(controller);
    if (!entry || entry.epoch !== controller.epoch) {
      entry = {
        epoch: controller.epoch,
        listing: { kind: 'loading' },
        group: { kind: 'section', section: 'skills', row: 'skillsGroup', controller },
      };
      this.listings.set(controller, entry);
      void this.load(controller, false);
    }
    return entry;
  }

  /** Lists again (skills/list, refresh) and redraws the section. */
  async load(controller: ServerController, refresh: boolean): Promise<void> {
    const skills = skillsOf(controller);
    const entry = this.listings.get(controller);
    if (!skills || !entry) return;
    try {
      const listing = await skills.list({ refresh });
      for (const invalid of listing.invalid)
        controller.log.warn(`Skill entry refused: ${invalid.uri ?? `#${invalid.index}`}: ${invalid.reason}`);
      entry.listing = { kind: 'loaded', skills: listing.skills, refused: listing.invalid.length };
    } catch (error) {
      entry.listing = { kind: 'failed', message: errorMessage(error) };
    }
    this.changeEmitter.fire(entry.group);
  }

  /** A skill's entry changed (skills/get after a refusal): the section is drawn from the refreshed listing. */
  replaced(controller: ServerController, skill: Skill): void {
    const entry = this.listings.get(controller);
    if (entry?.listing.kind !== 'loaded') return;
    entry.listing = { ...entry.listing, skills: entry.listing.skills.map((s) => (s.uri === skill.uri ? skill : s)) };
    this.changeEmitter.fire(entry.group);
  }

  children(node: SkillsTreeNode): SkillsTreeNode[] {
    const { controller } = node;
    if (node.row === 'skill') {
      if (node.skill.resources === DYNAMIC_RESOURCES)
        return [
          {
            kind: 'section',
            section: 'skills',
            row: 'skillsMessage',
            controller,
            text: vscode.l10n.t('Files resolved by the server on demand (not verifiable)'),
            icon: 'info',
          },
        ];
      return node.skill.resources
        .filter((file) => file.uri !== node.skill.uri)
        .map((file) => ({ kind: 'section', section: 'skills', row: 'skillFile', controller, skill: node.skill, file }));
    }
    if (node.row !== 'skillsGroup') return [];
    const listing = this.entry(controller).listing;
    switch (listing.kind) {
      case 'loading':
        return [
          {
            kind: 'section',
            section: 'skills',
            row: 'skillsMessage',
            controller,
            text: vscode.l10n.t('Loading…'),
            icon: 'loading~spin',
          },
        ];
      case 'failed':
        return [
          {
            kind: 'section',
            section: 'skills',
            row: 'skillsMessage',
            controller,
            text: listing.message,
            icon: 'warning',
          },
        ];
      case 'loaded': {
        const rows: SkillsTreeNode[] = listing.skills.map((skill) => ({
          kind: 'section',
          section: 'skills',
          row: 'skill',
          controller,
          skill,
        }));
        if (listing.refused > 0)
          rows.push({
            kind: 'section',
            section: 'skills',
            row: 'skillsMessage',
            controller,
            text: vscode.l10n.t('{0} skill entries refused (see the server log)', listing.refused),
            icon: 'warning',
          });
        return rows;
      }
    }
  }

  item(node: SkillsTreeNode): vscode.TreeItem {
    const id = nodeId(node.controller);
    switch (node.row) {
      case 'skillsGroup': {
        const listing = this.entry(node.controller).listing;
        const item = new vscode.TreeItem(vscode.l10n.t('Skills'), vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `${id}/skills`;
        item.iconPath = new vscode.ThemeIcon('mortar-board');
        item.description =
          listing.kind === 'loaded'
            ? String(listing.skills.length)
            : listing.kind === 'loading'
              ? vscode.l10n.t('loading…')
              : '';
        item.contextValue = 'group.skills';
        return item;
      }
      case 'skill':
        return this.skillItem(node.controller, node.skill, id);
      case 'skillFile': {
        const label = node.file.uri.slice(node.skill.uri.length - 'SKILL.md'.length);
        const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
        item.id = `${id}/skill/${node.skill.uri}/${node.file.uri}`;
        item.description = vscode.l10n.t('{0} bytes', node.file.size);
        item.iconPath = new vscode.ThemeIcon('file');
        item.tooltip = `${node.file.uri}\n${node.file.digest}`;
        item.contextValue = 'skillFile';
        item.command = {
          command: 'mcpWorkbench.openSkillFile',
          title: vscode.l10n.t('Open Skill File'),
          arguments: [node],
        };
        return item;
      }
      case 'skillsMessage': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.id = `${id}/skills/message/${node.text}`;
        item.iconPath = new vscode.ThemeIcon(node.icon);
        item.contextValue = 'message';
        return item;
      }
    }
  }

  private skillItem(controller: ServerController, skill: Skill, id: string): vscode.TreeItem {
    const status: UpdateStatus = updateStatus(this.installed, controller.name, skill);
    const item = new vscode.TreeItem(
      skill.frontmatter.name,
      skill.resources === DYNAMIC_RESOURCES || skill.resources.length > 1
        ? vscode.TreeItemCollapsibleState.Collapsed
        : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `${id}/skill/${skill.uri}`;
    const mark =
      status.kind === 'changed'
        ? vscode.l10n.t('update available')
        : status.kind === 'current'
          ? vscode.l10n.t('installed')
          : '';
    item.description = [mark, skill.frontmatter.description].filter(Boolean).join(' · ');
    item.iconPath = new vscode.ThemeIcon(status.kind === 'changed' ? 'cloud-download' : 'mortar-board');
    const tooltip = new vscode.MarkdownString();
    tooltip.appendText(`${skill.frontmatter.name} (${controller.name})\n${skill.uri}\n\n`);
    for (const [key, value] of Object.entries(skill.frontmatter))
      tooltip.appendText(`${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
    item.tooltip = tooltip;
    item.contextValue = status.kind === 'changed' ? 'skill.updatable' : 'skill';
    item.command = {
      command: 'mcpWorkbench.openSkill',
      title: vscode.l10n.t('Open Skill'),
      arguments: [{ kind: 'section', section: 'skills', row: 'skill', controller, skill }],
    };
    return item;
  }

  dispose(): void {
    this.changeEmitter.dispose();
    this.listings.clear();
  }
}
