/**
 * Which config files VS Code's own MCP client reads, by VS Code's version (vscode-free, so a unit test covers every
 * version). The notice about the two clients names these and only these: naming a file VS Code does not read sends a
 * person looking for a conflict that is not there, and leaving one out hides one that is.
 *
 * Facts (../shared/reference/field-2026-12.md §1, and VS Code 1.139.1's own workbench code):
 * - every version with MCP (1.99+): `.vscode/mcp.json`, the user `mcp.json` of the profile, and the open
 *   `.code-workspace` file's `mcp` section;
 * - the workspace-root `.mcp.json`: read by 1.139.1 (its workbench adds a `workspaceRoot` source for each folder's
 *   `.mcp.json`; 1.140 then made it Add Server's target). 1.139 is the first version this was checked in, so from
 *   there;
 * - `.github/mcp.json`: read only by Copilot's agent host harness (microsoft/vscode#332782), which VS Code runs from
 *   1.140 with the Copilot Chat extension; VS Code's local harness never reads it.
 */

export type BuiltInMcpFileKind = 'vscode-workspace' | 'vscode-user' | 'code-workspace' | 'dot-mcp' | 'github';

export interface BuiltInMcpFile {
  kind: BuiltInMcpFileKind;
  /** The file's name as a person finds it in the folder: ".vscode/mcp.json", "project.code-workspace". */
  label: string;
}

export interface BuiltInMcpWindow {
  /** `vscode.version`: "1.139.1", "1.140.0-insider". */
  version: string;
  /** The open `.code-workspace` file, if any. */
  workspaceFile?: string;
  /** The active profile's user `mcp.json`. */
  userFile?: string;
  /** Whether Copilot's agent host can run in this window (the Copilot Chat extension is installed). */
  copilotAgentHost: boolean;
}

const DOT_MCP_SINCE: readonly [number, number] = [1, 139];
const COPILOT_AGENT_HOST_SINCE: readonly [number, number] = [1, 140];

export function builtInMcpFiles(window: BuiltInMcpWindow): BuiltInMcpFile[] {
  const files: BuiltInMcpFile[] = [
    { kind: 'vscode-workspace', label: '.vscode/mcp.json' },
    { kind: 'vscode-user', label: 'User/mcp.json' },
  ];
  if (window.workspaceFile) files.push({ kind: 'code-workspace', label: baseName(window.workspaceFile) });
  if (atLeast(window.version, DOT_MCP_SINCE)) files.push({ kind: 'dot-mcp', label: '.mcp.json' });
  if (window.copilotAgentHost && atLeast(window.version, COPILOT_AGENT_HOST_SINCE))
    files.push({ kind: 'github', label: '.github/mcp.json' });
  return files;
}

/** Whether VS Code's own client reads the file a server comes from (one of `files`). */
export function readByBuiltInMcp(
  filePath: string,
  files: readonly BuiltInMcpFile[],
  window: BuiltInMcpWindow,
): boolean {
  const file = filePath.replace(/\\/g, '/');
  const same = (other: string | undefined) => other !== undefined && other.replace(/\\/g, '/') === file;
  return files.some((known) => {
    switch (known.kind) {
      case 'vscode-workspace':
        return file.endsWith('/.vscode/mcp.json');
      case 'vscode-user':
        return same(window.userFile);
      case 'code-workspace':
        return same(window.workspaceFile);
      case 'dot-mcp':
        return baseName(file) === '.mcp.json';
      case 'github':
        return file.endsWith('/.github/mcp.json');
      default: {
        const unknown: never = known.kind;
        throw new Error(`unknown file kind ${String(unknown)}`);
      }
    }
  });
}

/** major.minor at least `since`; a version that does not parse counts as the newest (VS Code names itself). */
function atLeast(version: string, since: readonly [number, number]): boolean {
  const match = /^(\d+)\.(\d+)/.exec(version);
  if (!match) return true;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > since[0] || (major === since[0] && minor >= since[1]);
}

function baseName(file: string): string {
  return file.replace(/\\/g, '/').split('/').pop() ?? file;
}
