import * as vscode from 'vscode';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { toJsonText } from '../../../workbench/display';
import type { LoadedRecording } from '../../../workbench/recordings/format';
import { MCPTEST_SUFFIX } from '../../../workbench/recordings/fileNames';
import type { StepReport } from '../../../workbench/recordings/replay';
import type { StepAnswer } from '../../../workbench/recordings/stepMethods';
import type { ServerManager } from '../../platform/servers/serverManager';
import type { LaunchConfirmation } from '../../platform/servers/launchConfirmation';
import type { BindingConfirmer } from './recordedServer';
import { FileTests, lineStarts, position, testItems, type Chosen, type FileTestReport } from './fileTests';

/** What a run told the Test Explorer about a recording (its file's item id): a verdict of an item, or an output line. */
export type RecordingTestReport = FileTestReport<'passed' | 'failed' | 'errored'>;

/**
 * `*.mcptest.json` files in VS Code's Test Explorer: one item per file, one child per step. Running replays the
 * file against its server (all steps run in order, since later steps may depend on earlier ones; the chosen ones
 * are judged); a failing step shows the diff of the recorded and the received answer. The answer of each step's
 * last run is kept so "Re-record Step" can write it into the file.
 */
export class RecordingTests extends FileTests<'passed' | 'failed' | 'errored'> {
  private readonly lastAnswers = new Map<string, StepAnswer>();
  /** The person's yes to replaying a recording on a server outside the workspace, for this window only. */
  private readonly allowedBindings = new Set<string>();
  /** Test hook: answers the binding confirmation instead of the modal. */
  bindingConfirmer: BindingConfirmer | undefined;

  constructor(
    private readonly manager: ServerManager,
    private readonly confirmation: LaunchConfirmation,
  ) {
    super({
      suffix: MCPTEST_SUFFIX,
      controllerId: 'mcpWorkbench.recordings',
      label: () => vscode.l10n.t('MCP Recorded Sessions'),
      separator: '#step-',
    });
  }

  /** A recording this window just wrote (Save as Test), shown in the Test Explorer at once. */
  async add(uri: vscode.Uri): Promise<void> {
    await this.load(uri);
  }

  /** (Re)reads one file into its item; a file that does not parse shows its error on the item. */
  protected async load(uri: vscode.Uri): Promise<{ item: vscode.TestItem; loaded?: LoadedRecording }> {
    const { item, text } = await this.readFileItem(uri);
    if (text === undefined) return { item };
    // The reader (and the rule engine it checks `match` rules with) loads with the first recording found.
    const { parseRecording, stepLabel } = await import('../../../workbench/recordings/format.js');
    try {
      const loaded = parseRecording(text, vscode.workspace.asRelativePath(uri));
      const tree = parseTree(text);
      const lines = lineStarts(text);
      item.children.replace(
        loaded.recording.steps.map((step, index) => {
          const child = this.controller.createTestItem(
            this.childId(uri, index),
            `${index + 1}. ${stepLabel(step)}`,
            uri,
          );
          const node = tree && findNodeAtLocation(tree, ['steps', index]);
          if (node)
            child.range = new vscode.Range(position(lines, node.offset), position(lines, node.offset + node.length));
          return child;
        }),
      );
      item.error = undefined;
      return { item, loaded };
    } catch (error) {
      item.children.replace([]);
      item.error = (error as Error).message;
      return { item };
    }
  }

  protected async runFile(
    run: vscode.TestRun,
    uri: vscode.Uri,
    steps: Chosen,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const { item, loaded } = await this.load(uri);
    if (!loaded) {
      this.verdict(
        run,
        item,
        'errored',
        new vscode.TestMessage(item.error?.toString() ?? vscode.l10n.t('The file cannot be read.')),
      );
      return;
    }
    const children = [...testItems(item.children)];
    // Answers of steps the file no longer has are not re-recorded into it.
    for (const id of [...this.lastAnswers.keys()]) {
      const [owner, index] = this.splitId(id);
      if (owner === item.id && (index === undefined || index >= children.length)) this.lastAnswers.delete(id);
    }
    const judged = children.filter((child) => steps === 'all' || steps.has(this.splitId(child.id)[1] ?? -1));
    for (const child of judged) run.started(child);
    // The replay (with the server it opens) is imported at the first run, not with the extension.
    const [{ askBindingModal, openRecordedServer, RecordingNotRunError }, { describeFailure, replayRecording }] =
      await Promise.all([import('./recordedServer.js'), import('../../../workbench/recordings/replay.js')]);
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    try {
      const session = await openRecordedServer(
        {
          manager: this.manager,
          confirmation: this.confirmation,
          confirmBinding: (request) => (this.bindingConfirmer ?? askBindingModal)(request),
          allowedBindings: this.allowedBindings,
          say: (line) => this.say(run, item, line),
        },
        loaded,
        uri,
      );
      try {
        const report = await replayRecording(session.client, loaded, {
          secrets: session.secrets,
          signal: abort.signal,
          ...(steps === 'all' ? {} : { only: steps }),
          onStep: (step) => this.judge(run, loaded, children[step.index], step, describeFailure),
        });
        if (steps === 'all') {
          if (report.firstFailure === undefined) this.verdict(run, item, 'passed');
          else
            this.verdict(
              run,
              item,
              'failed',
              new vscode.TestMessage(
                describeFailure(report.steps.find((step) => step.index === report.firstFailure) as StepReport),
              ),
            );
        }
      } finally {
        await session.dispose();
      }
    } catch (error) {
      // Not allowed (the person said no): the message says so on its own; anything else is a replay that failed.
      const message = new vscode.TestMessage(
        error instanceof RecordingNotRunError
          ? error.message
          : vscode.l10n.t('The replay could not run: {0}', (error as Error).message),
      );
      for (const child of judged) this.verdict(run, child, 'errored', message);
      if (steps === 'all') this.verdict(run, item, 'errored', message);
    } finally {
      cancel.dispose();
    }
  }

  private judge(
    run: vscode.TestRun,
    loaded: LoadedRecording,
    child: vscode.TestItem | undefined,
    step: StepReport,
    describeFailure: (step: StepReport) => string,
  ): void {
    if (!child) return;
    this.lastAnswers.set(child.id, step.actual);
    if (step.verdict.kind === 'passed') {
      this.verdict(run, child, 'passed');
      return;
    }
    const recorded = loaded.recording.steps[step.index].answer;
    const message = vscode.TestMessage.diff(
      describeFailure(step),
      toJsonText(recorded, 2) ?? '',
      toJsonText(step.actual, 2) ?? '',
    );
    if (child.uri && child.range) message.location = new vscode.Location(child.uri, child.range);
    this.verdict(run, child, 'failed', message);
  }

  /** Re-record Step: writes the answer of the step's last run into the file (a file item: every step that ran). */
  async rerecord(argument: unknown): Promise<boolean> {
    const item = argument as vscode.TestItem | undefined;
    if (!item || typeof item.id !== 'string') return false;
    const [file, index] = this.splitId(item.id);
    // A file item's steps are found by id, not through its children: the item VS Code hands a menu command can be one
    // it rebuilt from the menu's context, which has none.
    const targets =
      index === undefined ? [...this.lastAnswers.keys()].filter((id) => this.splitId(id)[0] === file) : [item.id];
    const answers = targets.flatMap((id) => {
      const answer = this.lastAnswers.get(id);
      const stepIndex = this.splitId(id)[1];
      return answer === undefined || stepIndex === undefined ? [] : [{ stepIndex, answer }];
    });
    if (answers.length === 0) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Run the test first: Re-record writes the answer of its last run into the file.'),
      );
      return false;
    }
    const uri = vscode.Uri.parse(file);
    const { rerecordStep } = await import('../../../workbench/recordings/rerecord.js');
    let text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    for (const { stepIndex, answer } of answers) text = rerecordStep(text, stepIndex, answer);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    await this.load(uri);
    vscode.window.setStatusBarMessage(
      vscode.l10n.t('Re-recorded {0} step(s) of {1}', answers.length, vscode.workspace.asRelativePath(uri)),
      5000,
    );
    return true;
  }
}
