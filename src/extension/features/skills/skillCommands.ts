import * as vscode from 'vscode';
import type { Skill, SkillsApi } from '../../../protocol/extensions/skills';
import { planInstall, updateStatus } from '../../../workbench/skills/installPlan';
import { installSkill } from '../../../workbench/skills/installSkill';
import { checkInstallTarget, nodeSkillFileWriter } from '../../../workbench/node/skillTarget';
import type { ServerController } from '../../platform/servers/serverController';
import { showError } from '../../platform/ui/coreErrors';
import { askSafeDefault } from '../../platform/ui/askSafeDefault';
import type { SkillDocuments } from './skillDocuments';
import { skillsOf, type SkillsSection, type SkillsTreeNode } from './skillsSection';

export interface SkillsContext {
  section: SkillsSection;
  documents: SkillDocuments;
}

type SkillNode = Extract<SkillsTreeNode, { row: 'skill' }>;
type FileNode = Extract<SkillsTreeNode, { row: 'skillFile' }>;

function isNode<K extends SkillsTreeNode['row']>(value: unknown, row: K): value is Extract<SkillsTreeNode, { row: K }> {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { section?: unknown }).section === 'skills' &&
    (value as { row?: unknown }).row === row
  );
}

function apiOf(controller: ServerController): SkillsApi | undefined {
  const skills = skillsOf(controller);
  if (!skills)
    void vscode.window.showErrorMessage(vscode.l10n.t('{0} is not running or does not offer skills.', controller.name));
  return skills;
}

/** Shows the refusal; the content was not used. The entry is refreshed with skills/get and the section redrawn. */
function refuse(context: SkillsContext, controller: ServerController, message: string, refreshed?: Skill): void {
  if (refreshed) context.section.replaced(controller, refreshed);
  void showError(message, {
    server: controller,
    words: (reason) => vscode.l10n.t('Skill refused: {0}', reason),
    logAs: 'Skill refused',
  });
}

/** Open Skill: loads the skill now (its SKILL.md read and verified), then shows it as Markdown tagged with its server. */
export async function openSkill(context: SkillsContext, argument: unknown): Promise<boolean> {
  if (!isNode(argument, 'skill')) return false;
  const { controller, skill } = argument as SkillNode;
  const skills = apiOf(controller);
  if (!skills) return false;
  try {
    const load = await skills.load(skill);
    if (load.kind === 'refused') {
      refuse(
        context,
        controller,
        load.refusal.message,
        load.refreshed.kind === 'entry' ? load.refreshed.skill : undefined,
      );
      return false;
    }
    await context.documents.show(controller, skill, skill.uri, load.verification.file.text ?? '');
    return true;
  } catch (error) {
    void showError(error, {
      server: controller,
      words: (reason) => vscode.l10n.t('Could not open skill {0}: {1}', skill.frontmatter.name, reason),
      logAs: `Could not open skill ${skill.frontmatter.name}`,
    });
    return false;
  }
}

/** Open Skill File: one listed file, read and verified now. */
export async function openSkillFile(context: SkillsContext, argument: unknown): Promise<boolean> {
  if (!isNode(argument, 'skillFile')) return false;
  const { controller, skill, file } = argument as FileNode;
  const skills = apiOf(controller);
  if (!skills) return false;
  try {
    const read = await skills.readFile(skill, file.uri);
    if (read.kind === 'refused') {
      refuse(context, controller, read.message);
      return false;
    }
    if (read.file.text === undefined) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          '{0} is binary ({1} bytes, verified); install the skill to use it.',
          file.uri,
          read.file.bytes.byteLength,
        ),
      );
      return true;
    }
    await context.documents.show(controller, skill, file.uri, read.file.text);
    return true;
  } catch (error) {
    void showError(error, {
      server: controller,
      words: (reason) => vscode.l10n.t('Could not open {0}: {1}', file.uri, reason),
      logAs: `Could not open ${file.uri}`,
    });
    return false;
  }
}

/**
 * Install into Workspace (or Update): after a consent that names the server, lists the files and the ones it replaces,
 * every file is read and verified, then written under .github/skills/<name>/ (never through a link). Nothing is run.
 */
export async function installSkillCommand(context: SkillsContext, argument: unknown): Promise<boolean> {
  if (!isNode(argument, 'skill')) return false;
  const { controller, skill } = argument as SkillNode;
  const skills = apiOf(controller);
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!skills) return false;
  if (!folder) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Open a folder to install skills into its workspace.'));
    return false;
  }
  const installed = context.section.installed;
  const plan = planInstall(controller.name, skill, installed);
  if (plan.kind === 'refused') {
    void showError(plan.reason, { server: controller, logAs: `Could not install skill ${skill.frontmatter.name}` });
    return false;
  }
  // Checked on disk before asking, so the consent never offers a write that would go through a link or leave the folder.
  if (folder.uri.scheme !== 'file') {
    void vscode.window.showErrorMessage(vscode.l10n.t('Skills can only be installed into a folder on disk.'));
    return false;
  }
  const root = folder.uri.fsPath;
  let target;
  try {
    target = await checkInstallTarget(root, plan);
  } catch (error) {
    void showError(error, {
      server: controller,
      words: (reason) => vscode.l10n.t('Could not install skill {0}: {1}', skill.frontmatter.name, reason),
      logAs: `Could not install skill ${skill.frontmatter.name}`,
    });
    return false;
  }
  if (target.kind === 'refused') {
    refuse(context, controller, target.reason);
    return false;
  }
  const update = updateStatus(installed, controller.name, skill).kind !== 'not-installed';
  const action = update ? vscode.l10n.t('Update') : vscode.l10n.t('Install');
  const files = plan.files
    .map((file) => `${plan.folder.join('/')}/${file.path.join('/')} (${file.size} bytes)`)
    .join('\n');
  const replaces =
    target.replaces.length > 0 ? `\n\n${vscode.l10n.t('Replaces: {0}', target.replaces.join(', '))}` : '';
  // The server's files into the person's workspace: "Not Now" is the default, so a stray Enter installs nothing.
  const answer = await askSafeDefault(
    'warning',
    update
      ? vscode.l10n.t(
          'Update the skill "{0}" from the server "{1}" in this workspace?',
          skill.frontmatter.name,
          controller.name,
        )
      : vscode.l10n.t(
          'Install the skill "{0}" from the server "{1}" into this workspace?',
          skill.frontmatter.name,
          controller.name,
        ),
    vscode.l10n.t(
      'These files will be written (each verified against its listed digest first; nothing is run):\n{0}',
      files,
    ) + replaces,
    [action],
  );
  if (answer !== action) return false;
  // Re-checks each path just before writing and never follows a link (see nodeSkillFileWriter).
  const writer = nodeSkillFileWriter(root);
  try {
    const outcome = await installSkill(skills, skill, plan, writer);
    if (outcome.kind === 'refused') {
      refuse(context, controller, outcome.message);
      return false;
    }
    await context.section.remember(outcome.record);
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Skill "{0}" from {1} installed in {2}.',
        skill.frontmatter.name,
        controller.name,
        plan.folder.join('/'),
      ),
    );
    return true;
  } catch (error) {
    void showError(error, {
      server: controller,
      words: (reason) => vscode.l10n.t('Could not install skill {0}: {1}', skill.frontmatter.name, reason),
      logAs: `Could not install skill ${skill.frontmatter.name}`,
    });
    return false;
  }
}

/** Refresh Skills: skills/list again (past its ttlMs). */
export async function refreshSkills(context: SkillsContext, argument: unknown): Promise<void> {
  if (isNode(argument, 'skillsGroup')) await context.section.load((argument as SkillsTreeNode).controller, true);
}
