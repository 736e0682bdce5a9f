/**
 * `mcp-workbench gateway`: serves a server (or every server of a config file) to other MCP clients, on
 * 127.0.0.1, through this CLI's own connection to it: one server process for every agent.
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { McpClient } from '../protocol/client';
import { ErrorCodes, McpError } from '../protocol/errors';
import type { ClientHost } from '../protocol/host';
import { inputLimits } from '../protocol/limits/inputLimits';
import { GatewayHostRelay } from '../workbench/gateway/hostRelay';
import { ToolPolicy, policedUpstream } from '../workbench/gateway/toolPolicy';
import type { RunningGateway } from '../workbench/node/gateway/listener';
import { readConfigFile } from '../workbench/node/configFile';
import { UsageError, type ParsedArgs } from './args';
import { ownCommand, reportFailure, takeFlags } from './ownCommand';
import { readCliConfig } from './configSource';
import { createClient, resolveTarget } from './connect';
import { printable } from './printable';

interface GatewayFlags {
  port?: number;
  policy?: string;
  json: boolean;
  rest: string[];
}

/** Takes the gateway's own flags out of the command line (the shared parser does not know them). */
function gatewayFlags(argv: readonly string[]): GatewayFlags {
  const flags: Omit<GatewayFlags, 'rest'> = { json: false };
  const rest = takeFlags(argv, (flag, value, arg) => {
    if (arg === '--json') flags.json = true;
    else if (flag === '--policy') {
      const given = value();
      if (!given) throw new UsageError('--policy needs a JSON file');
      flags.policy = given;
    } else if (flag === '--port') {
      const given = value();
      const port = Number(given);
      if (given === undefined || !/^\d+$/.test(given) || port > 65535)
        throw new UsageError('--port needs a port number from 0 to 65535');
      flags.port = port;
    } else return false;
    return true;
  });
  return { ...flags, rest };
}

/** The gateway's run when the command line asks for it, else undefined (main goes on with the other subcommands). */
export function gatewayCommand(argv: readonly string[], usage: string): Promise<number> | undefined {
  return ownCommand(argv, usage, { name: 'gateway', flags: gatewayFlags, run: runGateway });
}

/**
 * The CLI's answers to what a server asks when the agent whose call it belongs to did not declare the capability
 * (or when it cannot be told which agent's call it is): no person is at this run, so an elicitation is declined and
 * a sampling request fails with a reason; roots are the current folder, as for every CLI run, and only for an agent
 * that did not declare roots of its own.
 */
function cliFallbackHost(): ClientHost {
  return {
    roots: { listRoots: () => [{ uri: pathToFileURL(process.cwd()).href, name: path.basename(process.cwd()) }] },
    sampling: {
      createMessage: () =>
        Promise.reject(
          new McpError(
            ErrorCodes.InternalError,
            'no model is connected to this mcp-workbench gateway, and the agent that made the call does not offer sampling',
          ),
        ),
    },
    elicitation: { modes: ['form'], elicit: () => Promise.resolve({ action: 'decline' }) },
  };
}

interface Served {
  name: string;
  client: McpClient;
  gateway?: RunningGateway;
}

async function runGateway(args: ParsedArgs, flags: GatewayFlags): Promise<number> {
  // The listener and the official server SDK it serves with load only for this subcommand (esbuild.js).
  const [{ clientUpstream }, { startGateway }] = await Promise.all([
    import('../workbench/gateway/upstream.js'),
    import('../workbench/node/gateway/listener.js'),
  ]);
  const served: Served[] = [];
  /** The servers' secrets (header and env values), masked out of what the run prints. */
  const secrets: string[] = [];
  let stopping = false;
  let resolveStop: (code: number) => void = () => undefined;
  const stopped = new Promise<number>((resolve) => (resolveStop = resolve));
  const stop = (code: number) => {
    stopping = true;
    resolveStop(code);
  };
  const onSignal = () => stop(0);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const names = await serverNames(args);
    const policies = flags.policy === undefined ? undefined : await readPolicies(flags.policy);
    const limits = inputLimits(args.limits);
    for (const [index, server] of names.entries()) {
      if (stopping) break;
      const target = await resolveTarget(server === undefined ? args : { ...args, server });
      secrets.push(...target.secrets);
      const relay = new GatewayHostRelay(cliFallbackHost());
      const client = createClient(target, args, relay.host);
      const entry: Served = { name: target.name, client };
      served.push(entry);
      await client.connect();
      // A server that goes away ends the run: an endpoint that can only fail would mislead its agents.
      client.onClose(() => {
        if (!stopping) {
          process.stderr.write(`${printable(target.name)}: the server closed the connection; the gateway stops\n`);
          stop(1);
        }
      });
      const policy = policies?.(target.name);
      entry.gateway = await startGateway({
        // No person answers at this run: an `ask` tool is refused and a `review` tool's result withheld.
        upstream: policy ? policedUpstream(clientUpstream(client), policy, {}) : clientUpstream(client),
        relay,
        secrets: target.secrets,
        maxBodyBytes: limits.maxMessageBytes,
        port: flags.port === undefined || flags.port === 0 ? 0 : flags.port + index,
      });
    }
    if (!stopping) announce(served, flags.json);
    return await stopped;
  } catch (error) {
    return reportFailure(error, served.at(-1)?.name, secrets);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    // Every endpoint first (its agents' sessions and sockets), then the servers (their processes end with them).
    await Promise.all(served.map((entry) => entry.gateway?.close().catch(() => undefined)));
    await Promise.all(served.map((entry) => entry.client.close().catch(() => undefined)));
  }
}

/**
 * The `--policy` file: one set of tool rules for every served server (`{"tools": …}`), or one per server by name
 * (`{"servers": {"<name>": {"tools": …}}}`; a server it does not name gets none). A file that does not parse is a usage
 * error: a gateway that serves tools its person meant to hide must not start.
 */
async function readPolicies(file: string): Promise<(server: string) => ToolPolicy | undefined> {
  const resolved = path.resolve(file);
  // Read as a config file is (regular files only, size capped, no wait on a named pipe).
  const read = await readConfigFile(resolved);
  if (read.kind !== 'text')
    throw new UsageError(
      `cannot read the policy file ${resolved}: ${read.kind === 'missing' ? 'it does not exist' : read.reason}`,
    );
  let value: unknown;
  try {
    value = JSON.parse(read.text);
  } catch (error) {
    throw new UsageError(`cannot read the policy file ${resolved}: ${(error as Error).message}`);
  }
  try {
    const servers = (value as { servers?: unknown } | null)?.servers;
    if (servers === undefined) {
      const policy = ToolPolicy.parse(value);
      return () => policy;
    }
    if (typeof servers !== 'object' || servers === null || Array.isArray(servers))
      throw new TypeError('"servers" is an object: server name → {"tools": …}');
    const byName = new Map<string, ToolPolicy>();
    for (const [name, entry] of Object.entries(servers as Record<string, unknown>))
      byName.set(name, ToolPolicy.parse(entry));
    return (server) => byName.get(server);
  } catch (error) {
    throw new UsageError(`the policy file ${resolved}: ${(error as Error).message}`);
  }
}

/**
 * The servers to serve: the one the flags name, or with --config (any client's file, read as that client reads it) or
 * --from-client and no --server, every server there. The same reader as the other commands: a Cursor, Claude Code or
 * Codex file served nothing when this read only VS Code's `servers` key.
 */
async function serverNames(args: ParsedArgs): Promise<(string | undefined)[]> {
  if ((args.config === undefined && args.fromClient === undefined) || args.server !== undefined) return [undefined];
  const config = await readCliConfig(args);
  const names = config.servers.map((server) => server.definition.name);
  if (names.length === 0) {
    const problems = config.problems.map((problem) => problem.message);
    throw new UsageError(
      `${config.described} defines no valid server${problems.length ? `; problems: ${problems.join('; ')}` : ''}`,
    );
  }
  return names;
}

function announce(served: readonly Served[], json: boolean): void {
  const servers = served.map(({ name, gateway }) => ({
    name,
    url: gateway?.url ?? '',
    headers: { ...gateway?.headers },
  }));
  if (json) {
    process.stdout.write(`${JSON.stringify({ servers })}\n`);
    return;
  }
  for (const server of servers)
    process.stderr.write(
      `${printable(server.name)}: serving on ${server.url}; send the header Authorization: ${server.headers.Authorization} (new each run). Ctrl-C stops it.\n`,
    );
}
