/**
 * Doctor: walks every step between a server's config entry and a working server, and stops at the first that fails
 * with its cause and a fix. The steps are host-neutral; what needs Node (reading the file, the PATH lookup, the
 * process) or the host's own client options (sign-in, limits) comes from the host (`DoctorHost`: the CLI's is in
 * src/cli/doctor.ts).
 *
 * Every detail and fix is masked with the server's secrets (the resolved `${input:…}`/`${env:…}` values, header and
 * env values) before it is returned: the report is made to be pasted into an issue tracker.
 */
import type { McpClient } from '../../protocol/client';
import { LocalError, McpError, errorMessage, type ErrorDetail } from '../../protocol/errors';
import { parseMcpConfig, type ServerDefinition } from '../config/mcpConfig';
import { maskText } from '../secrets';
import { clientFindings } from './clientLimits';
import { lintServer } from '../lint/lintServer';

export type DoctorStepName =
  'config' | 'variables' | 'command' | 'url' | 'start' | 'sign-in' | 'handshake' | 'lists' | 'lint' | 'clients';

export interface DoctorStep {
  step: DoctorStepName;
  ok: boolean;
  detail: string;
  /** What to do about a failed step (absent when it passed). */
  fix?: string;
}

export interface DoctorReport {
  server: string;
  steps: DoctorStep[];
}

/** Where the server's definition comes from. */
export type DoctorSubject =
  /** A config file's text (the host read it) and the server to check (optional when the file has one). */
  | { kind: 'config'; file: string; text: string; server?: string }
  /** A definition made by the host (a command line's --stdio or --url), and how to say where it came from. */
  | { kind: 'definition'; definition: ServerDefinition; origin: string };

/** The launch doctor checks a stdio command with (the shape of src/workbench/node/launch.ts planStdioLaunch). */
export type DoctorLaunchPlan =
  | { kind: 'ready'; launch: { command: string; args: string[] } }
  | { kind: 'not-found'; searched: string[]; hint: string };

type StdioDefinition = Extract<ServerDefinition, { kind: 'stdio' }>;

export interface DoctorHost {
  /** Resolves the entry's variables; rejects with the reason (an input without a value, an unreadable envFile). */
  resolve(definition: ServerDefinition): Promise<{ resolved: ServerDefinition; secrets: string[] }>;
  /** Finds a stdio server's command on the PATH it will run with. */
  planLaunch(server: StdioDefinition): Promise<DoctorLaunchPlan>;
  /** The client for the resolved server, not yet connected (stdio: spawned with `launch`). */
  createClient(
    resolved: ServerDefinition,
    launch: DoctorLaunchPlan | undefined,
    secrets: string[],
  ): McpClient | Promise<McpClient>;
  /** How a person gives an input its value on this host (the CLI: `--input id=value`). */
  inputFix(id: string): string;
  /** Values to mask besides the entry's own (the host's flags). */
  secrets?: readonly string[];
}

/** Stderr lines kept for the start step: enough for a stack trace's head, little enough to paste. */
const STDERR_TAIL_LINES = 20;

/** The error kinds of a process that could not start or ended before it answered. */
const START_FAILURES = new Set([
  'command-not-found',
  'command-empty',
  'path-not-found',
  'not-executable',
  'process-exited',
  'process-killed',
  'process-gone',
  'permission-denied',
  'cwd-unusable',
]);

class Walk {
  readonly steps: DoctorStep[] = [];
  secrets: string[] = [];

  constructor(private readonly hostSecrets: readonly string[]) {}

  pass(step: DoctorStepName, detail: string): void {
    this.steps.push({ step, ok: true, detail: this.mask(detail) });
  }

  fail(step: DoctorStepName, detail: string, fix: string): void {
    this.steps.push({ step, ok: false, detail: this.mask(detail), fix: this.mask(fix) });
  }

  private mask(text: string): string {
    return maskText(text, [...this.secrets, ...this.hostSecrets]);
  }
}

/** The `${…}` variables an entry uses, by name (never their values). */
function variablesOf(definition: ServerDefinition): string[] {
  const texts: string[] = [];
  switch (definition.kind) {
    case 'stdio':
      texts.push(definition.command, ...definition.args, definition.cwd ?? '', definition.envFile ?? '');
      for (const value of Object.values(definition.env)) if (value !== null) texts.push(value);
      break;
    case 'http':
      texts.push(definition.url, ...Object.values(definition.headers));
      if (definition.oauth) texts.push(definition.oauth.clientId ?? '', definition.oauth.clientSecret ?? '');
      break;
  }
  const names = new Set<string>();
  for (const text of texts) for (const match of text.matchAll(/\$\{([^}]+)\}/g)) names.add(`\${${match[1]}}`);
  return [...names];
}

function configStep(walk: Walk, subject: DoctorSubject): ServerDefinition | undefined {
  if (subject.kind === 'definition') {
    walk.pass('config', `${subject.definition.kind} server "${subject.definition.name}" from ${subject.origin}`);
    return subject.definition;
  }
  const config = parseMcpConfig(subject.text);
  const names = config.servers.map((server) => server.name);
  const syntax = config.problems.find((problem) => problem.syntax);
  if (syntax && config.servers.length === 0) {
    walk.fail('config', `${subject.file} does not parse: ${syntax.message}`, `fix the JSON of ${subject.file}`);
    return undefined;
  }
  const wanted = subject.server ?? (config.servers.length === 1 ? config.servers[0].name : undefined);
  if (wanted === undefined) {
    walk.fail(
      'config',
      `${subject.file} defines ${names.length} servers (${names.join(', ') || 'none'}) and none was named`,
      'name the server to check (--server <name>)',
    );
    return undefined;
  }
  const definition = config.servers.find((server) => server.name === wanted);
  if (!definition) {
    const problem = config.problems.find((p) => p.server === wanted);
    if (problem)
      walk.fail(
        'config',
        `server "${wanted}" in ${subject.file} is invalid: ${problem.message}`,
        `correct the entry "${wanted}" in ${subject.file}`,
      );
    else
      walk.fail(
        'config',
        `${subject.file} has no server "${wanted}"; it defines: ${names.join(', ') || '(none)'}`,
        names.length > 0 ? `use one of: ${names.join(', ')}` : `add "${wanted}" under "servers" in ${subject.file}`,
      );
    return undefined;
  }
  walk.pass('config', `${definition.kind} server "${definition.name}" in ${subject.file}`);
  return definition;
}

async function variablesStep(
  walk: Walk,
  host: DoctorHost,
  definition: ServerDefinition,
): Promise<ServerDefinition | undefined> {
  const used = variablesOf(definition);
  try {
    const { resolved, secrets } = await host.resolve(definition);
    walk.secrets = secrets;
    walk.pass(
      'variables',
      used.length === 0 ? 'the entry uses no variables' : `resolved ${used.join(', ')} (values masked)`,
    );
    return resolved;
  } catch (error) {
    // The variable resolver's error and LocalError both carry an ErrorDetail: an input without a value names it.
    const detail = (error as { detail?: ErrorDetail } | undefined)?.detail;
    const input = detail?.kind === 'input-without-value' ? detail.input : undefined;
    walk.fail(
      'variables',
      `${used.length > 0 ? `of ${used.join(', ')}: ` : ''}${errorMessage(error)}`,
      input !== undefined
        ? host.inputFix(input)
        : 'give every variable a value: set the environment variable, or correct the name in the entry',
    );
    return undefined;
  }
}

async function commandStep(
  walk: Walk,
  host: DoctorHost,
  resolved: ServerDefinition,
): Promise<{ ok: boolean; plan?: DoctorLaunchPlan }> {
  if (resolved.kind === 'http') {
    let url: URL;
    try {
      url = new URL(resolved.url);
    } catch {
      walk.fail('url', `"${resolved.url}" is not a URL`, 'write the full URL, e.g. https://example.com/mcp');
      return { ok: false };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      walk.fail('url', `${url.protocol} is not HTTP`, 'use an http:// or https:// URL');
      return { ok: false };
    }
    walk.pass('url', `${url.origin}${url.pathname} over ${resolved.transport === 'sse' ? 'HTTP+SSE' : 'HTTP'}`);
    return { ok: true };
  }
  const plan = await host.planLaunch(resolved);
  if (plan.kind === 'not-found') {
    walk.fail(
      'command',
      `the command "${resolved.command}" was not found: ${plan.hint}`,
      `install ${resolved.command} or correct "command" in the entry (is it spelled right?); or give its absolute path${
        plan.searched.length > 0 ? `. Folders searched: ${plan.searched.join(', ')}` : ''
      }`,
    );
    return { ok: false };
  }
  walk.pass('command', `"${resolved.command}" is ${plan.launch.command}`);
  return { ok: true, plan };
}

function isSignInFailure(error: unknown): boolean {
  if (!(error instanceof LocalError)) return false;
  const detail = error.detail;
  if (detail?.kind === 'sign-in-unfinished') return true;
  return detail?.kind === 'http-status' && (detail.status === 401 || detail.status === 403);
}

function stderrNote(tail: readonly string[]): string {
  return tail.length === 0 ? 'it wrote nothing on stderr' : `its last stderr lines:\n${tail.join('\n')}`;
}

async function connectSteps(
  walk: Walk,
  client: McpClient,
  resolved: ServerDefinition,
  stderr: readonly string[],
): Promise<boolean> {
  try {
    await client.connect();
  } catch (error) {
    const kind = error instanceof LocalError ? (error.detail?.kind ?? error.kind) : undefined;
    if (resolved.kind === 'stdio' && kind !== undefined && START_FAILURES.has(kind)) {
      const message = errorMessage(error);
      // The transport's own message already ends with the stderr tail when there was one.
      walk.fail(
        'start',
        `the process did not start or ended before it answered: ${message}${/stderr/.test(message) ? '' : `; ${stderrNote(stderr)}`}`,
        /stderr/.test(message) || stderr.length > 0
          ? 'the stderr lines above are usually the cause (a missing dependency, a wrong argument, an unset environment variable); run the same command in a terminal to try a fix'
          : 'run the same command in a terminal and read what it says: it exited before answering and wrote nothing on stderr',
      );
      return false;
    }
    if (resolved.kind === 'http' && error instanceof LocalError && error.detail?.kind === 'unreachable') {
      walk.fail(
        'start',
        `the server did not answer: ${errorMessage(error)}`,
        'check the URL, and that the server runs',
      );
      return false;
    }
    walk.pass(
      'start',
      resolved.kind === 'stdio' ? `the process started; ${stderrNote(stderr)}` : 'the server answered',
    );
    if (resolved.kind === 'http' && isSignInFailure(error)) {
      walk.fail(
        'sign-in',
        `the server asks for a sign-in that did not complete: ${errorMessage(error)}`,
        'sign in (the CLI opens the browser; in the editor use Sign In on the server), or set the credentials the server expects in "headers"',
      );
      return false;
    }
    walk.fail(
      'handshake',
      `the server answered, but the handshake failed: ${errorMessage(error)}${resolved.kind === 'stdio' ? `; ${stderrNote(stderr)}` : ''}`,
      error instanceof McpError
        ? `the server refused the handshake (error ${error.code}); check its version supports MCP 2024-11-05 or later, and its logs`
        : 'the server must answer initialize (or server/discover) on stdout with JSON-RPC only: a log line on stdout breaks it; pin the era with "era" in the entry if the probe is the problem',
    );
    return false;
  }
  walk.pass(
    'start',
    resolved.kind === 'stdio'
      ? `the process started${stderr.length > 0 ? ` and wrote ${stderr.length} stderr lines` : ''}`
      : 'the server answered',
  );
  if (resolved.kind === 'http') walk.pass('sign-in', 'no sign-in was asked for, or the saved one was accepted');
  const session = client.session;
  walk.pass(
    'handshake',
    `${session.kind === 'modern' ? '2026-07-28 era (server/discover)' : `handshake era (initialize), revision ${session.protocolVersion}`}; the server calls itself ${JSON.stringify(session.serverInfo.name)} ${JSON.stringify(session.serverInfo.version)}`,
  );
  return true;
}

/** What the lists step read, for the lint and clients steps. */
interface Listed {
  tools: readonly { name: string }[];
  templates: readonly unknown[];
  prompts: readonly unknown[];
}

async function listsStep(walk: Walk, client: McpClient): Promise<Listed | undefined> {
  const capabilities = client.session.capabilities;
  const sizes: string[] = [];
  const listed: Listed = { tools: [], templates: [], prompts: [] };
  const lists: [keyof typeof capabilities, string, () => Promise<{ length: number }>][] = [
    ['tools', 'tools', async () => (listed.tools = await client.listTools())],
    ['resources', 'resources', () => client.listResources()],
    ['resources', 'resource templates', async () => (listed.templates = await client.listResourceTemplates())],
    ['prompts', 'prompts', async () => (listed.prompts = await client.listPrompts())],
  ];
  for (const [capability, what, list] of lists) {
    if (!capabilities[capability]) continue;
    try {
      sizes.push(`${(await list()).length} ${what}`);
    } catch (error) {
      walk.fail(
        'lists',
        `listing ${what} failed: ${errorMessage(error)}${sizes.length > 0 ? ` (before it: ${sizes.join(', ')})` : ''}`,
        `the server declares ${capability} but its ${what} list fails: fix the server's list handler (the error above is its answer)`,
      );
      return undefined;
    }
  }
  if (!capabilities.tools && !capabilities.resources && !capabilities.prompts) {
    walk.fail(
      'lists',
      'the server declares none of tools, resources or prompts: a client has nothing to show',
      'declare the capabilities the server implements in its initialize answer (e.g. "tools": {})',
    );
    return undefined;
  }
  walk.pass('lists', sizes.join(', '));
  return listed;
}

/** The lint findings (src/workbench/lint): an error fails the step, warnings are counted in its detail. */
function lintStep(walk: Walk, server: string, protocolVersion: string, listed: Listed): boolean {
  const report = lintServer({ serverName: server, protocolVersion, ...listed });
  const errors = report.findings.filter((finding) => finding.severity === 'error');
  const warnings = report.findings.filter((finding) => finding.severity === 'warning').length;
  const tokens = `the tool list costs about ${report.context.totalTokens} tokens of a model's context`;
  if (errors.length > 0) {
    const shown = errors
      .slice(0, 5)
      .map((finding) => `${finding.target}${finding.path ? ` ${finding.path}` : ''}: ${finding.message}`);
    walk.fail(
      'lint',
      `${errors.length} error${errors.length === 1 ? '' : 's'} (${shown.join('; ')}${errors.length > 5 ? '; …' : ''}); ${tokens}`,
      errors[0]?.fix ?? 'run `mcp-workbench lint` for every finding with its rule and source',
    );
    return false;
  }
  walk.pass(
    'lint',
    `no errors, ${warnings} warning${warnings === 1 ? '' : 's'} (\`mcp-workbench lint\` lists them); ${tokens}`,
  );
  return true;
}

function clientsStep(walk: Walk, server: string, toolNames: readonly string[]): void {
  const findings = clientFindings(server, toolNames);
  const rewritten = findings.rewritten.map(
    ({ client, tools }) =>
      `${client} rewrites ${tools.length} tool name${tools.length === 1 ? '' : 's'} (${tools.slice(0, 5).join(', ')}${tools.length > 5 ? ', …' : ''}): the model sees only [A-Za-z0-9_-], at most 64 characters with the server prefix`,
  );
  if (findings.overLimit) {
    walk.fail(
      'clients',
      [findings.overLimit, ...rewritten].join('; '),
      'offer fewer tools (split the server, or let people turn groups of tools off)',
    );
    return;
  }
  walk.pass(
    'clients',
    rewritten.length > 0
      ? rewritten.join('; ')
      : `VS Code and Claude Code take the ${toolNames.length} tools as they are (under their 128-tool limit, names kept)`,
  );
}

/** Runs every step in order and stops at the first that fails; closes what it started. */
export async function runDoctor(subject: DoctorSubject, host: DoctorHost): Promise<DoctorReport> {
  const walk = new Walk(host.secrets ?? []);
  const definition = configStep(walk, subject);
  const server = definition?.name ?? (subject.kind === 'config' ? (subject.server ?? subject.file) : '');
  if (!definition) return { server, steps: walk.steps };
  const resolved = await variablesStep(walk, host, definition);
  if (!resolved) return { server, steps: walk.steps };
  const command = await commandStep(walk, host, resolved);
  if (!command.ok) return { server, steps: walk.steps };
  const client = await host.createClient(resolved, command.plan, walk.secrets);
  const stderr: string[] = [];
  const listener = client.transport.onDiagnostic((line) => {
    if (!line.startsWith('stderr: ')) return;
    stderr.push(line.slice('stderr: '.length));
    if (stderr.length > STDERR_TAIL_LINES) stderr.shift();
  });
  try {
    if (!(await connectSteps(walk, client, resolved, stderr))) return { server, steps: walk.steps };
    const listed = await listsStep(walk, client);
    if (!listed) return { server, steps: walk.steps };
    if (!lintStep(walk, definition.name, client.session.protocolVersion, listed)) return { server, steps: walk.steps };
    clientsStep(
      walk,
      definition.name,
      listed.tools.map((tool) => tool.name),
    );
    return { server, steps: walk.steps };
  } finally {
    listener.dispose();
    await client.close().catch(() => undefined);
  }
}

/** The first failed step, if any. */
export function firstFailure(report: DoctorReport): DoctorStep | undefined {
  return report.steps.find((step) => !step.ok);
}
