/**
 * The files the notice about VS Code's own MCP client names, by VS Code's version
 * (src/extension/features/servers/builtInMcpFiles.ts, vscode-free): every file that version reads, and only those.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  builtInMcpFiles,
  readByBuiltInMcp,
  type BuiltInMcpWindow,
} from '../../../../../src/extension/features/servers/builtInMcpFiles';

const labels = (window: BuiltInMcpWindow) => builtInMcpFiles(window).map((file) => file.label);

test('by version: .vscode/mcp.json and the user mcp.json always; .mcp.json from 1.139; .github/mcp.json from 1.140 with Copilot', () => {
  const cases: [string, boolean, string[]][] = [
    ['1.100.3', true, ['.vscode/mcp.json', 'User/mcp.json']],
    ['1.138.2', true, ['.vscode/mcp.json', 'User/mcp.json']],
    ['1.139.1', false, ['.vscode/mcp.json', 'User/mcp.json', '.mcp.json']],
    ['1.139.1', true, ['.vscode/mcp.json', 'User/mcp.json', '.mcp.json']],
    ['1.140.0', false, ['.vscode/mcp.json', 'User/mcp.json', '.mcp.json']],
    ['1.140.0', true, ['.vscode/mcp.json', 'User/mcp.json', '.mcp.json', '.github/mcp.json']],
    ['1.142.0-insider', true, ['.vscode/mcp.json', 'User/mcp.json', '.mcp.json', '.github/mcp.json']],
    ['2.0.0', true, ['.vscode/mcp.json', 'User/mcp.json', '.mcp.json', '.github/mcp.json']],
  ];
  for (const [version, copilotAgentHost, expected] of cases)
    assert.deepEqual(labels({ version, copilotAgentHost }), expected, `${version}, Copilot ${copilotAgentHost}`);
});

test('the open .code-workspace file is named by its name (VS Code reads its mcp section); none when no file is open', () => {
  const window = { version: '1.100.3', copilotAgentHost: false, workspaceFile: '/work/team/app.code-workspace' };
  assert.deepEqual(labels(window), ['.vscode/mcp.json', 'User/mcp.json', 'app.code-workspace']);
});

test('a server counts only when it comes from a file that version reads: not .cursor/mcp.json, not .mcp.json before 1.139', () => {
  const window = {
    version: '1.139.1',
    copilotAgentHost: true,
    workspaceFile: '/w/app.code-workspace',
    userFile: '/home/me/.config/Code/User/profiles/-5a1/mcp.json',
  };
  const files = builtInMcpFiles(window);
  const reads = (file: string) => readByBuiltInMcp(file, files, window);
  assert.equal(reads('/w/app/.vscode/mcp.json'), true);
  assert.equal(reads('C:\\w\\app\\.vscode\\mcp.json'), true);
  assert.equal(reads('/w/app/.mcp.json'), true);
  assert.equal(reads('/w/app.code-workspace'), true);
  assert.equal(reads('/home/me/.config/Code/User/profiles/-5a1/mcp.json'), true);
  assert.equal(reads('/home/me/.config/Code/User/mcp.json'), false, "another profile's file");
  assert.equal(reads('/w/app/.cursor/mcp.json'), false);
  assert.equal(reads('/w/app/.github/mcp.json'), false, '1.139 runs no Copilot agent host');
  assert.equal(reads('/home/me/.claude.json'), false);
  const old = { version: '1.100.3', copilotAgentHost: true };
  assert.equal(readByBuiltInMcp('/w/app/.mcp.json', builtInMcpFiles(old), old), false);
  const newer = { version: '1.140.0', copilotAgentHost: true };
  assert.equal(readByBuiltInMcp('/w/app/.github/mcp.json', builtInMcpFiles(newer), newer), true);
});
