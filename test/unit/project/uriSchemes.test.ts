/**
 * The URI schemes the extension serves documents under (content providers, file systems) are its own: a scheme VS Code
 * itself registers wins over an extension's content provider, and VS Code then opens our documents through its own
 * provider. VS Code 1.139's MCP client claims `mcp-resource` for its resource file system: a resource opened from the
 * Servers view under that scheme failed there with "Unable to resolve nonexistent file". The schemes are read from the
 * source (the modules import vscode).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { repoRoot } from '../../support/paths';

/** Schemes VS Code's workbench registers itself (1.100 to 1.139), which an extension's documents must not use. */
const VSCODE_SCHEMES = new Set([
  'mcp-resource',
  'file',
  'untitled',
  'output',
  'vscode',
  'vscode-userdata',
  'vscode-remote',
  'vscode-notebook-cell',
  'vscode-settings',
  'vscode-chat-editor',
  'walkThrough',
  'walkThroughSnippet',
  'git',
  'chat-editing-text-model',
  'chat-editing-snapshot-text-model',
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/** Every scheme the extension registers a provider for: `register…Provider(X_SCHEME, …)` with X_SCHEME's literal. */
function registeredSchemes(): { scheme: string; file: string }[] {
  const found: { scheme: string; file: string }[] = [];
  for (const file of sourceFiles(path.join(repoRoot, 'src', 'extension'))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/register(?:TextDocumentContent|FileSystem)Provider\(\s*([A-Za-z_.'"-]+)/g)) {
      const argument = match[1];
      const literal = /^['"](.+)['"]$/.exec(argument)?.[1];
      const constant = new RegExp(`const ${argument.replace(/\W/g, '')}\\s*=\\s*['"]([^'"]+)['"]`).exec(text)?.[1];
      const scheme = literal ?? constant;
      assert.ok(scheme, `${path.relative(repoRoot, file)}: cannot read the scheme of ${match[0]}`);
      found.push({ scheme, file: path.relative(repoRoot, file) });
    }
  }
  return found;
}

test('the document schemes the extension registers are none of VS Code’s own, and each is registered once', () => {
  const schemes = registeredSchemes();
  assert.ok(schemes.length >= 3, `expected the resource, result and skill schemes: ${JSON.stringify(schemes)}`);
  for (const { scheme, file } of schemes)
    assert.ok(!VSCODE_SCHEMES.has(scheme), `${file} registers "${scheme}", a scheme VS Code registers itself`);
  const names = schemes.map(({ scheme }) => scheme);
  assert.deepEqual([...new Set(names)], names, 'a scheme registered twice');
});
