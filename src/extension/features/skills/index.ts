import { defineFeature } from '../../platform/feature';
import type { SkillsContext } from './skillCommands';
import { SkillDocuments } from './skillDocuments';
import { SkillsSection } from './skillsSection';

/** Skills a server offers: a section under the server, verified documents, Install into the workspace. */
export const skillsFeature = defineFeature({
  name: 'skills',
  activate({ services, own, extension }) {
    const section = new SkillsSection(extension.workspaceState);
    const documents = new SkillDocuments();
    own(section, documents);
    services.offer('skillsSection', section);
    const context: SkillsContext = { section, documents };
    // The commands' code (with the install plan) loads when one first runs, not with the extension.
    const commands = () => import('./skillCommands.js');
    return {
      commands: {
        'mcpWorkbench.openSkill': async (argument) => (await commands()).openSkill(context, argument),
        'mcpWorkbench.openSkillFile': async (argument) => (await commands()).openSkillFile(context, argument),
        'mcpWorkbench.installSkill': async (argument) => (await commands()).installSkillCommand(context, argument),
        'mcpWorkbench.refreshSkills': async (argument) => (await commands()).refreshSkills(context, argument),
      },
      exports: undefined,
    };
  },
});
