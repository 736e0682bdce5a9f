import * as vscode from 'vscode';
import type { LintFinding } from '../../../workbench/lint/findings';
import { targetOf } from '../../../workbench/lint/targets';
import type { LintReport, lintServerSteps } from '../../../workbench/lint/lintServer';
import type { LintRuleId, ruleOf } from '../../../workbench/lint/rules';
import { drainInSlices, SettleDelay } from '../../../workbench/lint/slices';
import type { ServerCatalog } from '../../platform/servers/serverCatalog';
import type { ServerController } from '../../platform/servers/serverController';
import type { ServerManager } from '../../platform/servers/serverManager';
import type { ToolLintService, ToolLintSummary } from '../../platform/services';

/** The setting that turns the badges and Problems entries off. */
export const LINT_ENABLED_SETTING = 'mcpWorkbench.lint.enabled';

/** How long after a server started its lint waits (jobs): measured, the first rows of 5,000 tools take about 0.8 s. */
const LINT_AFTER_START_MS = 1_000;

/** One server's lint as last run, and the lists it ran on (unchanged lists are not linted again). */
export interface ServerLintResult {
  readonly controller: ServerController;
  readonly report: LintReport;
  /** Findings by target (`tool:<name>`, …). */
  readonly byTarget: ReadonlyMap<string, readonly LintFinding[]>;
  readonly tokensByTool: ReadonlyMap<string, number | undefined>;
  /** What it ran on: the tools array, the catalog's arrays and the other servers' tool arrays, by identity. */
  readonly inputs: readonly unknown[];
  /** What the tool rows show of it (their findings and tokens), to tell whether they must be drawn again. */
  readonly toolRows: string;
}

/**
 * Lints every running server's lists (src/workbench/lint, the CLI's rules) whenever they change: a server's tools
 * (its state), its templates and prompts (the catalog), or the tools of another server (names colliding across
 * servers). The runs of one burst of changes are coalesced into one, after the events, so a flood of list_changed
 * costs one lint per server.
 */
export class ServerLint implements ToolLintService, vscode.Disposable {
  private readonly results = new Map<ServerController, ServerLintResult>();
  private readonly changeEmitter = new vscode.EventEmitter<ServerController>();
  private readonly resultsEmitter = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];
  private scheduled: ReturnType<typeof setTimeout> | undefined;
  /**
   * The rules (with the JSON Schema validator they use), imported when a server first runs, not with the extension: a
   * run that finds a server to lint before they are here waits for them and runs again.
   */
  private rules: typeof lintServerSteps | undefined;
  private ruleOf: typeof ruleOf | undefined;
  private rulesLoading: Promise<void> | undefined;
  private disposed = false;
  /** When each session was first seen running (jobs: a server that just started is linted a moment later). */
  private readonly settle = new SettleDelay<object>(LINT_AFTER_START_MS);
  /** Counts the runs begun: a run in slices that sees another begun drops its work. */
  private generation = 0;

  /** A server's findings changed (the Servers view redraws its tool rows). */
  readonly onDidChange = this.changeEmitter.event;
  /** Some server's findings changed or were dropped (the Problems entries are written again). */
  readonly onDidChangeResults = this.resultsEmitter.event;

  constructor(
    private readonly manager: ServerManager,
    private readonly catalog: ServerCatalog,
  ) {
    this.subscriptions = [
      manager.onDidChangeServers(() => this.schedule()),
      manager.onDidChangeServerState(() => this.schedule()),
      catalog.onDidChange(() => this.schedule()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(LINT_ENABLED_SETTING)) this.schedule();
      }),
    ];
    this.schedule();
  }

  forTool(controller: ServerController, toolName: string): ToolLintSummary | undefined {
    const result = this.results.get(controller);
    if (!result) return undefined;
    return {
      findings: result.byTarget.get(targetOf('tool', toolName)) ?? [],
      tokens: result.tokensByTool.get(toolName),
    };
  }

  resultOf(controller: ServerController): ServerLintResult | undefined {
    return this.results.get(controller);
  }

  /** Where a rule is explained (its first source); there are findings only once the rules have loaded. */
  ruleSource(rule: LintRuleId): string | undefined {
    return this.ruleOf?.(rule).sources[0];
  }

  get all(): readonly ServerLintResult[] {
    return [...this.results.values()];
  }

  /** Lints now, all at once, what changed (the Show Lint Findings command; tests call it to skip the wait). */
  run(): void {
    const jobs = this.jobs();
    let changed = jobs.dropped;
    for (const job of jobs.todo) {
      this.store(job, lintAtOnce(job.steps));
      changed = true;
    }
    if (changed) this.resultsEmitter.fire();
  }

  /**
   * The scheduled run: a server with thousands of tools takes the lint hundreds of milliseconds, and the extension
   * host answers nothing meanwhile, the Servers view's first rows included (issue 42). So it runs in slices that yield
   * to the event loop (slices.ts); a change while it runs (another schedule, a run) drops it for a fresh one.
   */
  private async runInSlices(): Promise<void> {
    const jobs = this.jobs(true);
    const generation = this.generation;
    if (jobs.dropped) this.resultsEmitter.fire();
    const cancelled = () => this.disposed || generation !== this.generation;
    for (const job of jobs.todo) {
      if (cancelled()) return;
      const report = await drainInSlices(job.steps, { cancelled });
      if (report === undefined) return;
      this.store(job, report);
      this.resultsEmitter.fire();
    }
  }

  /**
   * What is to be linted now; drops the results of servers no longer running (and any run in slices). With
   * `settle`, a server whose session began less than LINT_AFTER_START_MS ago is left for a run then: its first rows
   * are being fetched and drawn, and on a busy machine the lint's CPU (the rules' import, then the lint) would be
   * taken from them, sliced or not. A new tool list of a running session is linted at once.
   */
  private jobs(settle = false): { dropped: boolean; todo: LintJob[] } {
    if (this.scheduled !== undefined) clearTimeout(this.scheduled);
    this.scheduled = undefined;
    this.generation++;
    const enabled = vscode.workspace.getConfiguration().get<boolean>(LINT_ENABLED_SETTING, true);
    const running = enabled ? this.manager.servers.filter((controller) => controller.state.kind === 'running') : [];
    let later: number | undefined;
    const due = running.filter((controller) => {
      if (!settle || controller.state.kind !== 'running') return true;
      const wait = this.settle.wait(controller.state.session);
      if (wait > 0) later = Math.min(later ?? wait, wait);
      return wait === 0;
    });
    if (later !== undefined) this.scheduled = setTimeout(() => void this.runInSlices(), later);
    const lint = this.rules;
    if (!lint && due.length > 0) {
      this.rulesLoading ??= Promise.all([
        import('../../../workbench/lint/lintServer.js'),
        import('../../../workbench/lint/rules.js'),
      ]).then(
        ([module, rules]) => {
          this.rules = module.lintServerSteps;
          this.ruleOf = rules.ruleOf;
          if (!this.disposed) void this.runInSlices();
        },
        () => (this.rulesLoading = undefined),
      );
    }
    let dropped = false;
    for (const controller of [...this.results.keys()]) {
      if (running.includes(controller)) continue;
      this.results.delete(controller);
      this.changeEmitter.fire(controller);
      dropped = true;
    }
    const todo: LintJob[] = [];
    for (const controller of due) {
      if (!lint) break;
      const state = controller.state;
      if (state.kind !== 'running') continue;
      const offerings = this.catalog.offerings(controller);
      const others = running.filter((other) => other !== controller);
      const otherTools = others.map((other) => (other.state.kind === 'running' ? other.state.tools : []));
      const inputs = [state.tools, offerings?.templates, offerings?.prompts, ...others, ...otherTools];
      const before = this.results.get(controller);
      if (before && sameInputs(before.inputs, inputs)) continue;
      const steps = lint({
        serverName: controller.name,
        protocolVersion: state.session.protocolVersion,
        tools: state.tools,
        templates: offerings?.templates,
        prompts: offerings?.prompts,
        otherServers: others.map((other, index) => ({
          name: other.name,
          toolNames: otherTools[index].map((tool) => tool.name),
        })),
      });
      todo.push({ controller, inputs, steps });
    }
    return { dropped, todo };
  }

  private store({ controller, inputs }: LintJob, report: LintReport): void {
    const before = this.results.get(controller);
    const byTarget = new Map<string, LintFinding[]>();
    for (const finding of report.findings) {
      const list = byTarget.get(finding.target);
      if (list) list.push(finding);
      else byTarget.set(finding.target, [finding]);
    }
    const tokensByTool = new Map(report.context.tools.map((cost) => [cost.name, cost.tokens]));
    const toolRows = JSON.stringify([report.findings.filter((f) => f.target.startsWith('tool:')), report.context]);
    this.results.set(controller, { controller, report, byTarget, tokensByTool, inputs, toolRows });
    // A reload of templates or prompts changes no tool row: the Servers view redraws only the rows that changed.
    if (before?.toolRows !== toolRows) this.changeEmitter.fire(controller);
  }

  private schedule(): void {
    // After the events of this turn: a restart's state changes and the catalog's first listing come together.
    this.scheduled ??= setTimeout(() => void this.runInSlices(), 0);
  }

  dispose(): void {
    this.disposed = true;
    if (this.scheduled !== undefined) clearTimeout(this.scheduled);
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changeEmitter.dispose();
    this.resultsEmitter.dispose();
  }
}

/** One server's lint to run: its steps (lintServerSteps) and what it runs on. */
interface LintJob {
  readonly controller: ServerController;
  readonly inputs: readonly unknown[];
  readonly steps: Generator<void, LintReport, void>;
}

function lintAtOnce(steps: Generator<void, LintReport, void>): LintReport {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

function sameInputs(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
