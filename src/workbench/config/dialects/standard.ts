import { addToMap, readMcpServers } from './jsonFamily';
import type { Dialect } from './types';
import { writeEntry } from './write';

/**
 * The draft standard client `mcp.json` (SEP "Standard client mcp.json", 2026-04-21): `mcpServers`, a required `type`
 * (`stdio`, `sse`, `streamable-http`), `${env:…}`/`${input:…}`/`${value:…}` with `|` fallbacks.
 */

export const standard: Dialect = {
  id: 'standard',
  label: 'mcp.json (draft standard)',
  client: 'the draft standard mcp.json',
  read: (text, origin) =>
    readMcpServers(
      {
        client: 'the draft standard mcp.json',
        rules: { dialect: 'standard' },
        maps: () => [{ path: ['mcpServers'] }],
        types: ['stdio', 'sse', 'streamable-http'],
        typeRequired: true,
      },
      text,
      origin,
    ),
  write: (definition) =>
    writeEntry(
      {
        client: 'the draft standard mcp.json',
        localType: 'stdio',
        remoteType: 'streamable-http',
        sse: true,
        cwd: false,
        envFile: false,
        variables: 'vscode',
      },
      definition,
    ),
  add: (text, name, entry) => addToMap(text, ['mcpServers'], name, entry),
};
