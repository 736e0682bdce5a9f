export { skillsExtension, enableSkills } from './skillsExtension';
export { SkillsApi, type SkillListing, type SkillLoad, type InvalidSkillEntry, type SkillCallOptions } from './skillsApi';
export { SKILLS_EXTENSION_ID, SKILL_FILE_NAME, SKILL_LIMITS, DYNAMIC_RESOURCES, type Skill, type SkillFileEntry, type DirectoryChild } from './skillTypes';
export { readSkillEntry, relativeSegments, skillRoot, fileEntry } from './skillEntry';
export { verifySkillFile, sha256Digest, frontmatterDifferences, type Verification, type VerifiedFile, type RefusalReason } from './verification';
export { parseSkillMarkdown, FrontmatterError } from './frontmatter';
