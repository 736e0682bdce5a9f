import { addToMap, readMcpServers } from './jsonFamily';
import type { Dialect } from './types';
import { writeEntry } from './write';

/**
 * Cursor's `.cursor/mcp.json` (project) and `~/.cursor/mcp.json` (global): `mcpServers`, `type` optional (a `url`
 * means remote), `envFile`, `auth.CLIENT_ID`, VS Code-style `${env:…}`, `${workspaceFolder}`, `${userHome}`.
 */

export const cursor: Dialect = {
  id: 'cursor',
  label: 'Cursor (mcp.json)',
  client: 'Cursor',
  read: (text, origin) =>
    readMcpServers(
      {
        client: 'Cursor',
        rules: { dialect: 'vscode' },
        maps: () => [{ path: ['mcpServers'] }],
        types: ['stdio', 'sse', 'streamable-http', 'http'],
      },
      text,
      origin,
    ),
  write: (definition) =>
    writeEntry(
      {
        client: 'Cursor',
        localType: 'stdio',
        remoteType: 'streamable-http',
        sse: true,
        cwd: false,
        envFile: true,
        oauth: 'auth',
        variables: 'vscode-no-input',
      },
      definition,
    ),
  add: (text, name, entry) => addToMap(text, ['mcpServers'], name, entry),
};
