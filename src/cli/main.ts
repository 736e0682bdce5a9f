import { LocalError, McpError, errorMessage } from '../protocol/errors';
import type { McpClient } from '../protocol/client';
import { LOGGING_LEVELS, type CompletionReference, type LoggingLevel } from '../protocol/types';
import { UsageError, parseArgs, parseJsonObjectArgument, type ParsedArgs } from './args';
import { runConformance } from './conformance';
import { createClient, resolveTarget } from './connect';

const USAGE = `Usage: mcp-workbench <subcommand> [arguments] (--stdio "<command line>" | --url <url> | --config <mcp.json> --server <name>)

Subcommands:
  info                                 server name, version, protocol revision, capabilities, instructions
  tools                                list every tool (all pages)
  call <tool> [json-arguments]         call a tool; exit 1 when the result is an error
  resources                            list resources
  templates                            list resource templates
  read <uri>                           read a resource
  prompts                              list prompts
  prompt <name> [json-arguments]       get a prompt
  complete prompt <name> <argument> <value>
  complete resource <uri-template> <argument> <value>
  ping                                 ping the server
  conformance <url>                    act as the client under the official conformance suite
                                       (scenario from MCP_CONFORMANCE_SCENARIO)

Options:
  --timeout <ms>            bound each request (default 60000)
  --header "Name: value"    extra HTTP header (repeatable)
  --transport auto|streamable-http|sse   HTTP transport (default auto: Streamable HTTP, falling back to SSE)
  --era auto|2026-07-28|legacy   protocol era (default auto: 2026-07-28 via server/discover, falling back
                            to the initialize handshake for an older server)
  --env NAME=value          extra environment variable for a stdio server (repeatable)
  --cwd <dir>               working directory of a stdio server
  --input id=value          value for \${input:id} in a config file (repeatable)
  --verbose                 log protocol details to stderr

Output is JSON on stdout. Exit codes: 0 success, 1 server/protocol/tool failure, 2 usage error.`;

type Runner = (client: McpClient, args: ParsedArgs) => Promise<{ output: unknown; failed?: boolean }>;

const RUNNERS: Record<string, Runner> = {
  info: async (client) => {
    const session = client.session;
    return {
      output: {
        serverInfo: session.serverInfo,
        era: session.kind === 'modern' ? '2026-07-28' : 'legacy',
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
  tools: async (client) => ({ output: await client.listTools() }),
  call: async (client, args) => {
    const [name, json] = args.positionals;
    if (!name) throw new UsageError('call needs a tool name');
    const toolArgs = parseJsonObjectArgument(json, 'tool arguments');
    await client.listTools(); // lets the client validate structuredContent against the tool's outputSchema
    const outcome = await client.callTool(name, toolArgs);
    const invalid = outcome.outputValidation?.kind === 'invalid';
    if (invalid) process.stderr.write(`${client.serverName}: structuredContent of ${name} does not match its outputSchema\n`);
    if (outcome.result.isError) process.stderr.write(`${client.serverName}: tool ${name} reported an error\n`);
    return { output: { ...outcome.result, ...(outcome.outputValidation ? { outputValidation: outcome.outputValidation } : {}) }, failed: outcome.result.isError === true || invalid };
  },
  resources: async (client) => ({ output: await client.listResources() }),
  templates: async (client) => ({ output: await client.listResourceTemplates() }),
  read: async (client, args) => {
    const [uri] = args.positionals;
    if (!uri) throw new UsageError('read needs a resource URI');
    return { output: await client.readResource(uri) };
  },
  prompts: async (client) => ({ output: await client.listPrompts() }),
  prompt: async (client, args) => {
    const [name, json] = args.positionals;
    if (!name) throw new UsageError('prompt needs a prompt name');
    const promptArgs = parseJsonObjectArgument(json, 'prompt arguments');
    const stringArgs = Object.fromEntries(Object.entries(promptArgs).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    return { output: await client.getPrompt(name, stringArgs) };
  },
  complete: async (client, args) => {
    const [kind, target, argument, value = ''] = args.positionals;
    if ((kind !== 'prompt' && kind !== 'resource') || !target || !argument) {
      throw new UsageError('complete needs: prompt <name> <argument> <value>, or resource <uri-template> <argument> <value>');
    }
    const ref: CompletionReference = kind === 'prompt' ? { type: 'ref/prompt', name: target } : { type: 'ref/resource', uri: target };
    return { output: await client.complete(ref, { name: argument, value }) };
  },
  'set-level': async (client, args) => {
    const [level] = args.positionals;
    if (!LOGGING_LEVELS.includes(level as LoggingLevel)) throw new UsageError(`level must be one of ${LOGGING_LEVELS.join(', ')}`);
    await client.setLoggingLevel(level as LoggingLevel);
    return { output: { ok: true } };
  },
};

export async function main(argv: readonly string[]): Promise<number> {
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
  if (args.subcommand === 'conformance') return runConformance(args);
  const runner = RUNNERS[args.subcommand];
  if (!runner) {
    process.stderr.write(`unknown subcommand "${args.subcommand}"\n\n${USAGE}\n`);
    return 2;
  }
  let client: McpClient | undefined;
  try {
    const target = await resolveTarget(args);
    client = createClient(target, args);
    await client.connect();
    const { output, failed } = await runner(client, args);
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    return failed ? 1 : 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    process.stderr.write(`${describeFailure(error, client?.serverName)}\n`);
    return 1;
  } finally {
    await client?.close().catch(() => undefined);
  }
}

function describeFailure(error: unknown, serverName: string | undefined): string {
  const message = errorMessage(error);
  const named = serverName && !message.includes(serverName) ? `${serverName}: ${message}` : message;
  if (error instanceof McpError) return `error from server: ${named}`;
  if (error instanceof LocalError) return `error (${error.kind}): ${named}`;
  return `error: ${named}`;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`internal error: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
