/**
 * `mcp-workbench lint`: will every client accept this server's tools? Connects, lists tools, resource templates and
 * prompts, optionally calls one tool for a sample result, and runs the workbench's lint (src/workbench/lint), the
 * same the editor's badges and Problems show.
 */
import type { McpClient } from '../protocol/client';
import { atLeast, bySeverity, type LintFinding } from '../workbench/lint/findings';
import { lintServer, type LintReport } from '../workbench/lint/lintServer';
import type { LintSeverity } from '../workbench/lint/rules';
import { UsageError, parseJsonObjectArgument } from './args';
import { connectedRun, ownCommand, takeFlags } from './ownCommand';
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
  const flags: Omit<LintFlags, 'rest'> = { json: false, failOn: 'error' };
  const rest = takeFlags(argv, (flag, value, arg) => {
    if (arg === '--json') flags.json = true;
    else if (flag === '--fail-on' || flag === '--call' || flag === '--args') {
      const given = value();
      if (given === undefined) throw new UsageError(`${flag} needs a value`);
      if (flag === '--fail-on') {
        if (given !== 'warning' && given !== 'error') throw new UsageError('--fail-on must be warning or error');
        flags.failOn = given;
      } else if (flag === '--call') flags.call = given;
      else flags.args = given;
    } else return false;
    return true;
  });
  if (flags.args !== undefined && flags.call === undefined) throw new UsageError('--args goes with --call <tool>');
  return { ...flags, rest };
}

/** The lint run when the command line asks for it, else undefined (main goes on with the other subcommands). */
export function lintCommand(argv: readonly string[], usage: string): Promise<number> | undefined {
  return ownCommand(argv, usage, {
    name: 'lint',
    flags: lintFlags,
    check(args, flags) {
      if (args.positionals.length > 0) throw new UsageError('lint takes no arguments');
      if (flags.args !== undefined) parseJsonObjectArgument(flags.args, 'tool arguments');
    },
    run: (args, flags) =>
      connectedRun(async (run) => {
        const { client, target } = await run.connect(args);
        const report = await lintClient(client, target.name, flags);
        const findings = bySeverity(report.findings);
        if (flags.json) await writeJsonOutput(process.stdout, { findings, context: report.context });
        else process.stdout.write(readable(findings, report));
        return findings.some((finding) => atLeast(finding.severity, flags.failOn)) ? 1 : 0;
      }),
  });
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
