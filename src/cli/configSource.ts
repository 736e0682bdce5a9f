import * as os from 'node:os';
import * as path from 'node:path';
import { DIALECTS, dialectForFile, type DialectServer } from '../workbench/config/dialects';
import { MAX_CLAUDE_JSON_BYTES } from '../workbench/config/dialects/claudeCode';
import type { ConfigProblem, ServerDefinition } from '../workbench/config/mcpConfig';
import { readConfigFile } from '../workbench/node/configFile';
import { configSourceFiles } from '../workbench/node/configSources';
import { UsageError, type ParsedArgs } from './args';

/**
 * The servers `--config <file>` (any client's file: the dialect comes from its name, then its shape) or
 * `--from-client <client>` (that client's files: the current folder's and the home folder's) define.
 */

export interface CliConfigServer {
  definition: ServerDefinition;
  file: string;
  /** The folder `${workspaceFolder}` and a relative cwd mean. */
  workspaceFolder: string;
  inputIds: string[];
  notes: string[];
}

interface CliConfig {
  /** What the flags name, for messages: the file, or "Claude Code's files (…)". */
  described: string;
  servers: CliConfigServer[];
  problems: ConfigProblem[];
}

export async function readCliConfig(args: ParsedArgs): Promise<CliConfig> {
  if (args.fromClient !== undefined) {
    const cwd = process.cwd();
    const files = configSourceFiles({
      platform: process.platform,
      // os.homedir() reads HOME (USERPROFILE on Windows): a run, or a test, points it elsewhere the way a shell does.
      home: os.homedir(),
      folders: [cwd],
      env: process.env,
    }).filter((file) => file.clients.includes(args.fromClient as NonNullable<ParsedArgs['fromClient']>));
    const result: CliConfig = {
      described: `${args.fromClient}'s config files (${files.map((file) => file.path).join(', ')})`,
      servers: [],
      problems: [],
    };
    for (const file of files) {
      const read = await readOne(file.path, file.dialect, file.workspaceFolder ?? cwd);
      if (read === undefined) continue;
      const taken = new Set(result.servers.map((server) => server.definition.name));
      // The first file that names a server wins (the folder's before the home folder's, as the clients do).
      result.servers.push(...read.servers.filter((server) => !taken.has(server.definition.name)));
      result.problems.push(...read.problems);
    }
    return result;
  }
  const file = path.resolve(args.config as string);
  const dir = path.dirname(file);
  // <folder>/.vscode/mcp.json, .cursor/mcp.json, .github/mcp.json, .devcontainer/…: <folder> is the workspace.
  const workspaceFolder = /^\.(vscode|cursor|github|devcontainer)$/.test(path.basename(dir)) ? path.dirname(dir) : dir;
  const read = await readOne(file, undefined, workspaceFolder, true);
  return { described: file, servers: read?.servers ?? [], problems: read?.problems ?? [] };
}

async function readOne(
  file: string,
  dialectId: keyof typeof DIALECTS | undefined,
  workspaceFolder: string,
  required = false,
): Promise<{ servers: CliConfigServer[]; problems: ConfigProblem[] } | undefined> {
  const read = await readConfigFile(
    file,
    dialectId === 'claude-code' || file.endsWith('.claude.json') ? MAX_CLAUDE_JSON_BYTES : undefined,
  );
  switch (read.kind) {
    case 'missing':
      if (required) throw new UsageError(`cannot read config file ${file}: it does not exist`);
      return undefined;
    case 'refused':
      throw new UsageError(`cannot read config file ${file}: ${read.reason}`);
    case 'text':
      break;
    default: {
      const exhaustive: never = read;
      return exhaustive;
    }
  }
  const dialect = dialectId === undefined ? dialectForFile(file, read.text) : DIALECTS[dialectId];
  const parsed = dialect.read(read.text, { path: file, workspaceFolder, pathSeparator: path.sep });
  const inputIds = parsed.inputs.map((input) => input.id);
  return {
    servers: parsed.servers.map((server: DialectServer) => ({
      definition: server.definition,
      file,
      workspaceFolder,
      inputIds,
      // The CLI offers every tool (a person driving it names the tool); the allow-list is Copilot's agent's.
      notes: server.allowedTools
        ? [
            ...server.notes,
            `"tools" allowlist (${server.allowedTools.join(', ') || 'empty'}) not applied by the CLI: every tool of the server is listed and callable`,
          ]
        : server.notes,
    })),
    problems: parsed.problems.map((problem) => ({ ...problem, message: `${file}: ${problem.message}` })),
  };
}
