import type { ReadResourceResult } from '../../types';
import { FrontmatterError, parseSkillMarkdown } from './frontmatter';
import { fileEntry } from './skillEntry';
import { DYNAMIC_RESOURCES, type Skill } from './skillTypes';
import { isObject } from '../../guards';

/** Why a skill file is refused: the content is not used (for SKILL.md: the skill is not loaded). */
type RefusalReason = 'unlisted' | 'unreadable' | 'size' | 'digest' | 'frontmatter';

/** A file read and checked against its skill entry. */
interface VerifiedFile {
  uri: string;
  mimeType?: string;
  /** Exactly the bytes the digest covers. */
  bytes: Uint8Array;
  /** The bytes as UTF-8 text, when they are text. */
  text?: string;
  /** Size and digest matched the listing. False only for a "dynamic" skill, whose files have no digest to check. */
  verified: boolean;
  /** SKILL.md only: its frontmatter (equal to the listing's) and its Markdown body. */
  frontmatter?: Record<string, unknown>;
  body?: string;
}

export type Verification =
  | { kind: 'verified'; file: VerifiedFile }
  | { kind: 'refused'; reason: RefusalReason; uri: string; message: string; differences: readonly string[] };

/** `sha256:` + lowercase hex, with Web Crypto (every runtime the client runs in). */
async function sha256Digest(bytes: Uint8Array): Promise<string> {
  const view = new Uint8Array(bytes.byteLength);
  view.set(bytes);
  const hash = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', view));
  return `sha256:${Array.from(hash, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

function decodeBase64(base64: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 === 1) return undefined;
  try {
    const binary = atob(base64);
    return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

const show = (value: unknown): string => (value === undefined ? 'nothing' : JSON.stringify(value));

/**
 * Field-by-field differences between the listing's frontmatter and the one parsed from SKILL.md: every key both
 * ways (own keys only), objects in any key order, arrays in order, no coercion. Empty when they are equal.
 */
export function frontmatterDifferences(listed: unknown, parsed: unknown, path = ''): string[] {
  const label = path === '' ? 'frontmatter' : path;
  if (Array.isArray(listed) && Array.isArray(parsed)) {
    if (listed.length !== parsed.length)
      return [`${label}: the listing has ${listed.length} items, SKILL.md has ${parsed.length}`];
    return listed.flatMap((item, index) => frontmatterDifferences(item, parsed[index], `${label}[${index}]`));
  }
  if (isObject(listed) && isObject(parsed)) {
    const keys = [...new Set([...Object.keys(listed), ...Object.keys(parsed)])].sort();
    const own = (map: Record<string, unknown>, key: string) =>
      Object.prototype.hasOwnProperty.call(map, key) ? map[key] : undefined;
    return keys.flatMap((key) =>
      frontmatterDifferences(own(listed, key), own(parsed, key), path === '' ? key : `${path}.${key}`),
    );
  }
  return Object.is(listed, parsed) ? [] : [`${label}: the listing has ${show(listed)}, SKILL.md has ${show(parsed)}`];
}

function refusal(
  serverName: string,
  skill: Skill,
  uri: string,
  reason: RefusalReason,
  why: string,
  differences: readonly string[] = [],
): Extract<Verification, { kind: 'refused' }> {
  return {
    kind: 'refused',
    reason,
    uri,
    differences,
    message: `${serverName}: refused ${uri} of skill "${skill.frontmatter.name}": ${why}; its content was not used`,
  };
}

/** The refusal of a file the skill does not list. */
export function unlistedRefusal(
  serverName: string,
  skill: Skill,
  uri: string,
): Extract<Verification, { kind: 'refused' }> {
  return refusal(serverName, skill, uri, 'unlisted', "the file is not in the skill's listed files");
}

/**
 * Verifies a `resources/read` of one file of `skill` (SEP-2640 "Integrity and verification"): the file must be
 * listed; its bytes must have the listed size and sha256 digest; a SKILL.md's frontmatter must equal the listing's.
 * Any failure refuses the content.
 */
export async function verifySkillFile(
  serverName: string,
  skill: Skill,
  uri: string,
  result: ReadResourceResult,
): Promise<Verification> {
  const refuse = (reason: RefusalReason, why: string, differences: readonly string[] = []): Verification =>
    refusal(serverName, skill, uri, reason, why, differences);
  const dynamic = skill.resources === DYNAMIC_RESOURCES;
  const listed = fileEntry(skill, uri);
  if (!dynamic && !listed) return unlistedRefusal(serverName, skill, uri);
  const all = Array.isArray(result.contents)
    ? result.contents.filter((item) => typeof item === 'object' && item !== null)
    : [];
  // The content for this URI; a server that answers with one item under another spelling of the URI is still checked.
  const matching = all.filter((item) => item.uri === uri);
  const contents = matching.length === 0 && all.length === 1 ? all : matching;
  if (contents.length !== 1)
    return refuse('unreadable', `resources/read returned ${contents.length} contents for this URI, not one`);
  const content = contents[0];
  const bytes =
    typeof content.text === 'string'
      ? new TextEncoder().encode(content.text)
      : typeof content.blob === 'string'
        ? decodeBase64(content.blob)
        : undefined;
  if (!bytes) return refuse('unreadable', 'resources/read returned neither text nor valid base64 for it');
  if (listed) {
    // Size first: a wrong length is a verification failure on its own, before any hashing.
    if (bytes.byteLength !== listed.size)
      return refuse('size', `it is ${bytes.byteLength} bytes, the listing says ${listed.size}`);
    const digest = await sha256Digest(bytes);
    if (digest !== listed.digest)
      return refuse('digest', `its sha256 digest ${digest} is not the listed ${listed.digest}`);
  }
  const text = typeof content.text === 'string' ? content.text : decodeUtf8(bytes);
  const file: VerifiedFile = {
    uri,
    bytes,
    text,
    verified: !dynamic,
    ...(typeof content.mimeType === 'string' ? { mimeType: content.mimeType } : {}),
  };
  if (uri !== skill.uri) return { kind: 'verified', file };
  if (text === undefined) return refuse('frontmatter', 'SKILL.md is not UTF-8 text');
  let parsed: ReturnType<typeof parseSkillMarkdown>;
  try {
    parsed = parseSkillMarkdown(text);
  } catch (error) {
    if (!(error instanceof FrontmatterError)) throw error;
    return refuse('frontmatter', `its frontmatter cannot be read (${error.message})`);
  }
  const differences = frontmatterDifferences(skill.frontmatter, parsed.frontmatter);
  if (differences.length > 0)
    return refuse('frontmatter', `its frontmatter differs from the listing: ${differences.join('; ')}`, differences);
  return { kind: 'verified', file: { ...file, frontmatter: parsed.frontmatter, body: parsed.body } };
}
