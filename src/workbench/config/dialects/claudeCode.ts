import { isObject } from '../../../protocol/guards';
import { addToMap, readMcpServers } from './jsonFamily';
import type { Dialect, ReadOrigin } from './types';
import { writeEntry } from './write';

/**
 * Claude Code's `~/.claude.json`: user servers under `mcpServers`, and each folder's own (the "local" scope) under
 * `projects[<absolute folder path>].mcpServers`, which win over a user server of the same name. `${VAR}` and
 * `${VAR:-default}` come from the environment. The file also holds Claude Code's history and state, so it may be
 * large: it gets a higher size cap (see MAX_CLAUDE_JSON_BYTES), and an edit touches only the one entry.
 */

export const MAX_CLAUDE_JSON_BYTES = 16 * 1024 * 1024;

function projectKey(root: Record<string, unknown>, origin: ReadOrigin): string | undefined {
  const folder = origin.workspaceFolder;
  if (folder === undefined || !isObject(root.projects)) return undefined;
  const trimmed = folder.replace(/[\\/]+$/, '');
  return [folder, trimmed].find((key) => Object.hasOwn(root.projects as object, key));
}

export const claudeCode: Dialect = {
  id: 'claude-code',
  label: 'Claude Code (~/.claude.json)',
  client: 'Claude Code',
  read: (text, origin) =>
    readMcpServers(
      {
        client: 'Claude Code',
        rules: { dialect: 'shell-braced' },
        maps: (root) => {
          const project = projectKey(root, origin);
          return [
            { path: ['mcpServers'] },
            ...(project === undefined ? [] : [{ path: ['projects', project, 'mcpServers'], shadows: true }]),
          ];
        },
        types: ['stdio', 'http', 'sse'],
        maxBytes: MAX_CLAUDE_JSON_BYTES,
      },
      text,
      origin,
    ),
  write: (definition) =>
    writeEntry(
      {
        client: 'Claude Code',
        localType: 'stdio',
        remoteType: 'http',
        sse: true,
        cwd: false,
        envFile: false,
        variables: 'shell-braced',
      },
      definition,
    ),
  add: (text, name, entry, origin) =>
    addToMap(
      text,
      origin.workspaceFolder === undefined ? ['mcpServers'] : ['projects', origin.workspaceFolder, 'mcpServers'],
      name,
      entry,
    ),
};
