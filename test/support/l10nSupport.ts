/**
 * The zh-CN bundle as the extension host reads it, for tests of the words a person sees (test/unit/project/l10n.test.ts
 * checks its keys; coreErrorWording.test.ts its sentences).
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './paths';

const root = repoRoot;

export function readBundle(file = 'l10n/bundle.l10n.zh-cn.json'): Record<string, string> {
  return JSON.parse(readFileSync(path.join(root, file), 'utf8')) as Record<string, string>;
}

/**
 * `vscode.l10n.t(message, ...args)`'s formatting, as the extension host does it (code-server 4.100.3,
 * extHostLocalizationService: `message.replace(/{([^}]+)}/g, (match, key) => args[key] ?? match)`): one pass, so an
 * argument's own `{1}` is never expanded, and a `{` left open before a placeholder (`${input:{0}}`) swallows it.
 */
export function formatLikeVsCode(message: string, args: readonly string[]): string {
  const values: Record<string, string | undefined> = Object.fromEntries(args.map((arg, index) => [String(index), arg]));
  return args.length === 0 ? message : message.replace(/{([^}]+)}/g, (match, key: string) => values[key] ?? match);
}

/** `vscode.l10n.t` in zh-CN; throws for a message the bundle lacks (the host would fall back to English). */
export function zhCnTranslate(
  bundle: Record<string, string> = readBundle(),
): (message: string, ...args: string[]) => string {
  return (message, ...args) => {
    const chinese = bundle[message];
    if (chinese === undefined) throw new Error(`not in the zh-cn bundle: ${message}`);
    return formatLikeVsCode(chinese, args);
  };
}
