import type { Skill } from '../../protocol/extensions/skills';
import { relativeSegments, skillRoot } from '../../protocol/extensions/skills/skillEntry';
import { DYNAMIC_RESOURCES } from '../../protocol/extensions/skills/skillTypes';

/**
 * Installing a server's skill into the workspace (host-neutral): which file goes where, whether the folder is free or
 * already this skill's, and, for an installed skill, whether the server's digests changed since (an update). Skills are
 * keyed by (server, uri): a skill of one origin never takes the folder of another's.
 */

/** VS Code's agents read workspace skills from here (one folder per skill, named as the skill). */
const WORKSPACE_SKILLS_FOLDER = ['.github', 'skills'] as const;

interface SkillKey {
  server: string;
  uri: string;
}

/** What was installed, kept by the host so updates can be detected and the folder's owner known. */
export interface InstalledSkill extends SkillKey {
  name: string;
  /** Path segments of the folder below the workspace root. */
  folder: string[];
  files: { uri: string; path: string[]; digest: string }[];
}

interface PlannedFile {
  uri: string;
  /** Path segments below the skill's folder. */
  path: string[];
  size: number;
  digest: string;
}

export type InstallPlan =
  | { kind: 'ready'; key: SkillKey; name: string; folder: string[]; files: PlannedFile[]; replaces?: InstalledSkill }
  | { kind: 'refused'; reason: string };

const sameSkill = (a: SkillKey, b: SkillKey): boolean => a.server === b.server && a.uri === b.uri;

/**
 * Plans the install of `skill` from `server`: every listed file under `.github/skills/<name>/`, at its path below the
 * skill's directory. Refused for a "dynamic" skill (nothing to verify its files against), for a file whose path could
 * leave the folder, and when the folder belongs to another origin's skill.
 */
export function planInstall(server: string, skill: Skill, installed: readonly InstalledSkill[]): InstallPlan {
  const name = skill.frontmatter.name;
  if (skill.resources === DYNAMIC_RESOURCES)
    return {
      kind: 'refused',
      reason: `${server}: skill "${name}" has no listed files with digests, so it cannot be verified and is not installed`,
    };
  const root = skillRoot(skill.uri);
  if (root === undefined) return { kind: 'refused', reason: `${server}: ${skill.uri} does not name a SKILL.md` };
  const files: PlannedFile[] = [];
  for (const file of skill.resources) {
    const path = file.uri === skill.uri ? ['SKILL.md'] : relativeSegments(root, file.uri);
    if (!path) return { kind: 'refused', reason: `${server}: ${file.uri} has no safe path inside the skill's folder` };
    files.push({ uri: file.uri, path, size: file.size, digest: file.digest });
  }
  const folder = [...WORKSPACE_SKILLS_FOLDER, name];
  const key = { server, uri: skill.uri };
  const owner = installed.find((record) => record.folder.join('/') === folder.join('/'));
  if (owner && !sameSkill(owner, key)) {
    return {
      kind: 'refused',
      reason: `${folder.join('/')} already holds the skill "${owner.name}" from ${owner.server} (${owner.uri}); a skill of ${server} does not replace it`,
    };
  }
  return { kind: 'ready', key, name, folder, files, ...(owner ? { replaces: owner } : {}) };
}

export type UpdateStatus = { kind: 'current' } | { kind: 'changed'; files: string[] } | { kind: 'not-installed' };

/** Whether the server's listing of an installed skill differs from what was installed (any digest, file added or gone). */
export function updateStatus(installed: readonly InstalledSkill[], server: string, skill: Skill): UpdateStatus {
  const record = installed.find((entry) => sameSkill(entry, { server, uri: skill.uri }));
  if (!record) return { kind: 'not-installed' };
  if (skill.resources === DYNAMIC_RESOURCES) return { kind: 'changed', files: ['(the skill is now dynamic)'] };
  const before = new Map(record.files.map((file) => [file.uri, file.digest]));
  const now = new Map(skill.resources.map((file) => [file.uri, file.digest]));
  const changed = [...new Set([...before.keys(), ...now.keys()])]
    .filter((uri) => before.get(uri) !== now.get(uri))
    .sort();
  return changed.length === 0 ? { kind: 'current' } : { kind: 'changed', files: changed };
}

/** The record to keep once every planned file was written. */
export function installedRecord(plan: Extract<InstallPlan, { kind: 'ready' }>): InstalledSkill {
  return {
    ...plan.key,
    name: plan.name,
    folder: plan.folder,
    files: plan.files.map(({ uri, path, digest }) => ({ uri, path, digest })),
  };
}
