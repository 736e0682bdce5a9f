import { MCPTEST_SUFFIX, type RecordedStep } from './format';

/** The folder of the workspace Save as Test proposes, and Test Explorer finds files in (it finds them anywhere). */
const TESTS_FOLDER = 'tests';
const MAX_NAME_PART = 60;

/**
 * The file Save as Test proposes, relative to the workspace folder: `tests/<server>-<tool>.mcptest.json` (the first
 * step's tool or prompt; `resource` for a read), with `-2`, `-3`… when that name is taken, so a save never replaces a
 * file without the person choosing it. Tool and prompt names come from the server: only letters, digits, `.`, `_`
 * and `-` are kept, so a name cannot climb out of the folder (`../`) or hide characters in the file name.
 */
export async function proposedTestPath(
  serverName: string,
  steps: readonly RecordedStep[],
  taken: (relativePath: string) => Promise<boolean>,
): Promise<string> {
  const first = steps[0]?.request;
  const subject =
    first && typeof first.params.name === 'string'
      ? first.params.name
      : first?.method === 'resources/read'
        ? 'resource'
        : '';
  const stem = [safeNamePart(serverName), safeNamePart(subject)].filter(Boolean).join('-') || 'session';
  for (let index = 1; ; index++) {
    const candidate = `${TESTS_FOLDER}/${stem}${index === 1 ? '' : `-${index}`}${MCPTEST_SUFFIX}`;
    if (!(await taken(candidate))) return candidate;
  }
}

function safeNamePart(text: string): string {
  return text
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '')
    .slice(0, MAX_NAME_PART)
    .replace(/[.-]+$/, '');
}

/**
 * A path chosen in the save dialog, named so Test Explorer finds it. VS Code's own save dialog (the simple file
 * dialog of code-server and remote windows) compares only the last extension with the filter's: a filter of
 * `mcptest.json` made it append `.mcptest.json` to `x.mcptest.json`, so the dialog filters on `json` and this adds
 * what is missing: `x` and `x.json` become `x.mcptest.json`.
 */
export function withTestSuffix(filePath: string): string {
  if (filePath.endsWith(MCPTEST_SUFFIX)) return filePath;
  return `${filePath.endsWith('.json') ? filePath.slice(0, -'.json'.length) : filePath}${MCPTEST_SUFFIX}`;
}
