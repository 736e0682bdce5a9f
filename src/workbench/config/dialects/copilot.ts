import { addToMap, readMcpServers, type McpServersSpec } from './jsonFamily';
import type { Dialect } from './types';
import { writeEntry, type WriteCapabilities } from './write';

/**
 * GitHub Copilot's format: `~/.copilot/mcp-config.json` (the CLI, and VS Code 1.140's "Copilot Global") and a
 * repository's `.github/mcp.json` (the agent host). `type` local/stdio/http/sse, `tools` (an allow-list, kept on the server:
 * the extension offers only those tools, as Copilot does), `oauthClientId`, `$VAR`/`${VAR}`.
 */

const spec = (client: string): McpServersSpec => ({
  client,
  rules: { dialect: 'shell' },
  maps: () => [{ path: ['mcpServers'] }],
  types: ['local', 'stdio', 'http', 'sse'],
  toolsAllowList: true,
});

const writes = (client: string): WriteCapabilities => ({
  client,
  localType: 'local',
  remoteType: 'http',
  sse: true,
  cwd: true,
  envFile: false,
  oauth: 'oauthClientId',
  variables: 'shell-braced',
  // Copilot offers no tool of a server whose entry has no `tools`.
  extra: { tools: ['*'] },
});

export const copilot: Dialect = {
  id: 'copilot',
  label: 'Copilot (~/.copilot/mcp-config.json)',
  client: 'Copilot',
  read: (text, origin) => readMcpServers(spec('Copilot'), text, origin),
  write: (definition) => writeEntry(writes('Copilot'), definition),
  add: (text, name, entry) => addToMap(text, ['mcpServers'], name, entry),
};

export const github: Dialect = {
  id: 'github',
  label: '.github/mcp.json',
  client: '.github/mcp.json (Copilot)',
  read: (text, origin) => readMcpServers(spec('.github/mcp.json (Copilot)'), text, origin),
  write: (definition) => writeEntry(writes('.github/mcp.json (Copilot)'), definition),
  add: (text, name, entry) => addToMap(text, ['mcpServers'], name, entry),
};
