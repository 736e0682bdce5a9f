/**
 * `skills` and `skill <uri> [file]`: a server's skills (io.modelcontextprotocol/skills, SEP-2640) from the command
 * line. Listing reads no file. `skill` loads one skill: its SKILL.md is read, verified against the listed digest and
 * size and its frontmatter compared with the listing; only verified content is printed (exit 1 on a refusal).
 */
import { LocalError } from '../protocol/errors';
import type { McpClient } from '../protocol/client';
import { skillRoot, SKILLS_API, type Skill, type SkillsApi, type Verification } from '../protocol/extensions/skills';
import { UsageError, type ParsedArgs } from './args';
import type { CommandOutcome } from './main';

function skillsOf(client: McpClient): SkillsApi {
  const skills = client.extension(SKILLS_API);
  if (!skills || !skills.supported)
    throw new LocalError(
      'capability-missing',
      `${client.serverName} does not offer the io.modelcontextprotocol/skills extension, so this client cannot list skills`,
    );
  return skills;
}

/** The listed entry of `uri`, else the server's own answer to skills/get (a skill need not be listed). */
async function entryOf(skills: SkillsApi, uri: string): Promise<Skill> {
  const listed = (await skills.list()).skills.find((skill) => skill.uri === uri);
  return listed ?? skills.get(uri);
}

/** A file of the skill named by its URI or by its path below the skill's directory (`references/FORMS.md`). */
function fileUriOf(skill: Skill, file: string): string {
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(file)) return file;
  return `${skillRoot(skill.uri)}/${file.replace(/^\/+/, '')}`;
}

function refusalOutcome(
  client: McpClient,
  refused: Extract<Verification, { kind: 'refused' }>,
  refreshed?: unknown,
): CommandOutcome {
  return {
    output: {
      server: client.serverName,
      refused: { uri: refused.uri, reason: refused.reason, message: refused.message, differences: refused.differences },
      ...(refreshed ? { refreshed } : {}),
    },
    failure: { kind: 'verification-failed', message: refused.message },
  };
}

export const SKILL_RUNNERS = {
  skills: async (client: McpClient): Promise<CommandOutcome> => {
    const listing = await skillsOf(client).list();
    return {
      output: {
        server: client.serverName,
        skills: listing.skills.map((skill) => ({
          uri: skill.uri,
          name: skill.frontmatter.name,
          description: skill.frontmatter.description,
          frontmatter: skill.frontmatter,
          files:
            skill.resources === 'dynamic'
              ? 'dynamic'
              : skill.resources.map((file) => ({ uri: file.uri, size: file.size, digest: file.digest })),
        })),
        ...(listing.invalid.length > 0 ? { refusedEntries: listing.invalid } : {}),
      },
    };
  },
  skill: async (client: McpClient, args: ParsedArgs): Promise<CommandOutcome> => {
    const [uri, file] = args.positionals;
    if (!uri) throw new UsageError("skill needs the URI of a skill's SKILL.md (see `skills`)");
    const skills = skillsOf(client);
    const skill = await entryOf(skills, uri);
    const load = await skills.load(skill);
    if (load.kind === 'refused')
      return refusalOutcome(
        client,
        load.refusal,
        load.refreshed.kind === 'entry' ? { entry: load.refreshed.skill } : { failed: load.refreshed.message },
      );
    if (file === undefined) {
      const { frontmatter, body, text, verified } = load.verification.file;
      return { output: { server: client.serverName, uri, verified, frontmatter, body, text } };
    }
    const read = await skills.readFile(skill, fileUriOf(skill, file));
    if (read.kind === 'refused') return refusalOutcome(client, read);
    const { uri: fileUri, mimeType, text, bytes, verified } = read.file;
    return {
      output: {
        server: client.serverName,
        skill: uri,
        uri: fileUri,
        verified,
        mimeType,
        size: bytes.byteLength,
        ...(text !== undefined ? { text } : { blob: Buffer.from(bytes).toString('base64') }),
      },
    };
  },
};

export const SKILLS_USAGE = `  skills                               list the server's skills (io.modelcontextprotocol/skills): name,
                                       description, frontmatter, files with size and digest; reads no file
  skill <uri> [file]                   load a skill: its SKILL.md (or one of its files, by URI or path) verified
                                       against the listed size and sha256 digest and, for SKILL.md, the listed
                                       frontmatter; exit 1 and nothing printed of the content on a mismatch`;
