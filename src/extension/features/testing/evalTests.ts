import * as vscode from 'vscode';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import type { LoadedEval } from '../../../workbench/evals/format';
import type { EvalModel, EvalReport, RequestReport } from '../../../workbench/evals/runner';
import type { ModelInfo } from '../../../workbench/sampling/chatModel';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import type { ServerController } from '../../platform/servers/serverController';
import type { ServerManager } from '../../platform/servers/serverManager';
import { ServerState } from '../../platform/servers/serverState';
import { startWithFeedback } from '../../platform/servers/startServer';
import type { ChatModelsService } from '../../platform/services';
import { diffOf, requestLabel, shownLines } from './evalMessages';
import {
  FileTests,
  lineStarts,
  position,
  testItems,
  type Chosen,
  type FileTestReport,
  type TestVerdict,
} from './fileTests';

/** The eval files' suffix (format.ts has the same; that module loads only when a run starts). */
const MCPEVAL_SUFFIX = '.mcpeval.json';

/** What an eval run told the Test Explorer (the test build's hooks listen), as `RecordingTestReport` does. */
export type EvalTestReport = FileTestReport<TestVerdict>;

/** The person's answers an eval run asks for; the test build answers them instead of the quick picks and the modal. */
export interface EvalPrompts {
  /** The server the eval runs on (its name as listed), or undefined: not run. */
  pickServer(file: string, servers: readonly string[]): Promise<string | undefined>;
  /** The model (an id of `models`), or undefined: not run. */
  pickModel(file: string, models: readonly ModelInfo[]): Promise<string | undefined>;
  /** Asked when the run may make more model calls than the announced limit: true runs it. */
  confirmModelCalls(file: string, maxModelCalls: number, runs: number): Promise<boolean>;
}

/** Not run because the person said no or chose nothing: the items are skipped with this message, not errored. */
class EvalNotRunError extends Error {
  override readonly name = 'EvalNotRunError';
}

/**
 * `*.mcpeval.json` files in the Test Explorer beside the recorded tests: one item per file, one child per request.
 * An eval names no server and no provider: a run asks once per file and window for a configured server and one of
 * the models sampling uses (an endpoint of the settings with its key in SecretStorage, or a VS Code language model),
 * so nothing is sent anywhere the person did not pick. The evals' code loads when a run starts.
 */
export class EvalTests extends FileTests<TestVerdict> {
  /** Per file (uri): the server's id and the model's id the person picked, for this window. */
  private readonly chosenServer = new Map<string, string>();
  private readonly chosenModel = new Map<string, string>();
  /** Test hook: answers the quick picks and the modal. */
  prompts: EvalPrompts | undefined;

  constructor(
    private readonly manager: ServerManager,
    private readonly chatModels: () => ChatModelsService | undefined,
  ) {
    super({
      suffix: MCPEVAL_SUFFIX,
      controllerId: 'mcpWorkbench.evals',
      label: () => vscode.l10n.t('MCP Evals'),
      separator: '#request-',
    });
  }

  /** Shows an eval file in the Test Explorer now (the file watcher may report it late). */
  async add(uri: vscode.Uri): Promise<vscode.TestItem> {
    return (await this.load(uri)).item;
  }

  /**
   * (Re)reads one file into its item: the children are the requests, named as the eval's report names them. The
   * file is checked in full when it runs; here only its shape is read, so listing loads none of the evals' code.
   */
  protected async load(uri: vscode.Uri): Promise<{ item: vscode.TestItem; text?: string }> {
    const { item, text } = await this.readFileItem(uri);
    if (text === undefined) return { item };
    const tree = parseTree(text);
    const requests = tree && findNodeAtLocation(tree, ['requests']);
    if (!requests || requests.type !== 'array' || !requests.children) {
      item.children.replace([]);
      item.error = vscode.l10n.t('The file has no "requests" array.');
      return { item, text };
    }
    const lines = lineStarts(text);
    item.children.replace(
      requests.children.map((node, index) => {
        const child = this.controller.createTestItem(
          this.childId(uri, index),
          escapeForDisplay(requestLabel(node, index)),
          uri,
        );
        child.range = new vscode.Range(position(lines, node.offset), position(lines, node.offset + node.length));
        return child;
      }),
    );
    item.error = undefined;
    return { item, text };
  }

  protected async runFile(
    run: vscode.TestRun,
    uri: vscode.Uri,
    chosen: Chosen,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const { item, text } = await this.load(uri);
    const children = [...testItems(item.children)];
    const judged = children.filter((child) => chosen === 'all' || chosen.has(this.splitId(child.id)[1] ?? -1));
    const judgedItems = chosen === 'all' ? [item, ...judged] : judged;
    for (const judgedItem of judgedItems) run.started(judgedItem);
    const say = (line: string) => this.say(run, item, line);
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    try {
      if (text === undefined) throw new Error(item.error?.toString() ?? vscode.l10n.t('The file cannot be read.'));
      // Loaded here, not at activation: most windows never run an eval.
      const [format, runner] = await Promise.all([
        import('../../../workbench/evals/format.js'),
        import('../../../workbench/evals/runner.js'),
      ]);
      const file = vscode.workspace.asRelativePath(uri);
      const loaded = format.parseEvalFile(text, file);
      const indexes = judged.map((child) => this.splitId(child.id)[1] ?? -1);
      const subset: LoadedEval = { ...loaded, requests: indexes.map((index) => loaded.requests[index]) };
      const plan = runner.planEval(subset, 1);
      const controller = await this.pickServer(uri, file);
      const model = await this.pickModel(uri, file, loaded.models);
      if (plan.maxModelCalls > runner.ANNOUNCE_MODEL_CALLS_OVER && !(await this.confirmCalls(file, plan)))
        throw new EvalNotRunError(
          vscode.l10n.t('{0} was not run: its up to {1} model calls were not allowed.', file, plan.maxModelCalls),
        );
      if (!ServerState.isRunning(controller.state) && !(await startWithFeedback(controller)))
        throw new Error(vscode.l10n.t('MCP server "{0}" did not start.', controller.name));
      const client = controller.client;
      if (!client) throw new Error(vscode.l10n.t('MCP server "{0}" did not start.', controller.name));
      const secrets = [...controller.knownSecrets(), ...((await this.chatModels()?.keys()) ?? [])];
      // Stopped while the person was choosing: nothing is sent to the model.
      if (abort.signal.aborted) throw new EvalNotRunError(vscode.l10n.t('{0} was stopped before it ran.', file));
      say(
        vscode.l10n.t(
          'Running {0} on MCP server "{1}" with the model {2}: up to {3} model calls',
          file,
          escapeForDisplay(controller.name),
          escapeForDisplay(`${model.info.providerLabel} ${model.info.name}`),
          plan.maxModelCalls,
        ),
      );
      const report = await runner.runEval(subset, {
        servers: [client],
        models: [model],
        signal: abort.signal,
        secrets,
        onRun: (done, total) => say(vscode.l10n.t('run {0} of {1}', done, total)),
      });
      say(shownLines(runner.formatEvalReport(report, secrets)));
      this.judge(
        run,
        item,
        judged,
        report,
        subset.requests.map((request) => request.runs),
        chosen === 'all',
      );
    } catch (error) {
      // A stop that lands while a request is on its way makes it fail: that is a stop too, not an error of the eval.
      const notRun = error instanceof EvalNotRunError || abort.signal.aborted;
      const message = notRun
        ? error instanceof EvalNotRunError
          ? error.message
          : vscode.l10n.t('{0} was stopped.', vscode.workspace.asRelativePath(uri))
        : vscode.l10n.t('The eval could not run: {0}', shownLines((error as Error).message));
      say(message);
      for (const judgedItem of judgedItems)
        this.verdict(run, judgedItem, notRun ? 'skipped' : 'errored', new vscode.TestMessage(message));
    } finally {
      cancel.dispose();
    }
  }

  /** Each request's verdict: passed only when every run passed; a failure shows its first failed run's calls as a diff. */
  private judge(
    run: vscode.TestRun,
    item: vscode.TestItem,
    judged: readonly vscode.TestItem[],
    report: EvalReport,
    plannedRuns: readonly number[],
    wholeFile: boolean,
  ): void {
    let failed = 0;
    for (const [index, child] of judged.entries()) {
      const entry = report.requests[index] as RequestReport | undefined;
      if (!entry || entry.runs < plannedRuns[index]) {
        // Stopped before all of this request's runs: its pass rate over fewer runs is no verdict.
        this.verdict(
          run,
          child,
          'skipped',
          new vscode.TestMessage(vscode.l10n.t('Stopped after {0} of {1} runs.', entry?.runs ?? 0, plannedRuns[index])),
        );
        continue;
      }
      const rate = vscode.l10n.t(
        '{0}/{1} runs passed ({2}%)',
        entry.passed,
        entry.runs,
        Math.round(entry.passRate * 100),
      );
      if (entry.passed === entry.runs) {
        this.verdict(run, child, 'passed');
        continue;
      }
      failed++;
      const failure = entry.failures[0];
      const text = shownLines(
        [
          rate,
          vscode.l10n.t('Run {0}:', failure?.run ?? '?'),
          ...(failure?.problems ?? []).map((problem) => problem.message),
        ].join('\n'),
      );
      const { expected, actual } = diffOf(failure?.problems ?? [], failure?.calls ?? []);
      const message = vscode.TestMessage.diff(text, expected, actual);
      if (child.uri && child.range) message.location = new vscode.Location(child.uri, child.range);
      this.verdict(run, child, 'failed', message);
    }
    if (!wholeFile) return;
    const summary = vscode.l10n.t(
      'Pass rate {0}% over {1} runs',
      Math.round(report.passRate * 100),
      report.requests.reduce((sum, entry) => sum + entry.runs, 0),
    );
    if (report.interrupted) this.verdict(run, item, 'skipped');
    else if (failed === 0) this.verdict(run, item, 'passed');
    else this.verdict(run, item, 'failed', new vscode.TestMessage(summary));
  }

  /** The configured server this file runs on: asked once per file and window (an eval file names none). */
  private async pickServer(uri: vscode.Uri, file: string): Promise<ServerController> {
    const remembered = this.chosenServer.get(uri.toString());
    const known = remembered && this.manager.servers.find((controller) => controller.id === remembered);
    if (known) return known;
    const servers = this.manager.servers;
    if (servers.length === 0)
      throw new Error(vscode.l10n.t('No MCP server is configured: add one to run an eval on it.'));
    let picked: ServerController | undefined;
    if (this.prompts) {
      const name = await this.prompts.pickServer(
        file,
        servers.map((controller) => controller.name),
      );
      picked = servers.find((controller) => controller.name === name);
    } else {
      const choice = await vscode.window.showQuickPick(
        servers.map((controller) => ({
          label: escapeForDisplay(controller.name),
          description: escapeForDisplay(controller.entry.origin.label),
          controller,
        })),
        {
          title: vscode.l10n.t('Run the eval {0} on which MCP server?', file),
          placeHolder: vscode.l10n.t("The model's tool calls run on the server you pick"),
          ignoreFocusOut: true,
        },
      );
      picked = choice?.controller;
    }
    if (!picked) throw new EvalNotRunError(vscode.l10n.t('{0} was not run: no MCP server was chosen.', file));
    this.chosenServer.set(uri.toString(), picked.id);
    return picked;
  }

  /**
   * The model, from the providers sampling uses; asked once per file and window. The file's `models` only put the
   * models they name first: a file from a cloned repository does not choose where its requests go.
   */
  private async pickModel(uri: vscode.Uri, file: string, preferred: readonly string[]): Promise<EvalModel> {
    const providers = (await this.chatModels()?.providers()) ?? [];
    const models = (
      await Promise.all(
        providers.map(async (provider) =>
          (await provider.listModels().catch(() => [])).map((info) => ({ provider, info })),
        ),
      )
    ).flat();
    if (models.length === 0)
      throw new Error(
        vscode.l10n.t(
          'No model is available: add an OpenAI-compatible endpoint (mcpWorkbench.sampling.endpoints) or enable a VS Code language model.',
        ),
      );
    const remembered = models.find((model) => model.info.id === this.chosenModel.get(uri.toString()));
    if (remembered) return remembered;
    const rank = (model: EvalModel) =>
      preferred.includes(model.info.name) || preferred.includes(model.info.id) ? 0 : 1;
    const ordered = [...models].sort((a, b) => rank(a) - rank(b));
    let picked: EvalModel | undefined;
    if (this.prompts) {
      const id = await this.prompts.pickModel(
        file,
        ordered.map((model) => model.info),
      );
      picked = ordered.find((model) => model.info.id === id);
    } else {
      const choice = await vscode.window.showQuickPick(
        ordered.map((model) => ({
          label: escapeForDisplay(model.info.name),
          description: escapeForDisplay(model.info.providerLabel),
          model,
        })),
        {
          title: vscode.l10n.t('Run the eval {0} with which model?', file),
          placeHolder: vscode.l10n.t(
            'The models sampling uses: the endpoints of your settings and VS Code language models',
          ),
          ignoreFocusOut: true,
        },
      );
      picked = choice?.model;
    }
    if (!picked) throw new EvalNotRunError(vscode.l10n.t('{0} was not run: no model was chosen.', file));
    this.chosenModel.set(uri.toString(), picked.info.id);
    return picked;
  }

  /** The count comes first; the first button, which a stray Enter presses, declines. */
  private async confirmCalls(file: string, plan: { runs: number; maxModelCalls: number }): Promise<boolean> {
    if (this.prompts) return this.prompts.confirmModelCalls(file, plan.maxModelCalls, plan.runs);
    const decline = vscode.l10n.t("Don't Run");
    const allow = vscode.l10n.t('Make up to {0} Model Calls', plan.maxModelCalls);
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Up to {0} model calls: run the eval {1}?', plan.maxModelCalls, file),
      {
        modal: true,
        detail: vscode.l10n.t(
          '{0} runs, each up to the step cap of model calls. Each call is sent to the model you picked and may cost money.',
          plan.runs,
        ),
      },
      decline,
      allow,
    );
    return choice === allow;
  }
}
