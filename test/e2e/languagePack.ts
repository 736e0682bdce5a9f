/**
 * A display language for code-server without the marketplace: package a language-pack extension from a folder with
 * the repository's vsce, and register the packs installed in an extensions folder in `<user-data-dir>/languagepacks.json`.
 *
 * Why the registration: code-server 4.100.3 resolves `--locale` through that file only (lib/vscode/out/server-main.js:
 * the NLS configuration reads `<userDataPath>/languagepacks.json`, picks the entry for the locale or its prefix, and
 * falls back to English when the entry or its `translations.vscode` file is missing). The file is written by VS Code's
 * language-pack cache when the server's extension service installs a pack; `--install-extension` from the CLI does not
 * write it, so a window started after such an install stays English. We write it in the same shape that cache does.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './harness';

const execFileAsync = promisify(execFile);

/** Packages the extension folder `sourceDir` into a VSIX in a temp folder of its own and returns the VSIX's path. */
export async function packageLanguagePack(sourceDir: string): Promise<string> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-e2e-language-pack-'));
  fs.cpSync(sourceDir, path.join(work, 'pack'), { recursive: true });
  const vsix = path.join(work, 'language-pack.vsix');
  const vsce = path.join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  await execFileAsync(
    process.execPath,
    [vsce, 'package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '--out', vsix],
    {
      cwd: path.join(work, 'pack'),
      timeout: 60_000,
    },
  );
  if (!fs.existsSync(vsix)) throw new Error(`e2e: vsce did not write ${vsix}`);
  return vsix;
}

interface Localization {
  languageId: string;
  languageName?: string;
  localizedLanguageName?: string;
  translations: { id: string; path: string }[];
}

interface LanguagePackEntry {
  hash: string;
  extensions: { extensionIdentifier: { id: string }; version: string }[];
  translations: Record<string, string>;
  label: string | undefined;
}

/**
 * Writes `<userDataDir>/languagepacks.json` for every installed extension of `extensionsDir` that contributes
 * localizations, as VS Code's LanguagePacksCache does: one entry per language id, the translation files by absolute
 * path, and the hash of the contributing extensions' ids and versions (it names the folder of generated messages).
 * Returns the language ids registered.
 */
export function registerLanguagePacks(extensionsDir: string, userDataDir: string): string[] {
  const packs: Record<string, LanguagePackEntry> = {};
  for (const folder of fs.readdirSync(extensionsDir, { withFileTypes: true })) {
    const manifestFile = path.join(extensionsDir, folder.name, 'package.json');
    if (!folder.isDirectory() || !fs.existsSync(manifestFile)) continue;
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as {
      publisher: string;
      name: string;
      version: string;
      contributes?: { localizations?: Localization[] };
    };
    for (const localization of manifest.contributes?.localizations ?? []) {
      const entry = (packs[localization.languageId] ??= {
        hash: '',
        extensions: [],
        translations: {},
        label: localization.localizedLanguageName ?? localization.languageName,
      });
      entry.extensions.push({
        extensionIdentifier: { id: `${manifest.publisher}.${manifest.name}` },
        version: manifest.version,
      });
      for (const translation of localization.translations)
        entry.translations[translation.id] = path.join(extensionsDir, folder.name, translation.path);
    }
  }
  for (const entry of Object.values(packs)) {
    const hash = createHash('md5');
    for (const extension of entry.extensions) hash.update(extension.extensionIdentifier.id).update(extension.version);
    entry.hash = hash.digest('hex');
  }
  fs.mkdirSync(userDataDir, { recursive: true });
  fs.writeFileSync(path.join(userDataDir, 'languagepacks.json'), JSON.stringify(packs));
  return Object.keys(packs);
}
