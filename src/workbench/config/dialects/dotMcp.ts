import { addToMap, readMcpServers, type McpServersSpec } from './jsonFamily';
import type { Dialect } from './types';
import { writeEntry } from './write';

/**
 * A workspace-root `.mcp.json`, shared by VS Code (1.140 writes new servers there), Claude Code and Copilot:
 * `{mcpServers}` or a bare map. VS Code reads only `type`, `command`, `args`, `env` (`url`, `headers` remotely) and
 * refuses `inputs` and `${…}`; Claude Code expands `${VAR}` and `${VAR:-default}`. Read as Claude Code reads it, with a
 * note where VS Code would differ; written only with what both accept.
 */

const SPEC: McpServersSpec = {
  client: '.mcp.json',
  rules: { dialect: 'shell-braced' },
  maps: () => [{ path: ['mcpServers'] }],
  bareMap: true,
  types: ['stdio', 'local', 'http', 'sse', 'streamable-http'],
  fields: {
    local: ['type', 'command', 'args', 'env'],
    remote: ['type', 'url', 'headers', 'transport'],
    why: '.mcp.json holds only type, command, args and env (url and headers for a remote server); use .vscode/mcp.json for more',
  },
  extraNotes: (raw) =>
    JSON.stringify(raw).includes('${')
      ? [
          'VS Code refuses ${…} in .mcp.json; read here as Claude Code does (${VAR}, ${VAR:-default} from the environment)',
        ]
      : [],
};

export const dotMcp: Dialect = {
  id: 'dot-mcp',
  label: '.mcp.json',
  client: '.mcp.json',
  read: (text, origin) => readMcpServers(SPEC, text, origin),
  write: (definition) =>
    writeEntry(
      {
        client: '.mcp.json',
        localType: 'stdio',
        remoteType: 'http',
        sse: true,
        cwd: false,
        envFile: false,
        variables: 'none',
      },
      definition,
    ),
  add: (text, name, entry) => addToMap(text, ['mcpServers'], name, entry, true),
};
