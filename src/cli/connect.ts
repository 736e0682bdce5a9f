import { enableTasks } from '../protocol/extensions/tasks';
import { cliEraMemory } from './eraMemory';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { McpClient, type McpClientOptions } from '../protocol/client';
import { appsExtensionsFor } from '../protocol/extensions/apps';
import type { EraPreference } from '../protocol/eras/select';
import { createTransport, resolveServerDefinition, type ResolvedServer } from '../workbench/node/launch';
import type { ServerDefinition } from '../workbench/config/mcpConfig';
import { readCliConfig } from './configSource';
import type { ClientHost } from '../protocol/host';
import type { Logger } from '../protocol/jsonrpc/rpcConnection';
import { createHttpTransport, type HttpTransportMode } from '../protocol/transports/http';
import { StdioTransport } from '../protocol/node/stdio';
import type { Transport } from '../protocol/transports/transport';
import { splitCommandLine } from '../workbench/config/commandLine';
import { maskSecrets, maskText } from '../workbench/secrets';
import { jsonPreview } from '../workbench/display';
import type { TraceDirection } from '../protocol/jsonrpc/mcpStreams';
import { displayUrl } from '../protocol/transports/httpShared';
import { stdioServerName } from './serverName';
import { UsageError, type ParsedArgs } from './args';
import { withStaticHeaders } from '../protocol/auth/authorizer';
import { cliAuthorizer } from './oauthSignIn';
import { printable } from './printable';
import { PersonWaits } from '../protocol/jsonrpc/personWaits';
import { enableSkills } from '../protocol/extensions/skills';
import type { EnabledExtension } from '../protocol/extensions/protocolExtension';
import { chooseHttpFetch, describeHttpFetch, type HttpFetchChoice } from '../workbench/node/httpFetchChoice';

export { printable } from './printable';

/**
 * A command-line run waits for nobody: many servers never exit when stdin closes, so the CLI moves on to
 * SIGTERM sooner than the extension does (--shutdown-grace changes it). A server that exits on EOF, or is gone
 * already, is not waited on at all: the grace only runs while the process is still alive.
 */
const CLI_SHUTDOWN_GRACE_MS = 500;

export interface Target {
  /** The name every message of the run uses (see `resolveTarget` for why it never changes). */
  name: string;
  transport: Transport;
  /** How the server is reached, for --verbose; already masked. */
  description: string;
  /** Values masked wherever the CLI prints: header and env values (from flags or the config) and --input values. */
  secrets: string[];
  /** For an HTTP server, how the transport was chosen; `auto` may have fallen back to HTTP+SSE. */
  httpMode?: HttpTransportMode;
  /** The era the config entry asks for (`"era"`); --era overrides it. */
  era?: EraPreference;
  /**
   * The connection's person waits: the OAuth sign-in holds one while the person is at the authorization server,
   * and the client's request deadlines pause meanwhile (the same object goes to both).
   */
  personWaits: PersonWaits;
  /** For an HTTP server: the fetch its transport and its OAuth requests use (see chooseHttpFetch), for --verbose. */
  httpFetch?: HttpFetchChoice;
}

/** The CLI's fetch: node:http unless a proxy is configured in the environment (see chooseHttpFetch). */
function cliHttpFetch(): HttpFetchChoice {
  return chooseHttpFetch({ env: process.env });
}

/**
 * Builds the transport the arguments describe: exactly one of --stdio, --url, or --config with --server.
 *
 * The name is chosen here, before the server runs, and kept for the whole run rather than switching to the
 * server's `serverInfo.name` after the handshake: spawn failures, stderr lines and handshake errors are reported
 * before any serverInfo exists, and one run must not talk about the same server under two names. serverInfo is
 * also the server's own claim (untrusted, possibly empty or misleading), while the command line, the URL's host or
 * the config key is what the person typed. `info` shows serverInfo for whoever wants it.
 */
export async function resolveTarget(args: ParsedArgs): Promise<Target> {
  const chosen = [args.stdio, args.url, args.config, args.fromClient].filter((flag) => flag !== undefined).length;
  if (chosen !== 1)
    throw new UsageError(
      'give exactly one of --stdio "<command line>", --url <url>, --config <file> or --from-client <client> (with --server <name>)',
    );
  const flagSecrets = [
    ...Object.values(args.headers),
    ...Object.values(args.env),
    ...Object.values(args.inputs),
    ...(args.clientSecret ? [args.clientSecret] : []),
  ];
  if (args.stdio !== undefined) {
    let words: string[];
    try {
      words = splitCommandLine(args.stdio);
    } catch (error) {
      throw new UsageError(`${(error as Error).message} in command line: ${args.stdio}`);
    }
    const [command, ...commandArgs] = words;
    if (!command) throw new UsageError('--stdio needs a command line');
    const cwd = args.cwd === undefined ? process.cwd() : path.resolve(args.cwd);
    return {
      name: stdioServerName(command, commandArgs, cwd),
      transport: new StdioTransport({
        command,
        args: commandArgs,
        env: args.env,
        cwd: args.cwd,
        shutdownGraceMs: args.shutdownGraceMs ?? CLI_SHUTDOWN_GRACE_MS,
        limits: args.limits,
      }),
      description: maskText(`stdio: ${args.stdio}`, flagSecrets),
      secrets: flagSecrets,
      personWaits: new PersonWaits(),
    };
  }
  if (args.url !== undefined) {
    const url = parseUrlFlag(args.url);
    const mode = args.transport ?? 'auto';
    const personWaits = new PersonWaits();
    const httpFetch = cliHttpFetch();
    const authorizer = cliAuthorizer({
      serverUrl: url.href,
      serverName: url.host,
      args,
      personWaits,
      fetch: httpFetch.fetch,
    });
    return {
      name: url.host,
      // On a 401 the OAuth authorizer signs in; until then (and for servers without OAuth) the --header values go out.
      transport: createHttpTransport({
        url: url.href,
        authorizer: withStaticHeaders(authorizer, args.headers),
        mode,
        fetch: httpFetch.fetch,
        limits: args.limits,
      }),
      httpFetch,
      description: maskText(describeHttp(displayUrl(url.href), mode), flagSecrets),
      secrets: flagSecrets,
      httpMode: mode,
      personWaits,
    };
  }
  return resolveConfigTarget(args);
}

function describeHttp(url: string, mode: HttpTransportMode): string {
  switch (mode) {
    case 'auto':
      return `HTTP ${url}: Streamable HTTP first, falling back to the 2024-11-05 HTTP+SSE transport if the server refuses it`;
    case 'streamable-http':
      return `Streamable HTTP ${url} (no fallback: --transport streamable-http)`;
    case 'sse':
      return `HTTP+SSE (2024-11-05) ${url} (--transport sse)`;
  }
}

/** The config entry --config/--from-client and --server name (or the only server there). */
async function configEntry(
  args: ParsedArgs,
): Promise<{ definition: ServerDefinition; file: string; inputIds: string[]; workspaceFolder: string }> {
  const config = await readCliConfig(args);
  const names = config.servers.map((server) => server.definition.name);
  const chosen = args.server
    ? config.servers.find((server) => server.definition.name === args.server)
    : config.servers.length === 1
      ? config.servers[0]
      : undefined;
  if (!args.server && !chosen)
    throw new UsageError(
      `--server is required; ${config.described} defines: ${names.join(', ') || '(no valid servers)'}`,
    );
  if (!chosen) {
    const problem = config.problems.find((p) => p.server === args.server);
    if (problem) throw new UsageError(`server "${args.server}" in ${problem.message}`);
    const fileProblems = config.problems.filter((p) => !p.server).map((p) => p.message);
    throw new UsageError(
      `no server "${args.server}" in ${config.described}; it defines: ${names.join(', ') || '(none)'}${fileProblems.length ? `; problems: ${fileProblems.join('; ')}` : ''}`,
    );
  }
  // What this client reads differently from the file's own client, or cannot honour: said, never dropped silently.
  for (const note of chosen.notes)
    process.stderr.write(`note: ${printable(chosen.definition.name)}: ${printable(note)}\n`);
  return {
    definition: chosen.definition,
    file: chosen.file,
    inputIds: chosen.inputIds,
    workspaceFolder: chosen.workspaceFolder,
  };
}

async function resolveConfigTarget(args: ParsedArgs): Promise<Target> {
  const { definition, file, inputIds, workspaceFolder } = await configEntry(args);
  return launch(definition, file, args, inputIds, workspaceFolder);
}

/** A config entry with its variables resolved (--input, MCP_INPUT_*, the workspace folder, the environment). */
function resolveEntry(
  definition: ServerDefinition,
  args: ParsedArgs,
  inputIds: string[],
  workspaceFolder: string,
): Promise<ResolvedServer> {
  return resolveServerDefinition(definition, {
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
}

function parseUrlFlag(value: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new UsageError(`--url is not a valid URL: ${value}`);
  }
}

/**
 * The HTTP server a sign-out is about (--url, or --config with --server), without connecting: its name for
 * messages and the URL its tokens are cached under (the same URL the authorizer of a run uses).
 */
export async function resolveHttpServer(args: ParsedArgs): Promise<{ name: string; url: string }> {
  const chosen = [args.stdio, args.url, args.config, args.fromClient].filter((flag) => flag !== undefined).length;
  if (chosen !== 1 || args.stdio !== undefined)
    throw new UsageError(
      'give exactly one of --url <url>, or --config <mcp.json> --server <name> (sign-in applies to HTTP servers only)',
    );
  if (args.url !== undefined) {
    const url = parseUrlFlag(args.url);
    return { name: url.host, url: url.href };
  }
  const { definition, file, inputIds, workspaceFolder } = await configEntry(args);
  const resolved = await resolveEntry(definition, args, inputIds, workspaceFolder);
  if (resolved.kind !== 'http')
    throw new UsageError(
      `server "${definition.name}" in ${file} is a stdio server: it takes credentials from its environment, there is nothing to sign out of`,
    );
  return { name: definition.name, url: resolved.url };
}

async function launch(
  definition: ServerDefinition,
  file: string,
  args: ParsedArgs,
  inputIds: string[],
  workspaceFolder: string,
): Promise<Target> {
  const resolved = await resolveEntry(definition, args, inputIds, workspaceFolder);
  if (resolved.kind === 'http') Object.assign(resolved.headers, args.headers);
  if (resolved.kind === 'stdio') Object.assign(resolved.env, args.env);
  const secrets = [
    ...(resolved.kind === 'http'
      ? Object.values(resolved.headers)
      : Object.values(resolved.env).filter((value): value is string => typeof value === 'string')),
    ...Object.values(args.headers),
    ...Object.values(args.inputs),
    ...(resolved.kind === 'http' && resolved.oauth?.clientSecret ? [resolved.oauth.clientSecret] : []),
    ...(args.clientSecret ? [args.clientSecret] : []),
  ];
  const httpMode: HttpTransportMode | undefined =
    resolved.kind === 'http' ? (resolved.transport === 'sse' ? 'sse' : 'auto') : undefined;
  const description =
    resolved.kind === 'http'
      ? describeHttp(displayUrl(resolved.url), httpMode ?? 'auto')
      : `stdio: ${[resolved.command, ...resolved.args].join(' ')}${resolved.cwd ? ` (cwd ${resolved.cwd})` : ''}`;
  const personWaits = new PersonWaits();
  const httpFetch = resolved.kind === 'http' ? cliHttpFetch() : undefined;
  return {
    // The config's key is the name the person gave the server.
    name: definition.name,
    transport: createTransport(resolved, {
      shutdownGraceMs: args.shutdownGraceMs ?? CLI_SHUTDOWN_GRACE_MS,
      limits: args.limits,
      fetch: httpFetch?.fetch,
      authorizer:
        resolved.kind === 'http'
          ? cliAuthorizer({
              serverUrl: resolved.url,
              serverName: definition.name,
              args,
              config: resolved.oauth,
              personWaits,
              fetch: httpFetch?.fetch,
            })
          : undefined,
    }),
    httpFetch,
    description: maskText(`${file}: ${description}`, secrets),
    secrets,
    httpMode,
    era: definition.era,
    personWaits,
  };
}

/** The client's logger on stderr: warnings and errors always, debug and info with --verbose; secrets masked. */
export function stderrLogger(verbose: boolean, secrets: readonly string[] = []): Logger {
  const write = (level: string) => (message: string) =>
    process.stderr.write(`[${level}] ${printable(maskText(message, secrets))}\n`);
  return {
    debug: verbose ? write('debug') : () => {},
    info: verbose ? write('info') : () => {},
    warn: write('warn'),
    error: write('error'),
  };
}

/** The CLI's roots: the working directory is the workspace of a command-line run. */
function cliHost(): ClientHost {
  return {
    roots: { listRoots: () => [{ uri: pathToFileURL(process.cwd()).href, name: path.basename(process.cwd()) }] },
  };
}

export function createClient(
  target: Target,
  args: ParsedArgs,
  host: ClientHost = cliHost(),
  /** Extensions a subcommand also declares (`events` declares io.modelcontextprotocol/events). */
  extraExtensions: readonly EnabledExtension[] = [],
): McpClient {
  if (args.verbose) {
    const say = verboseWriter(target);
    say(`transport: ${target.description}`);
    if (target.httpFetch) say(describeHttpFetch(target.httpFetch));
    // Subscribed before the client starts the transport, so the spawn line and the first stderr lines are shown.
    target.transport.onDiagnostic((line) => say(line));
  }
  const options: McpClientOptions = {
    serverName: target.name,
    transport: target.transport,
    host,
    logger: stderrLogger(args.verbose, target.secrets),
    trace: args.verbose ? verboseTrace(target, args.limits.maxTraceBytes ?? MAX_TRACE_BODY_CHARS) : undefined,
    requestTimeoutMs: args.timeoutMs,
    initializeTimeoutMs: args.timeoutMs,
    era: args.era ?? target.era ?? 'auto',
    personWaits: target.personWaits,
    // era auto: a server that was slow to answer the probe is opened directly at its next start.
    eraMemory: cliEraMemory(target.description),
    // MCP Apps (tools and info say which tools have an app), Tasks of both generations (the CLI hosts a server's sampling/elicitation tasks only where it has those services),
    // and Skills (SEP-2640), declared so `skills` and `skill` work; nothing is fetched until one of them asks.
    extensions: [
      ...appsExtensionsFor(true),
      enableTasks(target.name, {
        receiver: { sampling: host.sampling !== undefined, elicitation: host.elicitation !== undefined },
      }).extension,
      enableSkills(),
      ...extraExtensions,
    ],
  };
  return new McpClient(options);
}

/** Writes one --verbose line about the server to stderr, prefixed with its name, secrets masked. */
export function verboseWriter(target: Pick<Target, 'name' | 'secrets'>): (line: string) => void {
  return (line) => process.stderr.write(`${target.name}: ${printable(maskText(line, target.secrets))}\n`);
}

/** A trace body longer than this is cut (--limit maxTraceBytes changes it): --verbose is for reading, and the full result is on stdout anyway. */
const MAX_TRACE_BODY_CHARS = 20_000;

/** The message trace for --verbose: one line per JSON-RPC message with its masked body. */
function verboseTrace(target: Target, maxBodyChars: number): (direction: TraceDirection, message: unknown) => void {
  const say = verboseWriter(target);
  return (direction, message) => {
    const masked = maskSecrets(message, target.secrets);
    // jsonPreview stops serializing at the limit and survives any depth (a server's result is untrusted).
    const body = jsonPreview(masked, maxBodyChars);
    say(`${direction === 'send' ? '→' : '←'} ${describeMessage(message)} ${body}`);
  };
}

function describeMessage(message: unknown): string {
  if (typeof message !== 'object' || message === null) return typeof message;
  if (Array.isArray(message)) return `batch of ${message.length}`;
  const record = message as Record<string, unknown>;
  const id = record.id === undefined ? '' : ` #${JSON.stringify(record.id)}`;
  if (typeof record.method === 'string')
    return `${record.id === undefined ? 'notification' : 'request'} ${JSON.stringify(record.method).slice(1, -1)}${id}`;
  if ('error' in record) return `error response${id}`;
  if ('result' in record) return `response${id}`;
  return 'message';
}
