export { skillsExtension, enableSkills } from './skillsExtension';
export { SkillsApi } from './skillsApi';
export { DYNAMIC_RESOURCES, SKILLS_API, type Skill, type SkillFileEntry } from './skillTypes';
export { relativeSegments, skillRoot } from './skillEntry';
export { frontmatterDifferences, type Verification } from './verification';
export { parseSkillMarkdown, FrontmatterError } from './frontmatter';
