import { LocalError, McpError, errorMessage } from '../protocol/errors';
import type { McpClient } from '../protocol/client';
import { LOGGING_LEVELS, type CompletionReference, type LoggingLevel } from '../protocol/types';
import { UsageError, parseArgs, parseJsonObjectArgument, type ParsedArgs } from './args';
import { APP_USAGE, withApps } from './apps';
import type { Target } from './connect';
import { writeJsonOutput } from './output';
import { printable } from './printable';
import { maskText } from '../workbench/secrets';
import { toJsonText } from '../workbench/display';
import type { TransportKind } from '../protocol/transports/transport';
import { TASKS_USAGE, TASK_OPTIONS_USAGE, reportTaskProgress, runCall, runTaskCommand, runTasksCommand } from './tasks';
import { SKILL_RUNNERS, SKILLS_USAGE } from './skills';
import {
  CARD_USAGE,
  DOCTOR_USAGE,
  EVAL_USAGE,
  EVENTS_USAGE,
  GATEWAY_USAGE,
  LINT_USAGE,
  LOAD_USAGE,
  RECORDINGS_USAGE,
  REGISTRY_USAGE,
} from './usage';

const USAGE = `Usage: mcp-workbench <subcommand> [arguments] (--stdio "<command line>" | --url <url> | --config <file> --server <name>
                                                             | --from-client <client> --server <name>)

Subcommands:
  info                                 server name, version, protocol revision, capabilities, instructions
  tools                                list every tool (all pages)
  call <tool> [json-arguments]         call a tool; exit 1 when the result is an error
  resources                            list resources
  templates                            list resource templates
  read <uri>                           read a resource
${APP_USAGE}
  prompts                              list prompts
  prompt <name> [json-arguments]       get a prompt
  complete prompt <name> <argument> <value>
  complete resource <uri-template> <argument> <value>
  ping                                 ping the server
  set-level <level>                    set the server's log level
  session                              one session, many commands: reads one command per line from stdin
                                       (e.g. \`call echo {"message":"hi"}\`), answers one JSON line each
  logout                               forget the OAuth sign-in cached for an HTTP server (--url, or
                                       --config and --server) in --auth-dir: its tokens and client
                                       registrations; the next run signs in again. Prints {"signedOut"}
  conformance <url>                    act as the client under the official conformance suite
                                       (scenario from MCP_CONFORMANCE_SCENARIO)
${REGISTRY_USAGE}
${TASKS_USAGE}
${SKILLS_USAGE}
${EVENTS_USAGE}
${RECORDINGS_USAGE}
${GATEWAY_USAGE}
${LINT_USAGE}
${LOAD_USAGE}
${DOCTOR_USAGE}
${EVAL_USAGE}
${CARD_USAGE}

Options:
  --timeout <ms>            bound each request (default 60000)
  --sign-in-timeout <ms>    bound one OAuth sign-in in the browser (default 300000); while the person signs
                            in, the request that met the 401 waits for them
  --shutdown-grace <ms>     how long a stdio server may take to exit after stdin closes, and after SIGTERM
                            (default 500; a server that exits sooner, or is gone already, is not waited on)
  --header "Name: value"    extra HTTP header (repeatable)
  --transport auto|streamable-http|sse   HTTP transport (default auto: Streamable HTTP, falling back to SSE)
  --era auto|2026-07-28|handshake   protocol era (default auto: 2026-07-28 via server/discover, falling
                            back to the initialize handshake for an older server; legacy = handshake)
  --auth-dir <dir>          where OAuth tokens are cached (default: a per-user config folder, e.g.
                            ~/.config/mcp-workbench/auth; files 0600). A server that answers 401 is signed in
                            to: the authorization URL is printed on stderr and opened with $BROWSER (the URL
                            as its one argument) or the platform's opener; the redirect comes to 127.0.0.1
  --no-browser              only print the authorization URL
  --client-id <id>          a pre-registered OAuth client (else a client metadata document or dynamic
  --client-secret <secret>    registration); in a config file: "oauth": {"clientId", "clientSecret", "scopes"}
  --env NAME=value          extra environment variable for a stdio server (repeatable)
  --cwd <dir>               working directory of a stdio server
  --input id=value          value for \${input:id} in a config file (repeatable)
  --config <file>           any client's config file: .vscode/mcp.json, .mcp.json, .github/mcp.json, .cursor/mcp.json,
                            ~/.copilot/mcp-config.json, ~/.claude.json, claude_desktop_config.json,
                            ~/.codex/config.toml, *.code-workspace, devcontainer.json, the draft standard mcp.json
                            (the format comes from the file's name, then its shape)
  --from-client <client>    that client's files, the current folder's before the home folder's: claude, cursor,
                            copilot, vscode, codex, claude-desktop. What this client reads differently from that
                            client is printed on stderr as "note: …"
  --verbose                 on stderr: transport and era chosen, the server's stderr, every message (secrets masked)
${TASK_OPTIONS_USAGE}
  --limit name=bytes        how much the run reads of what a server sends (repeatable; units k, M, G):
                            maxMessageBytes (one message, default 256M), maxSseLineBytes (one SSE line,
                            256M), maxDocumentBytes (one OAuth metadata, registration or token document, 1M),
                            maxTraceBytes (one --verbose message body, 20000); past a limit reading stops
                            and the error names it

Output is JSON on stdout. Exit codes: 0 success, 1 server/protocol/tool failure (and a list of a feature the
server does not offer; in a session: any failed line), 2 usage error, 130 interrupted.`;

/** Why a command that reached the server still counts as failed (exit 1; in a session, `ok: false`). */
export interface CommandFailure {
  kind: 'tool-error' | 'output-invalid' | 'verification-failed';
  message: string;
}

export interface CommandOutcome {
  output: unknown;
  failure?: CommandFailure;
}

type Runner = (client: McpClient, args: ParsedArgs) => Promise<CommandOutcome>;

/**
 * A list of a feature the server does not offer is an error, not `[]`: an empty list would say "the server offers
 * prompts and has none", which is a different answer. Same wording as the client's own capability errors.
 */
function requireCapability(client: McpClient, capability: 'tools' | 'resources' | 'prompts', what: string): void {
  if (!client.session.capabilities[capability]) {
    throw new LocalError(
      'capability-missing',
      `${client.serverName} does not offer ${capability}, so this client cannot ${what}`,
    );
  }
}

// A command's operands are read before the server starts (a mistyped JSON argument costs no server start, and its
// usage error exits 2 at once), and again by its runner, which a session line reaches without the check before.
function callOperands(args: ParsedArgs): { name: string; toolArgs: Record<string, unknown> } {
  const [name, json] = args.positionals;
  if (!name) throw new UsageError('call needs a tool name');
  return { name, toolArgs: parseJsonObjectArgument(json, 'tool arguments') };
}

function readOperand(args: ParsedArgs): string {
  const [uri] = args.positionals;
  if (!uri) throw new UsageError('read needs a resource URI');
  return uri;
}

function promptOperands(args: ParsedArgs): { name: string; promptArgs: Record<string, unknown> } {
  const [name, json] = args.positionals;
  if (!name) throw new UsageError('prompt needs a prompt name');
  return { name, promptArgs: parseJsonObjectArgument(json, 'prompt arguments') };
}

function completeOperands(args: ParsedArgs): { ref: CompletionReference; argument: string; value: string } {
  const [kind, target, argument, value = ''] = args.positionals;
  if ((kind !== 'prompt' && kind !== 'resource') || !target || !argument) {
    throw new UsageError(
      'complete needs: prompt <name> <argument> <value>, or resource <uri-template> <argument> <value>',
    );
  }
  return {
    ref: kind === 'prompt' ? { type: 'ref/prompt', name: target } : { type: 'ref/resource', uri: target },
    argument,
    value,
  };
}

function levelOperand(args: ParsedArgs): LoggingLevel {
  const [level] = args.positionals;
  if (!LOGGING_LEVELS.includes(level as LoggingLevel))
    throw new UsageError(`level must be one of ${LOGGING_LEVELS.join(', ')}`);
  return level as LoggingLevel;
}

const OPERANDS_CHECKED_BEFORE_START: Readonly<Record<string, (args: ParsedArgs) => unknown>> = {
  call: callOperands,
  read: readOperand,
  prompt: promptOperands,
  complete: completeOperands,
  'set-level': levelOperand,
};

export const RUNNERS: Readonly<Record<string, Runner>> = withApps<CommandOutcome>({
  info: async (client) => {
    const session = client.session;
    return {
      output: {
        serverInfo: session.serverInfo,
        era: session.kind === 'modern' ? '2026-07-28' : 'handshake',
        protocolVersion: session.protocolVersion,
        capabilities: session.capabilities,
        instructions: session.instructions,
        transport: client.transport.kind,
      },
    };
  },
  ping: async (client) => {
    await client.ping();
    return { output: { ok: true } };
  },
  tools: async (client) => {
    requireCapability(client, 'tools', 'list tools');
    return { output: await client.listTools() };
  },
  call: async (client, args) => {
    const { name, toolArgs } = callOperands(args);
    requireCapability(client, 'tools', 'call tools');
    const tools = await client.listTools(); // lets the client validate structuredContent against the tool's outputSchema
    return runCall(
      client,
      name,
      tools.find((tool) => tool.name === name),
      toolArgs,
      args,
    );
  },
  resources: async (client) => {
    requireCapability(client, 'resources', 'list resources');
    return { output: await client.listResources() };
  },
  templates: async (client) => {
    requireCapability(client, 'resources', 'list resource templates');
    return { output: await client.listResourceTemplates() };
  },
  read: async (client, args) => {
    const uri = readOperand(args);
    return { output: await client.readResource(uri) };
  },
  prompts: async (client) => {
    requireCapability(client, 'prompts', 'list prompts');
    return { output: await client.listPrompts() };
  },
  prompt: async (client, args) => {
    const { name, promptArgs } = promptOperands(args);
    const stringArgs = Object.fromEntries(
      Object.entries(promptArgs).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    );
    return { output: await client.getPrompt(name, stringArgs) };
  },
  complete: async (client, args) => {
    const { ref, argument, value } = completeOperands(args);
    return { output: await client.complete(ref, { name: argument, value }) };
  },
  'set-level': async (client, args) => {
    await client.setLoggingLevel(levelOperand(args));
    return { output: { ok: true } };
  },
  tasks: runTasksCommand,
  task: runTaskCommand,
  ...SKILL_RUNNERS,
});

type OwnCommand = (argv: readonly string[], usage: string) => Promise<number> | undefined;

/**
 * Subcommands with their own arguments, dispatched before the shared parser, in this order. Each answers only a
 * command line that names it, so its module (with what it runs: the gateway's server, the lint rules, the load
 * generator, the doctor) is imported only then: `--help` and the other subcommands evaluate none of them.
 */
const OWN_COMMANDS: readonly (readonly [name: string, load: () => Promise<OwnCommand>])[] = [
  ['gateway', async () => (await import('./gateway.js')).gatewayCommand],
  ['eval', async () => (await import('./eval.js')).evalCommand],
  ['lint', async () => (await import('./lint.js')).lintCommand],
  ['load', async () => (await import('./load.js')).loadCommand],
  ['doctor', async () => (await import('./doctor.js')).doctorCommand],
  ['events', async () => (await import('./events.js')).eventsCommand],
  ['card', async () => (await import('./card.js')).cardCommand],
];

/**
 * Subcommands that start no connection of main's (or their own kind of one), by name: imported when they run.
 */
const OTHER_COMMANDS: Readonly<Record<string, (args: ParsedArgs) => Promise<number>>> = {
  conformance: async (args) => (await import('./conformance.js')).runConformance(args),
  logout: (args) => runLogout(args),
  registry: async (args) => (await import('./registry.js')).runRegistry(args),
  test: async (args) => (await import('./recordings.js')).runRecordingTest(args),
};

export async function main(argv: readonly string[]): Promise<number> {
  for (const [name, load] of OWN_COMMANDS) {
    if (!argv.includes(name)) continue;
    const own = (await load())(argv, USAGE);
    if (own) return own;
  }
  let args: ParsedArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    process.stderr.write(`${errorMessage(error)}\n\n${USAGE}\n`);
    return 2;
  }
  if (args.help || !args.subcommand) {
    (args.help ? process.stdout : process.stderr).write(`${USAGE}\n`);
    return args.help ? 0 : 2;
  }
  if (Object.hasOwn(OTHER_COMMANDS, args.subcommand)) return OTHER_COMMANDS[args.subcommand](args);
  if (args.record !== undefined && args.subcommand !== 'session') {
    process.stderr.write('--record goes with session: session --record <file.mcptest.json>\n');
    return 2;
  }
  const runner = args.subcommand === 'session' ? undefined : RUNNERS[args.subcommand];
  if (args.subcommand !== 'session' && !runner) {
    process.stderr.write(`unknown subcommand "${args.subcommand}"\n\n${USAGE}\n`);
    return 2;
  }
  let client: McpClient | undefined;
  let target: Target | undefined;
  const interrupt = new AbortController();
  let closing: Promise<void> | undefined;
  const closeOnce = (): Promise<void> =>
    client ? (closing ??= client.close().catch(() => undefined)) : Promise.resolve();
  // The server runs in its own process group, so a Ctrl-C in the terminal does not reach it: stop it the usual way
  // (stdin, SIGTERM, SIGKILL) instead of leaving it running. A second signal skips the remaining grace.
  const onSignal = (signal: NodeJS.Signals): void => {
    if (interrupt.signal.aborted) {
      void client?.close().catch(() => undefined);
      return;
    }
    interrupt.abort(signal);
    process.stderr.write(`${signal}: stopping ${client?.serverName ?? 'the server'}\n`);
    void closeOnce();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    if (args.subcommand === 'session' && args.positionals.length > 0)
      throw new UsageError('session takes no arguments: it reads one command per line from stdin');
    if (Object.hasOwn(OPERANDS_CHECKED_BEFORE_START, args.subcommand))
      OPERANDS_CHECKED_BEFORE_START[args.subcommand](args);
    // The client, its transports and the config readers load once a subcommand is known to connect.
    const [{ createClient, resolveTarget, verboseWriter }, { sessionRecorder }, { runSession }] = await Promise.all([
      import('./connect.js'),
      import('./recordings.js'),
      import('./session.js'),
    ]);
    target = await resolveTarget(args);
    const recorder = sessionRecorder(args, target);
    interrupt.signal.throwIfAborted(); // interrupted before anything was started
    client = createClient(target, args);
    reportTaskProgress(client);
    await client.connect();
    if (args.verbose) verboseWriter(target)(describeSession(client, target));
    if (!runner) {
      const code = await runSession(
        client,
        args,
        recorder?.wrap(RUNNERS) ?? RUNNERS,
        process.stdin,
        (line) => process.stdout.write(`${line}\n`),
        target.secrets,
        interrupt.signal,
      );
      await recorder?.write(); // what was recorded is written also when interrupted
      return interrupt.signal.aborted ? interruptedExitCode(interrupt.signal.reason) : code;
    }
    const { output, failure } = await runner(client, args);
    await writeJsonOutput(process.stdout, output);
    if (failure) process.stderr.write(`${maskText(failure.message, target.secrets)}\n`);
    return failure ? 1 : 0;
  } catch (error) {
    if (interrupt.signal.aborted) return interruptedExitCode(interrupt.signal.reason);
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    process.stderr.write(`${printable(maskText(describeFailure(error, client?.serverName), target?.secrets ?? []))}\n`);
    return 1;
  } finally {
    await closeOnce();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

async function runLogout(args: ParsedArgs): Promise<number> {
  try {
    const { logout } = await import('./auth.js');
    process.stdout.write(`${toJsonText(await logout(args), 2)}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`${printable(errorMessage(error))}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}

/** The shell's convention: 128 + the signal number. */
function interruptedExitCode(signal: unknown): number {
  return signal === 'SIGTERM' ? 143 : 130;
}

/** The --verbose line after the handshake: the era, the revision and the transport that won. */
function describeSession(client: McpClient, target: Target): string {
  const session = client.session;
  const kind = client.transport.kind;
  const fallback = target.httpMode === 'auto' && kind === 'sse' ? ', after the server refused Streamable HTTP' : '';
  const server = `${JSON.stringify(session.serverInfo.name)} ${JSON.stringify(session.serverInfo.version)}`;
  switch (session.kind) {
    case 'handshake':
      return `connected: handshake era (initialize), protocol ${session.protocolVersion}, transport ${describeTransportKind(kind)}${fallback}; the server calls itself ${server}`;
    case 'modern':
      return `connected: 2026-07-28 era (stateless, server/discover), revision ${session.protocolVersion}, transport ${describeTransportKind(kind)}${fallback}; the server calls itself ${server}`;
  }
}

function describeTransportKind(kind: TransportKind): string {
  switch (kind) {
    case 'stdio':
      return 'stdio';
    case 'streamable-http':
      return 'Streamable HTTP';
    case 'sse':
      return 'HTTP+SSE (2024-11-05)';
  }
}

function describeFailure(error: unknown, serverName: string | undefined): string {
  const message = errorMessage(error);
  // Named up front unless the message already starts with the name: a name found anywhere inside (a command
  // "nodee" in 'command not found: "nodee"', a folder in a PATH) did not name the server.
  const named = serverName && !message.startsWith(serverName) ? `${serverName}: ${message}` : message;
  if (error instanceof McpError) return `error from server: ${named}`;
  if (error instanceof LocalError) return `error (${error.kind}): ${named}`;
  return `error: ${named}`;
}
