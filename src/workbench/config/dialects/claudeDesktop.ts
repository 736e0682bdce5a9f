import { addToMap, readMcpServers } from './jsonFamily';
import type { Dialect } from './types';
import { writeEntry } from './write';

/**
 * Claude Desktop's `claude_desktop_config.json`: local servers only (`command`, `args`, `env`), no variables, no
 * `cwd`; remote entries are Connectors there, so a `url` entry is read with a note, and never written.
 */

export const claudeDesktop: Dialect = {
  id: 'claude-desktop',
  label: 'Claude Desktop (claude_desktop_config.json)',
  client: 'Claude Desktop',
  read: (text, origin) =>
    readMcpServers(
      {
        client: 'Claude Desktop',
        rules: { dialect: 'literal', ignoresRemote: true },
        maps: () => [{ path: ['mcpServers'] }],
        types: ['stdio', 'http', 'sse', 'streamable-http'],
      },
      text,
      origin,
    ),
  write: (definition) =>
    writeEntry({ client: 'Claude Desktop', sse: false, cwd: false, envFile: false, variables: 'none' }, definition),
  add: (text, name, entry) => addToMap(text, ['mcpServers'], name, entry),
};
