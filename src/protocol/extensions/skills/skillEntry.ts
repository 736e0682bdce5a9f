import { DYNAMIC_RESOURCES, SKILL_FILE_NAME, SKILL_LIMITS, type Skill, type SkillFileEntry } from './skillTypes';
import { isObject } from '../../guards';

/** A skill entry as the server sent it, read: the checked skill, or why it is refused. */
type EntryReading = { kind: 'valid'; skill: Skill } | { kind: 'invalid'; uri?: string; reason: string };

const DIGEST = /^sha256:[0-9a-f]{64}$/;
/** Agent Skills names: 1-64 lowercase letters, digits and single inner hyphens. */
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The directory that holds a skill's SKILL.md (no trailing slash), or undefined when `uri` names no SKILL.md. */
export function skillRoot(uri: string): string | undefined {
  if (!uri.endsWith(`/${SKILL_FILE_NAME}`)) return undefined;
  const root = uri.slice(0, -SKILL_FILE_NAME.length - 1);
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:\/*$/.test(root) || root.endsWith('/') ? undefined : root;
}

/**
 * The path of `uri` below the skill's directory as safe segments (`references/FORMS.md` → ['references',
 * 'FORMS.md']), or undefined when it is not strictly inside it or a segment could escape a folder (`..`, `.`, empty,
 * a decoded `/` or `\`, NUL, a query or fragment). The same check guards what is written on install.
 */
export function relativeSegments(root: string, uri: string): string[] | undefined {
  if (!uri.startsWith(`${root}/`) || /[?#]/.test(uri)) return undefined;
  const segments: string[] = [];
  for (const raw of uri.slice(root.length + 1).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (
      segment === '' ||
      segment === '.' ||
      segment === '..' ||
      /[/\\\0:*?"<>|]/.test(segment) ||
      /[\x00-\x1f]/.test(segment)
    )
      return undefined;
    segments.push(segment);
  }
  return segments;
}

/** The last segment of the skill's directory: what the skill's name must equal. */
function skillDirectoryName(root: string): string {
  const last = root.slice(root.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function readFiles(
  uri: string,
  root: string,
  raw: unknown,
): readonly SkillFileEntry[] | typeof DYNAMIC_RESOURCES | string {
  if (raw === DYNAMIC_RESOURCES) return DYNAMIC_RESOURCES;
  if (!Array.isArray(raw)) return `resources is neither an array nor "${DYNAMIC_RESOURCES}"`;
  if (raw.length > SKILL_LIMITS.maxFiles)
    return `it lists ${raw.length} files, more than the ${SKILL_LIMITS.maxFiles} a skill may have`;
  const files: SkillFileEntry[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (const [index, file] of raw.entries()) {
    if (!isObject(file) || typeof file.uri !== 'string') return `resources[${index}] has no uri`;
    if (typeof file.digest !== 'string' || !DIGEST.test(file.digest))
      return `${file.uri} has no sha256 digest ("sha256:" and 64 lowercase hex digits)`;
    if (typeof file.size !== 'number' || !Number.isSafeInteger(file.size) || file.size < 0)
      return `${file.uri} has no size in bytes`;
    if (file.uri !== uri && relativeSegments(root, file.uri) === undefined)
      return `${file.uri} is not inside the skill's directory ${root}`;
    if (seen.has(file.uri)) return `${file.uri} is listed twice`;
    seen.add(file.uri);
    total += file.size;
    files.push({ uri: file.uri, digest: file.digest, size: file.size });
  }
  if (total > SKILL_LIMITS.maxTotalBytes)
    return `its files add up to ${total} bytes, more than the ${SKILL_LIMITS.maxTotalBytes} (16 MiB) a skill may have`;
  if (!seen.has(uri)) return `its files do not include its own ${SKILL_FILE_NAME}`;
  return files;
}

/** Checks one untrusted skill entry: shape, name rules, the file list (inside the skill, digests, sizes, limits). */
export function readSkillEntry(raw: unknown): EntryReading {
  if (!isObject(raw)) return { kind: 'invalid', reason: 'the entry is not an object' };
  const uri = typeof raw.uri === 'string' ? raw.uri : undefined;
  if (uri === undefined) return { kind: 'invalid', reason: 'the entry has no uri' };
  const invalid = (reason: string): EntryReading => ({ kind: 'invalid', uri, reason });
  const root = skillRoot(uri);
  if (root === undefined) return invalid(`its uri does not name a ${SKILL_FILE_NAME} inside a directory`);
  const frontmatter = raw.frontmatter;
  if (!isObject(frontmatter)) return invalid('it has no frontmatter object');
  const { name, description } = frontmatter;
  if (typeof name !== 'string' || name.length > 64 || !SKILL_NAME.test(name))
    return invalid('its frontmatter name is not 1-64 lowercase letters, digits and single hyphens');
  if (skillDirectoryName(root) !== name)
    return invalid(`its name "${name}" is not the name of its directory "${skillDirectoryName(root)}"`);
  if (typeof description !== 'string' || description === '') return invalid('its frontmatter has no description');
  const files = readFiles(uri, root, raw.resources);
  if (typeof files === 'string') return invalid(files);
  const skill: Skill = { uri, frontmatter: frontmatter as Skill['frontmatter'], resources: files };
  if (isObject(raw._meta)) skill._meta = raw._meta;
  return { kind: 'valid', skill };
}

/** The listed entry of `fileUri` in a static skill. */
export function fileEntry(skill: Skill, fileUri: string): SkillFileEntry | undefined {
  return skill.resources === DYNAMIC_RESOURCES ? undefined : skill.resources.find((file) => file.uri === fileUri);
}
