import { readFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { McpClient } from '../protocol/client';
import { createTransport, resolveServerDefinition } from '../workbench/node/launch';
import { parseMcpConfig, type ServerDefinition } from '../workbench/config/mcpConfig';
import type { ClientHost } from '../protocol/host';
import type { Logger } from '../protocol/jsonrpc/rpcConnection';
import { createHttpTransport } from '../protocol/transports/http';
import { StdioTransport } from '../protocol/node/stdio';
import type { Transport } from '../protocol/transports/transport';
import { splitCommandLine } from '../workbench/config/commandLine';
import { UsageError, type ParsedArgs } from './args';

/**
 * A command-line run waits for nobody: many servers never exit when stdin closes, so the CLI moves on to
 * SIGTERM sooner than the extension does.
 */
const CLI_SHUTDOWN_GRACE_MS = 500;

export interface Target {
  name: string;
  transport: Transport;
}

/** Builds the transport the arguments describe: exactly one of --stdio, --url, or --config with --server. */
export async function resolveTarget(args: ParsedArgs): Promise<Target> {
  const chosen = [args.stdio !== undefined, args.url !== undefined, args.config !== undefined].filter(Boolean).length;
  if (chosen !== 1) throw new UsageError('give exactly one of --stdio "<command line>", --url <url>, or --config <mcp.json> --server <name>');
  if (args.stdio !== undefined) {
    let words: string[];
    try {
      words = splitCommandLine(args.stdio);
    } catch (error) {
      throw new UsageError(`${(error as Error).message} in command line: ${args.stdio}`);
    }
    const [command, ...commandArgs] = words;
    if (!command) throw new UsageError('--stdio needs a command line');
    return {
      name: path.basename(command),
      transport: new StdioTransport({ command, args: commandArgs, env: args.env, cwd: args.cwd, shutdownGraceMs: CLI_SHUTDOWN_GRACE_MS }),
    };
  }
  if (args.url !== undefined) {
    let url: URL;
    try {
      url = new URL(args.url);
    } catch {
      throw new UsageError(`--url is not a valid URL: ${args.url}`);
    }
    return { name: url.host, transport: createHttpTransport({ url: url.href, headers: args.headers, mode: args.transport ?? 'auto' }) };
  }
  return resolveConfigTarget(args);
}

async function resolveConfigTarget(args: ParsedArgs): Promise<Target> {
  const file = path.resolve(args.config as string);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read config file ${file}: ${(error as Error).message}`);
  }
  const config = parseMcpConfig(text);
  const names = config.servers.map((server) => server.name);
  if (!args.server) {
    if (config.servers.length === 1) return launch(config.servers[0], file, args, config.inputs.map((i) => i.id));
    throw new UsageError(`--server is required; ${file} defines: ${names.join(', ') || '(no valid servers)'}`);
  }
  const definition = config.servers.find((server) => server.name === args.server);
  if (!definition) {
    const problem = config.problems.find((p) => p.server === args.server);
    if (problem) throw new UsageError(`server "${args.server}" in ${file} is invalid: ${problem.message}`);
    const fileProblems = config.problems.filter((p) => !p.server).map((p) => p.message);
    throw new UsageError(`no server "${args.server}" in ${file}; it defines: ${names.join(', ') || '(none)'}${fileProblems.length ? `; problems: ${fileProblems.join('; ')}` : ''}`);
  }
  return launch(definition, file, args, config.inputs.map((i) => i.id));
}

async function launch(definition: ServerDefinition, file: string, args: ParsedArgs, inputIds: string[]): Promise<Target> {
  // The config lives in <folder>/.vscode/mcp.json or <folder>/mcp.json; either way <folder> is the workspace.
  const dir = path.dirname(file);
  const workspaceFolder = path.basename(dir) === '.vscode' ? path.dirname(dir) : dir;
  const resolved = await resolveServerDefinition(definition, {
    workspaceFolder,
    userHome: os.homedir(),
    env: process.env,
    input: async (id) => {
      if (args.inputs[id] !== undefined) return args.inputs[id];
      const fromEnv = process.env[`MCP_INPUT_${id.replace(/[^A-Za-z0-9]/g, '_').toUpperCase()}`];
      if (fromEnv !== undefined) return fromEnv;
      const known = inputIds.includes(id) ? '' : ' (it is not declared in "inputs")';
      throw new UsageError(`input "${id}"${known} needs a value: pass --input ${id}=<value>`);
    },
  });
  if (resolved.kind === 'http') Object.assign(resolved.headers, args.headers);
  if (resolved.kind === 'stdio') Object.assign(resolved.env, args.env);
  return { name: definition.name, transport: createTransport(resolved, { shutdownGraceMs: CLI_SHUTDOWN_GRACE_MS }) };
}

export function stderrLogger(verbose: boolean): Logger {
  const write = (level: string) => (message: string) => process.stderr.write(`[${level}] ${message}\n`);
  return { debug: verbose ? write('debug') : () => {}, info: verbose ? write('info') : () => {}, warn: write('warn'), error: write('error') };
}

/** The CLI's roots: the working directory is the workspace of a command-line run. */
export function cliHost(): ClientHost {
  return { roots: { listRoots: () => [{ uri: pathToFileURL(process.cwd()).href, name: path.basename(process.cwd()) }] } };
}

export function createClient(target: Target, args: ParsedArgs, host: ClientHost = cliHost()): McpClient {
  return new McpClient({
    serverName: target.name,
    transport: target.transport,
    host,
    logger: stderrLogger(args.verbose),
    requestTimeoutMs: args.timeoutMs,
    initializeTimeoutMs: args.timeoutMs,
    era: args.era ?? 'auto',
  });
}
