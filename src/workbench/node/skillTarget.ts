import * as fs from 'node:fs';
import * as path from 'node:path';
import type { InstallPlan } from '../skills/installPlan';
import type { SkillFileWriter } from '../skills/installSkill';

/**
 * Where a planned skill lands on disk. A repository can commit `.github/skills/<name>` (or any folder or file below it)
 * as a symbolic link to a place outside the workspace; writing through it would replace files there while the consent
 * showed only workspace paths. So every existing component from the workspace folder down to each file is checked:
 * no symbolic links, nothing that resolves outside the workspace folder.
 */

type TargetCheck = { kind: 'ready'; replaces: string[] } | { kind: 'refused'; reason: string };

type ReadyPlan = Extract<InstallPlan, { kind: 'ready' }>;

const isInside = (root: string, candidate: string): boolean => {
  const relative = path.relative(root, candidate);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
};

async function lstatOrUndefined(file: string): Promise<fs.Stats | undefined> {
  try {
    return await fs.promises.lstat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Checks one path (segments below `root`) component by component. Returns whether the final component exists, or a
 * refusal naming the component and why. Components that do not exist yet are fine: they will be created as folders.
 */
async function checkPath(
  root: string,
  realRoot: string,
  segments: readonly string[],
  final: 'file' | 'folder' = 'file',
): Promise<{ exists: boolean } | { refused: string }> {
  let current = root;
  for (const [index, segment] of segments.entries()) {
    current = path.join(current, segment);
    const shown = segments.slice(0, index + 1).join('/');
    const stats = await lstatOrUndefined(current);
    if (!stats) return { exists: false };
    if (stats.isSymbolicLink()) return { refused: `${shown} is a symbolic link; not writing through it` };
    const real = await fs.promises.realpath(current);
    if (!isInside(realRoot, real))
      return { refused: `${shown} resolves outside the workspace folder (${real}); not writing there` };
    const file = final === 'file' && index === segments.length - 1;
    if (!file && !stats.isDirectory()) return { refused: `${shown} exists and is not a folder` };
    if (file && !stats.isFile()) return { refused: `${shown} exists and is not a regular file` };
  }
  return { exists: true };
}

/**
 * Checks every file of `plan` below the workspace folder `root`, before the consent is shown. `replaces` lists the
 * files (paths below the skill's folder) that already exist and will be overwritten.
 */
export async function checkInstallTarget(root: string, plan: ReadyPlan): Promise<TargetCheck> {
  const realRoot = await fs.promises.realpath(root);
  const replaces: string[] = [];
  for (const file of plan.files) {
    const result = await checkPath(root, realRoot, [...plan.folder, ...file.path]);
    if ('refused' in result) return { kind: 'refused', reason: result.refused };
    if (result.exists) replaces.push(file.path.join('/'));
  }
  return { kind: 'ready', replaces };
}

/** Not defined on Windows; there the lstat check just before opening is the only guard. */
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/**
 * Writes below `root`, re-checking each path right before writing (time passed since the consent). Folders are made
 * one at a time so a link planted meanwhile is seen, and the file is opened with O_NOFOLLOW so a final component
 * swapped for a link between the check and the open fails instead of being followed. Files are written 0644: data only.
 */
export function nodeSkillFileWriter(root: string): SkillFileWriter {
  return {
    write: async (segments, bytes) => {
      const realRoot = await fs.promises.realpath(root);
      // Each folder is made only once its parent passed the check, so nothing is created through a link.
      for (let depth = 1; depth < segments.length; depth++) {
        try {
          await fs.promises.mkdir(path.join(root, ...segments.slice(0, depth)));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
        const folder = await checkPath(root, realRoot, segments.slice(0, depth), 'folder');
        if ('refused' in folder) throw new Error(folder.refused);
      }
      const check = await checkPath(root, realRoot, segments);
      if ('refused' in check) throw new Error(check.refused);
      const handle = await fs.promises.open(
        path.join(root, ...segments),
        fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | O_NOFOLLOW,
        0o644,
      );
      try {
        await handle.writeFile(bytes);
      } finally {
        await handle.close();
      }
    },
  };
}
