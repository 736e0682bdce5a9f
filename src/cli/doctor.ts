/**
 * `mcp-workbench doctor`: walks a server from its config entry to its lists (src/workbench/doctor/) and stops at the
 * first step that fails, with its cause and a fix. Exit 0 when every step passed, 1 when one failed (named on
 * stderr), 2 on a usage error.
 */
import { readFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ServerDefinition } from '../workbench/config/mcpConfig';
import { splitCommandLine } from '../workbench/config/commandLine';
import type { McpClient } from '../protocol/client';
import {
  firstFailure,
  runDoctor,
  type DoctorHost,
  type DoctorReport,
  type DoctorSubject,
} from '../workbench/doctor/doctor';
import { doctorText } from '../workbench/doctor/doctorReport';
import { createTransport, planStdioLaunch, resolveServerWithSecrets } from '../workbench/node/launch';
import { maskText } from '../workbench/secrets';
import { UsageError, type ParsedArgs } from './args';
import { ownCommand, reportFailure, stopExitCode } from './ownCommand';
import { createClient } from './connect';
import { cliAuthorizer } from './oauthSignIn';
import { PersonWaits } from '../protocol/jsonrpc/personWaits';
import { printable } from './printable';
import { stdioServerName } from './serverName';

/** A command-line run waits for nobody (as in connect.ts): a server that ignores stdin's end gets SIGTERM soon. */
const CLI_SHUTDOWN_GRACE_MS = 500;

/** The doctor's run when the command line asks for it, else undefined (main goes on with the other subcommands). */
export function doctorCommand(argv: readonly string[], usage: string): Promise<number> | undefined {
  return ownCommand(argv, usage, {
    name: 'doctor',
    flags: (words) => ({ json: words.includes('--json'), rest: words.filter((word) => word !== '--json') }),
    run: (args, flags) => runDoctorCommand(args, flags.json),
  });
}

async function subjectOf(args: ParsedArgs): Promise<DoctorSubject> {
  const chosen = [args.stdio !== undefined, args.url !== undefined, args.config !== undefined].filter(Boolean).length;
  if (chosen !== 1)
    throw new UsageError(
      'give exactly one of --stdio "<command line>", --url <url>, or --config <mcp.json> --server <name>',
    );
  if (args.config !== undefined) {
    const file = path.resolve(args.config);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read config file ${file}: ${(error as Error).message}`);
    }
    return { kind: 'config', file, text, server: args.server };
  }
  if (args.url !== undefined) {
    const definition: ServerDefinition = {
      kind: 'http',
      name: args.url,
      url: args.url,
      headers: { ...args.headers },
      transport: args.transport === 'sse' ? 'sse' : 'auto',
    };
    return { kind: 'definition', definition, origin: '--url' };
  }
  let words: string[];
  try {
    words = splitCommandLine(args.stdio ?? '');
  } catch (error) {
    throw new UsageError(`${(error as Error).message} in command line: ${args.stdio}`);
  }
  const [command, ...commandArgs] = words;
  if (!command) throw new UsageError('--stdio needs a command line');
  const cwd = args.cwd === undefined ? process.cwd() : path.resolve(args.cwd);
  const definition: ServerDefinition = {
    kind: 'stdio',
    name: stdioServerName(command, commandArgs, cwd),
    command,
    args: commandArgs,
    env: { ...args.env },
    cwd,
  };
  return { kind: 'definition', definition, origin: '--stdio' };
}

function cliDoctorHost(args: ParsedArgs, file: string | undefined): DoctorHost {
  // The config lives in <folder>/.vscode/mcp.json or <folder>/mcp.json; either way <folder> is the workspace.
  const dir = file === undefined ? process.cwd() : path.dirname(file);
  const workspaceFolder = path.basename(dir) === '.vscode' ? path.dirname(dir) : dir;
  return {
    resolve: (definition) =>
      resolveServerWithSecrets(definition, {
        workspaceFolder,
        userHome: os.homedir(),
        env: process.env,
        input: async (id) =>
          args.inputs[id] ?? process.env[`MCP_INPUT_${id.replace(/[^A-Za-z0-9]/g, '_').toUpperCase()}`],
      }),
    planLaunch: (server) => planStdioLaunch({ ...server, env: { ...server.env, ...args.env } }),
    createClient: (resolved, plan, secrets) => {
      if (resolved.kind === 'http') Object.assign(resolved.headers, args.headers);
      if (resolved.kind === 'stdio') Object.assign(resolved.env, args.env);
      const personWaits = new PersonWaits();
      const transport = createTransport(resolved, {
        launch: plan?.kind === 'ready' ? plan.launch : undefined,
        shutdownGraceMs: args.shutdownGraceMs ?? CLI_SHUTDOWN_GRACE_MS,
        limits: args.limits,
        authorizer:
          resolved.kind === 'http'
            ? cliAuthorizer({
                serverUrl: resolved.url,
                serverName: resolved.name,
                args,
                config: resolved.oauth,
                personWaits,
              })
            : undefined,
      });
      const allSecrets = [...secrets, ...hostSecrets(args)];
      return createClient(
        {
          name: resolved.name,
          transport,
          description: maskText(resolved.kind === 'http' ? resolved.url : resolved.command, allSecrets),
          secrets: allSecrets,
          era: resolved.era,
          personWaits,
        },
        { ...args, verbose: false },
      );
    },
    inputFix: (id) =>
      `pass --input ${id}=<value>, or set MCP_INPUT_${id.replace(/[^A-Za-z0-9]/g, '_').toUpperCase()} in the environment`,
    secrets: hostSecrets(args),
  };
}

function hostSecrets(args: ParsedArgs): string[] {
  return [
    ...Object.values(args.headers),
    ...Object.values(args.env),
    ...Object.values(args.inputs),
    ...(args.clientSecret ? [args.clientSecret] : []),
  ];
}

async function runDoctorCommand(args: ParsedArgs, json: boolean): Promise<number> {
  if (args.positionals.length > 0) {
    process.stderr.write(`doctor takes no operands (got ${args.positionals.join(' ')})\n`);
    return 2;
  }
  let subject: DoctorSubject;
  try {
    subject = await subjectOf(args);
  } catch (error) {
    return reportFailure(error, undefined, []);
  }
  const host = cliDoctorHost(args, subject.kind === 'config' ? subject.file : undefined);
  // A Ctrl+C stops the server doctor started (it runs in its own process group, so the terminal's signal does not
  // reach it) and ends the run; the steps so far are not a verdict.
  let client: McpClient | undefined;
  const createOwnClient = host.createClient;
  host.createClient = async (...made) => (client = await createOwnClient(...made));
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted ??= signal;
    void client?.close().catch(() => undefined);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let report: DoctorReport;
  try {
    report = await runDoctor(subject, host);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (interrupted) {
    process.stderr.write(`${interrupted}: doctor stopped\n`);
    return stopExitCode(interrupted);
  }
  if (json) process.stdout.write(`${JSON.stringify({ server: report.server, steps: report.steps })}\n`);
  else process.stdout.write(`${printable(doctorText(report))}\n`);
  const failed = firstFailure(report);
  if (failed) process.stderr.write(`doctor: the step "${failed.step}" failed\n`);
  return failed ? 1 : 0;
}
