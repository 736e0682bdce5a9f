import { defineFeature } from '../../platform/feature';
import { installSkillCommand, openSkill, openSkillFile, refreshSkills, type SkillsContext } from './skillCommands';
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
    return {
      commands: {
        'mcpWorkbench.openSkill': (argument) => openSkill(context, argument),
        'mcpWorkbench.openSkillFile': (argument) => openSkillFile(context, argument),
        'mcpWorkbench.installSkill': (argument) => installSkillCommand(context, argument),
        'mcpWorkbench.refreshSkills': (argument) => refreshSkills(context, argument),
      },
      exports: undefined,
    };
  },
});
