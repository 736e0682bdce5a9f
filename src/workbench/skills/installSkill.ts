import type { Skill, SkillsApi } from '../../protocol/extensions/skills';
import { installedRecord, type InstallPlan, type InstalledSkill } from './installPlan';

/** Where installed files are written (the extension: the workspace's file system; tests: a temp folder). */
export interface SkillFileWriter {
  /** Writes `bytes` at `path` (segments below the workspace root), creating folders. Never runs anything. */
  write(path: readonly string[], bytes: Uint8Array): Promise<void>;
}

type InstallOutcome = { kind: 'installed'; record: InstalledSkill } | { kind: 'refused'; message: string };

/**
 * Installs a planned skill: every file is read and verified first (size, digest, SKILL.md frontmatter); only when all
 * of them pass is anything written, so a tampered file leaves the workspace as it was. Files are data: none is run.
 */
export async function installSkill(
  skills: SkillsApi,
  skill: Skill,
  plan: Extract<InstallPlan, { kind: 'ready' }>,
  writer: SkillFileWriter,
  signal?: AbortSignal,
): Promise<InstallOutcome> {
  const verified: { path: string[]; bytes: Uint8Array }[] = [];
  for (const file of plan.files) {
    const read = await skills.readFile(skill, file.uri, { signal });
    if (read.kind === 'refused') return { kind: 'refused', message: read.message };
    verified.push({ path: [...plan.folder, ...file.path], bytes: read.file.bytes });
  }
  for (const file of verified) await writer.write(file.path, file.bytes);
  return { kind: 'installed', record: installedRecord(plan) };
}
