import * as path from 'node:path';
import * as vscode from 'vscode';
import { McpClient } from '../../../protocol/client';
import { StdioTransport } from '../../../protocol/node/stdio';
import { MASK } from '../../../workbench/secrets';
import type { RecordedServer } from '../../../workbench/recordings/format';
import type { ServerManager } from '../../platform/servers/serverManager';
import { ServerState } from '../../platform/servers/serverState';
import { startWithFeedback } from '../../platform/servers/startServer';

/** A connection a test run replays on, and how to let go of it afterwards. */
interface RecordedServerSession {
  client: McpClient;
  secrets: readonly string[];
  dispose(): Promise<void>;
}

/**
 * The server a recording names, in VS Code: the configured server of that name (started if it is not running, with
 * the confirmations, inputs and sign-in of any start), so the test runs against what the workspace defines. A
 * stdio recording with no such server is started from the file itself, only in a trusted workspace (the file may
 * come with a cloned repository, and its command is as powerful as any in mcp.json).
 */
export async function openRecordedServer(
  manager: ServerManager,
  server: RecordedServer,
  folder: string,
): Promise<RecordedServerSession> {
  const name = server.kind === 'config' ? server.server : server.name;
  const controller = name === undefined ? undefined : manager.byName(name)[0];
  if (controller) {
    if (!ServerState.isRunning(controller.state) && !(await startWithFeedback(controller)))
      throw new Error(vscode.l10n.t('MCP server "{0}" did not start.', controller.name));
    const client = controller.client;
    if (!client) throw new Error(vscode.l10n.t('MCP server "{0}" did not start.', controller.name));
    return { client, secrets: controller.knownSecrets(), dispose: async () => undefined };
  }
  switch (server.kind) {
    case 'config':
      throw new Error(vscode.l10n.t('No MCP server named "{0}" is configured in this workspace.', server.server));
    case 'http':
      throw new Error(
        vscode.l10n.t(
          'The recording names the HTTP server {0}: add it to mcp.json as "{1}" to run the test here.',
          server.url,
          name ?? 'server',
        ),
      );
    case 'stdio':
      return spawnRecorded(server, folder);
    default: {
      const exhaustive: never = server;
      return exhaustive;
    }
  }
}

async function spawnRecorded(
  server: Extract<RecordedServer, { kind: 'stdio' }>,
  folder: string,
): Promise<RecordedServerSession> {
  if (!vscode.workspace.isTrusted)
    throw new Error(vscode.l10n.t('The workspace is not trusted: a recording cannot start its server.'));
  if ([server.command, ...server.args].some((word) => word.includes(MASK)))
    throw new Error(vscode.l10n.t('The recorded command line has a masked secret in it.'));
  const env: Record<string, string> = {};
  const secrets: string[] = [];
  for (const [variable, value] of Object.entries(server.env ?? {})) {
    if (value !== MASK) env[variable] = value;
    else if (process.env[variable] !== undefined) secrets.push((env[variable] = process.env[variable] as string));
    else
      throw new Error(
        vscode.l10n.t(
          'The recorded server needs {0} (masked in the file): set it in the environment of VS Code.',
          variable,
        ),
      );
  }
  const transport = new StdioTransport({
    command: server.command,
    args: server.args,
    env,
    cwd: path.resolve(folder, server.cwd ?? '.'),
  });
  const client = new McpClient({
    serverName: server.name ?? path.basename(server.command),
    transport,
    era: server.era ?? 'auto',
  });
  try {
    await client.connect();
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return { client, secrets, dispose: () => client.close().catch(() => undefined) };
}
