import type { JsonObject } from '../../types';
import type { ExtensionKey } from '../protocolExtension';
import type { SkillsApi } from './skillsApi';

/** The Skills extension (SEP-2640): skills served as `skill://` resources, listed with a digest and size per file. */
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';
/** The skills extension's API by its id: `client.extension(SKILLS_API)` without loading the extension's code. */
export const SKILLS_API: ExtensionKey<SkillsApi> = { id: SKILLS_EXTENSION_ID };
export const SKILL_FILE_NAME = 'SKILL.md';
/** `resources` of a skill whose files the server resolves on demand (no digests: its files cannot be verified). */
export const DYNAMIC_RESOURCES = 'dynamic';

/** The spec's per-skill limits: a host supports at least these and refuses a skill beyond them. */
export const SKILL_LIMITS = { maxFiles: 512, maxTotalBytes: 16 * 1024 * 1024 } as const;

/** One file of a skill with what verifies it. */
export interface SkillFileEntry {
  uri: string;
  /** `sha256:` and 64 lowercase hex digits, over the file's raw bytes. */
  digest: string;
  size: number;
}

/** One skill entry as `skills/list` and `skills/get` carry it, checked (see readSkillEntry). */
export interface Skill {
  /** The URI of the skill's SKILL.md: with the server, the skill's identity. */
  uri: string;
  /** The SKILL.md frontmatter, verbatim (name and description at least). */
  frontmatter: { name: string; description: string; [key: string]: unknown };
  resources: readonly SkillFileEntry[] | typeof DYNAMIC_RESOURCES;
  _meta?: JsonObject;
}

/** A child of a directory resource (`resources/directory/read`). */
export interface DirectoryChild {
  uri: string;
  name?: string;
  mimeType?: string;
  size?: number;
  [key: string]: unknown;
}

declare module '../../methods' {
  interface ExtensionClientRequests {
    'skills/list': {
      params: PaginatedParams | undefined;
      result: PaginatedResult & { skills: unknown[]; ttlMs?: number; cacheScope?: string };
    };
    'skills/get': {
      params: { uri: string; _meta?: RequestMeta };
      result: { skill: unknown; ttlMs?: number; cacheScope?: string; [key: string]: unknown };
    };
    'resources/directory/read': {
      params: { uri: string; cursor?: string; _meta?: RequestMeta };
      result: PaginatedResult & { resources: unknown[] };
    };
  }
}
