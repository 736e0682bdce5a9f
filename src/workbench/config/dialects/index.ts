import { parse as parseJsonc } from 'jsonc-parser';
import { isObject } from '../../../protocol/guards';
import { claudeCode } from './claudeCode';
import { claudeDesktop } from './claudeDesktop';
import { codex } from './codex';
import { copilot, github } from './copilot';
import { cursor } from './cursor';
import { dotMcp } from './dotMcp';
import { standard } from './standard';
import type { Dialect, DialectId } from './types';
import { codeWorkspace, devcontainer, vscodeUser, vscodeWorkspace } from './vscode';

export * from './types';
export { dedupeServers, launchKey, type SourcedServer, type MergedServer } from './dedupe';

export const DIALECTS: Readonly<Record<DialectId, Dialect>> = {
  'vscode-workspace': vscodeWorkspace,
  'dot-mcp': dotMcp,
  github,
  'vscode-user': vscodeUser,
  'code-workspace': codeWorkspace,
  copilot,
  cursor,
  'claude-code': claudeCode,
  'claude-desktop': claudeDesktop,
  codex,
  devcontainer,
  standard,
};

/**
 * Which dialect a file is in, from its name and folder, then (for an `mcp.json` or a JSON file elsewhere) its shape:
 * `servers` is VS Code's format, `mcpServers` with a `type` on every entry the draft standard, other `mcpServers` files
 * Cursor's (the widest common reading: VS Code-style variables, a `url` means remote).
 */
export function dialectForFile(filePath: string, text?: string): Dialect {
  const normalized = filePath.replace(/\\/g, '/');
  const name = normalized.slice(normalized.lastIndexOf('/') + 1).toLowerCase();
  const parent = normalized.split('/').slice(-2, -1)[0]?.toLowerCase();
  if (name === 'mcp.json' && parent === '.vscode') return vscodeWorkspace;
  if (name === 'mcp.json' && parent === '.cursor') return cursor;
  if (name === 'mcp.json' && parent === '.github') return github;
  if (name === 'mcp-config.json' && parent === '.copilot') return copilot;
  if (name === '.mcp.json') return dotMcp;
  if (name === '.claude.json') return claudeCode;
  if (name === 'claude_desktop_config.json') return claudeDesktop;
  if (name.endsWith('.toml')) return codex;
  if (name.endsWith('.code-workspace')) return codeWorkspace;
  if (name === 'devcontainer.json' || name === '.devcontainer.json') return devcontainer;
  const root: unknown = text === undefined ? undefined : parseJsonc(text, [], { allowTrailingComma: true });
  if (isObject(root) && isObject(root.mcpServers)) {
    const entries = Object.values(root.mcpServers);
    return entries.length > 0 && entries.every((entry) => isObject(entry) && typeof entry.type === 'string')
      ? standard
      : cursor;
  }
  return name === 'mcp.json' && parent === 'user' ? vscodeUser : vscodeWorkspace;
}
