import { enableExtension, type EnabledExtension, type ExtensionDefinition } from '../protocolExtension';
import { SkillsApi } from './skillsApi';
import { SKILLS_EXTENSION_ID } from './skillTypes';

/**
 * io.modelcontextprotocol/skills (SEP-2640) on the extension seam: declared as `{}` (supported, no settings), adds
 * skills/list, skills/get and resources/directory/read, and hands hosts a SkillsApi. Nothing is fetched until the host
 * asks: not on connect, not on listing (a listing reads no file), not on approval.
 */
export const skillsExtension: ExtensionDefinition<void, SkillsApi> = {
  id: SKILLS_EXTENSION_ID,
  settings: () => ({}),
  methods: ['skills/list', 'skills/get', 'resources/directory/read'],
  activate: (context) => new SkillsApi(context),
};

/** The skills extension, enabled (for McpClientOptions.extensions). */
export function enableSkills(): EnabledExtension {
  return enableExtension(skillsExtension, undefined);
}
