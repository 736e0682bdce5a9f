/**
 * The skills scenarios of the conformance suite (sep-2640-client-*), driven as a host uses skills: list them, and load
 * one only when asked (the suite's "a skill is loaded" moment). The suite grades the wire: no file read on listing,
 * a tampered SKILL.md (digest, size, frontmatter) read and then refused, so its supporting files are never read.
 */
import type { McpClient } from '../protocol/client';
import { enableSkills, SKILLS_API, type SkillsApi } from '../protocol/extensions/skills';
import type { ScenarioDriver } from './conformance';

function skillsOf(client: McpClient): SkillsApi {
  const skills = client.extension(SKILLS_API);
  if (!skills) throw new Error('the skills extension was not enabled for this scenario');
  if (!skills.supported)
    throw new Error(`${client.serverName} does not declare the io.modelcontextprotocol/skills extension`);
  return skills;
}

/** Lists the skills and reads nothing: what a host does on connect and on showing the listing. */
const listSkillsOnly: ScenarioDriver = {
  extensions: () => [enableSkills()],
  run: async (client, log) => {
    const listing = await skillsOf(client).list();
    log(
      `skills/list -> ${listing.skills.map((skill) => skill.uri).join(', ') || '(none)'}${listing.invalid.length > 0 ? `; refused entries: ${listing.invalid.map((entry) => `${entry.uri ?? `#${entry.index}`} (${entry.reason})`).join(', ')}` : ''}`,
    );
  },
};

/**
 * Loads every listed skill: SKILL.md verified first, then, only for a verified skill, its other files (each verified
 * too). A refusal is the right answer to a tampered skill, so it is logged, not failed: the suite checks that nothing
 * of the refused skill was read after it.
 */
const loadSkills: ScenarioDriver = {
  extensions: () => [enableSkills()],
  run: async (client, log) => {
    const skills = skillsOf(client);
    const listing = await skills.list();
    log(`skills/list -> ${listing.skills.map((skill) => skill.uri).join(', ') || '(none)'}`);
    for (const skill of listing.skills) {
      const load = await skills.load(skill);
      if (load.kind === 'refused') {
        log(
          `refused: ${load.refusal.message}${load.refreshed.kind === 'entry' ? ' (entry refreshed with skills/get)' : `; skills/get failed: ${load.refreshed.message}`}`,
        );
        continue;
      }
      log(`loaded ${skill.uri} (verified)`);
      if (skill.resources === 'dynamic') continue;
      for (const file of skill.resources) {
        if (file.uri === skill.uri) continue;
        const read = await skills.readFile(skill, file.uri);
        log(read.kind === 'verified' ? `read ${file.uri} (verified)` : `refused: ${read.message}`);
      }
    }
  },
};

export const SKILL_SCENARIOS: Readonly<Record<string, ScenarioDriver>> = {
  'sep-2640-client-no-prefetch': listSkillsOnly,
  'sep-2640-client-verify-digest': loadSkills,
  'sep-2640-client-verify-size': loadSkills,
  'sep-2640-client-verify-frontmatter': loadSkills,
};
