import * as vscode from 'vscode';
import { announceConfigWritten } from '../../platform/config/configLoader';

const TEMPLATE = `{
  // MCP servers for this workspace. Each entry is started from the MCP view.
  "servers": {
    "everything": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-everything"]
    }
  }
}
`;

/** Opens the first workspace folder's .vscode/mcp.json, creating it with an example entry when it is missing. */
export async function openWorkspaceConfig(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Open a folder first: MCP servers are configured in its .vscode/mcp.json.'),
    );
    return;
  }
  const uri = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
  try {
    await vscode.workspace.fs.stat(uri);
  } catch {
    // Missing: create it with an example rather than an empty file, so the shape is obvious.
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(TEMPLATE));
    announceConfigWritten(uri);
  }
  await vscode.window.showTextDocument(uri);
}
