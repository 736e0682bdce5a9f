/**
 * `mcp-workbench lint`: will every client accept this server's tools? Connects, lists tools, resource templates and
 * prompts, optionally calls one tool for a sample result, and runs the workbench's lint (src/workbench/lint), the
 * same the editor's badges and Problems show.
 */
import type { McpClient } from '../protocol/client';
import { errorMessage } from '../protocol/errors';
import { atLeast, bySeverity, type LintFinding } from '../workbench/lint/findings';
import { lintServer, type LintReport } from '../workbench/lint/lintServer';
import type { LintSeverity } from '../workbench/lint/rules';
import { maskText } from '../workbench/secrets';
import { UsageError, parseArgs, parseJsonObjectArgument, type ParsedArgs } from './args';
import { createClient, resolveTarget } from './connect';
import { writeJsonOutput } from './output';
import { printable } from './printable';

interface LintFlags {
  json: boolean;
  failOn: Exclude<LintSeverity, 'info'>;
  call?: string;
  args?: string;
  rest: string[];
}

function lintFlags(argv: readonly string[]): LintFlags {
  const flags: LintFlags = { json: false, failOn: 'error', rest: [] };
  const value = (i: number, flag: string): string => {
    const arg = argv[i];
    const given = arg.startsWith(`${flag}=`) ? arg.slice(flag.length + 1) : argv[i + 1];
    if (given === undefined) throw new UsageError(`${flag} needs a value`);
    return given;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const flag = arg.split('=', 1)[0];
    if (arg === '--json') flags.json = true;
    else if (flag === '--fail-on' || flag === '--call' || flag === '--args') {
      const given = value(i, flag);
      if (!arg.includes('=')) i++;
      if (flag === '--fail-on') {
        if (given !== 'warning' && given !== 'error') throw new UsageError('--fail-on must be warning or error');
        flags.failOn = given;
      } else if (flag === '--call') flags.call = given;
      else flags.args = given;
    } else flags.rest.push(arg);
  }
  if (flags.args !== undefined && flags.call === undefined) throw new UsageError('--args goes with --call <tool>');
  return flags;
}

/** The lint run when the command line asks for it, else undefined (main goes on with the other subcommands). */
export function lintCommand(argv: readonly string[], usage: string): Promise<number> | undefined {
  if (!argv.includes('lint')) return undefined;
  let flags: LintFlags;
  let args: ParsedArgs;
  try {
    flags = lintFlags(argv);
    args = parseArgs(flags.rest);
    if (args.subcommand !== 'lint' || args.help) return undefined;
    if (args.positionals.length > 0) throw new UsageError('lint takes no arguments');
    if (flags.args !== undefined) parseJsonObjectArgument(flags.args, 'tool arguments');
  } catch (error) {
    process.stderr.write(`${errorMessage(error)}\n\n${usage}\n`);
    return Promise.resolve(2);
  }
  return runLint(args, flags);
}

async function runLint(args: ParsedArgs, flags: LintFlags): Promise<number> {
  let client: McpClient | undefined;
  let secrets: readonly string[] = [];
  try {
    const target = await resolveTarget(args);
    secrets = target.secrets;
    client = createClient(target, args);
    await client.connect();
    const report = await lintClient(client, target.name, flags);
    const findings = bySeverity(report.findings);
    if (flags.json) await writeJsonOutput(process.stdout, { findings, context: report.context });
    else process.stdout.write(readable(findings, report));
    return findings.some((finding) => atLeast(finding.severity, flags.failOn)) ? 1 : 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    process.stderr.write(`${printable(maskText(errorMessage(error), secrets))}\n`);
    return 1;
  } finally {
    await client?.close().catch(() => undefined);
  }
}

async function lintClient(client: McpClient, serverName: string, flags: LintFlags): Promise<LintReport> {
  const capabilities = client.session.capabilities;
  const tools = capabilities.tools ? await client.listTools() : [];
  const templates = capabilities.resources ? await client.listResourceTemplates() : [];
  const prompts = capabilities.prompts ? await client.listPrompts() : [];
  let sample: { toolName: string; result: unknown } | undefined;
  if (flags.call !== undefined) {
    const outcome = await client.callTool(flags.call, parseJsonObjectArgument(flags.args, 'tool arguments'));
    sample = { toolName: flags.call, result: outcome.result };
  }
  return lintServer({
    serverName,
    protocolVersion: client.session.protocolVersion,
    tools,
    templates,
    prompts,
    sample,
  });
}

function readable(findings: readonly LintFinding[], report: LintReport): string {
  const lines = findings.map((finding) => {
    const where = finding.path ? ` ${finding.path}` : '';
    const fix = finding.fix ? `\n    fix: ${finding.fix}` : '';
    return printable(
      `${finding.severity.padEnd(7)} ${finding.rule}  ${finding.target}${where}\n    ${finding.message}${fix}`,
    );
  });
  const count = (severity: LintSeverity) => findings.filter((finding) => finding.severity === severity).length;
  lines.push(
    `${count('error')} errors, ${count('warning')} warnings, ${count('info')} notes; about ${report.context.totalTokens} tokens for ${report.context.tools.length} tools${report.dropped > 0 ? `; ${report.dropped} more findings left out` : ''}`,
  );
  return `${lines.join('\n')}\n`;
}
