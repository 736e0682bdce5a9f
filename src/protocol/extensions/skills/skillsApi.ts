import { LocalError } from '../../errors';
import type { JsonObject } from '../../types';
import type { ExtensionCallOptions, ExtensionContext } from '../protocolExtension';
import { fileEntry, readSkillEntry } from './skillEntry';
import { DYNAMIC_RESOURCES, SKILLS_EXTENSION_ID, type DirectoryChild, type Skill } from './skillTypes';
import { unlistedRefusal, verifySkillFile, type Verification } from './verification';
import { isObject } from '../../guards';

/** A skills/list entry this client refused, and why (`index` counts across every page). */
interface InvalidSkillEntry {
  index: number;
  uri?: string;
  reason: string;
}

interface SkillListing {
  skills: Skill[];
  invalid: InvalidSkillEntry[];
  /** When the listing stops being fresh (from the first page's ttlMs); undefined when it may not be reused. */
  freshUntil?: number;
}

/** Loading a skill: its SKILL.md verified, or refused (and the entry refreshed with skills/get). */
type SkillLoad =
  | { kind: 'loaded'; skill: Skill; verification: Extract<Verification, { kind: 'verified' }> }
  | {
      kind: 'refused';
      skill: Skill;
      refusal: Extract<Verification, { kind: 'refused' }>;
      refreshed: { kind: 'entry'; skill: Skill } | { kind: 'failed'; message: string };
    };

interface SkillCallOptions {
  signal?: AbortSignal;
  /** Ask the server again even when a cached copy is fresh. */
  refresh?: boolean;
}

/** How many skills/list pages are followed before the listing is refused as endless. */
const MAX_PAGES = 1000;

/** What hosts reach through `client.extension(skillsExtension)`: one server's skills, every file verified before use. */
export class SkillsApi {
  private cached: SkillListing | undefined;

  constructor(
    private readonly context: ExtensionContext,
    private readonly now: () => number = Date.now,
  ) {}

  private get serverName(): string {
    return this.context.serverName;
  }

  private settings(): JsonObject | undefined {
    const extensions = this.context.session().capabilities.extensions as Record<string, unknown> | undefined;
    const value = extensions?.[SKILLS_EXTENSION_ID];
    return isObject(value) ? value : undefined;
  }

  /** The server declared the extension (throws when not connected). */
  get supported(): boolean {
    return this.settings() !== undefined;
  }

  /** The server declared `directoryRead: true`: only then is resources/directory/read sent. */
  get directoryRead(): boolean {
    return this.settings()?.directoryRead === true;
  }

  private requireSupport(what: string): void {
    if (!this.supported)
      throw new LocalError(
        'capability-missing',
        `${this.serverName} does not offer the ${SKILLS_EXTENSION_ID} extension, so this client cannot ${what}`,
      );
  }

  private call(options: SkillCallOptions | undefined): ExtensionCallOptions {
    return { signal: options?.signal, refresh: options?.refresh };
  }

  /** Every page of skills/list, reused while its ttlMs says it is fresh. Invalid entries are set aside with the reason. */
  async list(options?: SkillCallOptions): Promise<SkillListing> {
    this.requireSupport('list skills');
    const cached = this.cached;
    if (cached && options?.refresh !== true && cached.freshUntil !== undefined && this.now() < cached.freshUntil)
      return cached;
    const raw: unknown[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    let ttlMs: unknown;
    for (let page = 0; ; page++) {
      if (page >= MAX_PAGES)
        throw new LocalError(
          'protocol-violation',
          `${this.serverName}: skills/list returned more than ${MAX_PAGES} pages`,
        );
      const result = await this.context.request(
        'skills/list',
        cursor === undefined ? undefined : { cursor },
        this.call(options),
      );
      if (!Array.isArray(result.skills))
        throw new LocalError('protocol-violation', `${this.serverName}: skills/list result has no skills array`);
      if (page === 0) ttlMs = result.ttlMs;
      raw.push(...result.skills);
      const next = result.nextCursor;
      if (typeof next !== 'string' || next === '') break;
      if (cursors.has(next))
        throw new LocalError(
          'protocol-violation',
          `${this.serverName}: skills/list returned the cursor "${next.slice(0, 80)}" twice`,
        );
      cursors.add(next);
      cursor = next;
    }
    const listing = this.readListing(raw);
    if (typeof ttlMs === 'number' && Number.isFinite(ttlMs) && ttlMs > 0) listing.freshUntil = this.now() + ttlMs;
    this.cached = listing;
    return listing;
  }

  private readListing(raw: readonly unknown[]): SkillListing {
    const readings = raw.map((entry) => readSkillEntry(entry));
    const count = new Map<string, number>();
    for (const reading of readings)
      if (reading.kind === 'valid') count.set(reading.skill.uri, (count.get(reading.skill.uri) ?? 0) + 1);
    const skills: Skill[] = [];
    const invalid: InvalidSkillEntry[] = [];
    readings.forEach((reading, index) => {
      if (reading.kind === 'invalid') invalid.push({ index, uri: reading.uri, reason: reading.reason });
      // Two entries under one URI cannot be told apart: neither is used.
      else if ((count.get(reading.skill.uri) ?? 0) > 1)
        invalid.push({ index, uri: reading.skill.uri, reason: 'another entry has the same uri' });
      else skills.push(reading.skill);
    });
    return { skills, invalid };
  }

  /** One skill's entry by its SKILL.md URI (skills/get), checked like a listing entry. */
  async get(uri: string, options?: SkillCallOptions): Promise<Skill> {
    this.requireSupport('get a skill');
    const result = await this.context.request('skills/get', { uri }, this.call(options));
    const reading = readSkillEntry(result.skill);
    if (reading.kind === 'invalid')
      throw new LocalError('protocol-violation', `${this.serverName}: skills/get ${uri}: ${reading.reason}`);
    if (reading.skill.uri !== uri)
      throw new LocalError(
        'protocol-violation',
        `${this.serverName}: skills/get ${uri} answered with another skill (${reading.skill.uri})`,
      );
    if (this.cached)
      this.cached = {
        ...this.cached,
        skills: this.cached.skills.map((skill) => (skill.uri === uri ? reading.skill : skill)),
      };
    return reading.skill;
  }

  /**
   * Reads one file of `skill` (its SKILL.md by default) with resources/read and verifies it. A 2026-07-28 result may
   * come from the ttl cache: a cached copy that fails is read once more from the server before it is refused.
   */
  async readFile(skill: Skill, fileUri: string = skill.uri, options?: SkillCallOptions): Promise<Verification> {
    this.requireSupport('read skill files');
    // A file the skill does not list is refused before it is asked for: nothing could verify it.
    if (skill.resources !== DYNAMIC_RESOURCES && !fileEntry(skill, fileUri))
      return unlistedRefusal(this.serverName, skill, fileUri);
    const read = async (refresh: boolean) => {
      const result = await this.context.request(
        'resources/read',
        { uri: fileUri },
        { signal: options?.signal, refresh: refresh || options?.refresh },
      );
      return verifySkillFile(this.serverName, skill, fileUri, result);
    };
    const first = await read(false);
    if (first.kind === 'verified' || options?.refresh === true || this.context.session().kind !== 'modern')
      return first;
    return read(true);
  }

  /** Loads a skill: reads and verifies its SKILL.md; on a refusal the entry is refreshed with skills/get. */
  async load(skill: Skill, options?: SkillCallOptions): Promise<SkillLoad> {
    const verification = await this.readFile(skill, skill.uri, options);
    if (verification.kind === 'verified') return { kind: 'loaded', skill, verification };
    let refreshed: Extract<SkillLoad, { kind: 'refused' }>['refreshed'];
    try {
      refreshed = { kind: 'entry', skill: await this.get(skill.uri, { signal: options?.signal }) };
    } catch (error) {
      refreshed = { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
    }
    return { kind: 'refused', skill, refusal: verification, refreshed };
  }

  /** The direct children of a skill directory (every page). Sent only when the server declared directoryRead. */
  async readDirectory(uri: string, options?: SkillCallOptions): Promise<DirectoryChild[]> {
    this.requireSupport('read skill directories');
    if (!this.directoryRead)
      throw new LocalError(
        'capability-missing',
        `${this.serverName} does not declare directoryRead, so this client does not send resources/directory/read`,
      );
    const children: DirectoryChild[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await this.context.request(
        'resources/directory/read',
        cursor === undefined ? { uri } : { uri, cursor },
        this.call(options),
      );
      if (!Array.isArray(result.resources))
        throw new LocalError(
          'protocol-violation',
          `${this.serverName}: resources/directory/read ${uri} has no resources array`,
        );
      for (const child of result.resources)
        if (typeof child === 'object' && child !== null && typeof (child as DirectoryChild).uri === 'string')
          children.push(child as DirectoryChild);
      const next = result.nextCursor;
      if (typeof next !== 'string' || next === '') return children;
      if (cursors.has(next))
        throw new LocalError(
          'protocol-violation',
          `${this.serverName}: resources/directory/read returned the cursor "${next.slice(0, 80)}" twice`,
        );
      cursors.add(next);
      cursor = next;
    }
    throw new LocalError(
      'protocol-violation',
      `${this.serverName}: resources/directory/read returned more than ${MAX_PAGES} pages`,
    );
  }
}
