import * as path from 'node:path';
import * as vscode from 'vscode';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { toJsonText } from '../../../workbench/display';
import { MCPTEST_SUFFIX, parseRecording, stepLabel, type LoadedRecording } from '../../../workbench/recordings/format';
import type { StepReport } from '../../../workbench/recordings/replay';
import type { StepAnswer } from '../../../workbench/recordings/stepMethods';
import type { ServerManager } from '../../platform/servers/serverManager';
import type { LaunchConfirmation } from '../../platform/servers/launchConfirmation';
import type { BindingConfirmer } from './recordedServer';

const RECORDINGS_CONTROLLER_ID = 'mcpWorkbench.recordings';

/** What a run told the Test Explorer about a recording (its file's item id): a verdict of an item, or an output line. */
export type RecordingTestReport =
  | { file: string; item: string; kind: 'passed' | 'failed' | 'errored'; message?: string }
  | { file: string; kind: 'output'; message: string };
const STEP_SEPARATOR = '#step-';

/**
 * `*.mcptest.json` files in VS Code's Test Explorer: one item per file, one child per step. Running replays the
 * file against its server (all steps run in order, since later steps may depend on earlier ones; the chosen ones
 * are judged); a failing step shows the diff of the recorded and the received answer. The answer of each step's
 * last run is kept so "Re-record Step" can write it into the file.
 */
export class RecordingTests implements vscode.Disposable {
  /** Made with the workspace's first recording (see `controller`). */
  private madeController: vscode.TestController | undefined;
  private readonly lastAnswers = new Map<string, StepAnswer>();
  private readonly disposables: vscode.Disposable[] = [];
  /** The person's yes to replaying a recording on a server outside the workspace, for this window only. */
  private readonly allowedBindings = new Set<string>();
  private readonly reportEmitter = new vscode.EventEmitter<RecordingTestReport>();
  /** Test hook: answers the binding confirmation instead of the modal. */
  bindingConfirmer: BindingConfirmer | undefined;
  /** Every verdict and output line of a run as the Test Explorer gets it (the test build's hooks listen). */
  readonly onDidReport = this.reportEmitter.event;

  constructor(
    private readonly manager: ServerManager,
    private readonly confirmation: LaunchConfirmation,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher(`**/*${MCPTEST_SUFFIX}`);
    this.disposables.push(
      watcher,
      watcher.onDidCreate((uri) => void this.load(uri)),
      watcher.onDidChange((uri) => void this.load(uri)),
      watcher.onDidDelete((uri) => this.madeController?.items.delete(uri.toString())),
    );
    void this.discover();
  }

  /**
   * The Test Explorer's controller, made when the first recording is found or written, not at activation: making one
   * took about 4 ms of activate() in the extension host's CPU profile, and most workspaces have no recording.
   */
  private get controller(): vscode.TestController {
    if (this.madeController) return this.madeController;
    const controller = vscode.tests.createTestController(
      RECORDINGS_CONTROLLER_ID,
      vscode.l10n.t('MCP Recorded Sessions'),
    );
    controller.resolveHandler = async (item) => {
      if (!item) await this.discover();
    };
    controller.refreshHandler = () => this.discover();
    controller.createRunProfile(
      vscode.l10n.t('Run'),
      vscode.TestRunProfileKind.Run,
      (request, token) => this.run(request, token),
      true,
    );
    this.madeController = controller;
    return controller;
  }

  /** A recording this window just wrote (Save as Test), shown in the Test Explorer at once. */
  async add(uri: vscode.Uri): Promise<void> {
    await this.load(uri);
  }

  async discover(): Promise<void> {
    const files = await vscode.workspace.findFiles(`**/*${MCPTEST_SUFFIX}`, '**/node_modules/**');
    await Promise.all(files.map((uri) => this.load(uri)));
  }

  /** (Re)reads one file into its item; a file that does not parse shows its error on the item. */
  private async load(uri: vscode.Uri): Promise<{ item: vscode.TestItem; loaded?: LoadedRecording }> {
    const item = this.controller.createTestItem(
      uri.toString(),
      path.basename(uri.fsPath).slice(0, -MCPTEST_SUFFIX.length),
      uri,
    );
    this.controller.items.add(item);
    let text: string;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch (error) {
      item.error = (error as Error).message;
      return { item };
    }
    try {
      const loaded = parseRecording(text, vscode.workspace.asRelativePath(uri));
      const tree = parseTree(text);
      const lines = lineStarts(text);
      item.children.replace(
        loaded.recording.steps.map((step, index) => {
          const child = this.controller.createTestItem(
            `${uri.toString()}${STEP_SEPARATOR}${index}`,
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

  private async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const run = this.controller.createTestRun(request);
    const wanted = new Map<string, Set<number> | 'all'>();
    const include = request.include ?? [...iterate(this.controller.items)];
    for (const item of include) {
      const [file, index] = splitId(item.id);
      if (index === undefined || wanted.get(file) === 'all') wanted.set(file, 'all');
      else wanted.set(file, new Set([...((wanted.get(file) as Set<number> | undefined) ?? []), index]));
    }
    try {
      for (const [file, steps] of wanted) {
        if (token.isCancellationRequested) break;
        await this.runFile(run, vscode.Uri.parse(file), steps, token);
      }
    } finally {
      run.end();
    }
  }

  private async runFile(
    run: vscode.TestRun,
    uri: vscode.Uri,
    steps: Set<number> | 'all',
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
    const children = [...iterate(item.children)];
    // Answers of steps the file no longer has are not re-recorded into it.
    for (const id of [...this.lastAnswers.keys()]) {
      const [owner, index] = splitId(id);
      if (owner === item.id && (index === undefined || index >= children.length)) this.lastAnswers.delete(id);
    }
    const judged = children.filter((child) => steps === 'all' || steps.has(splitId(child.id)[1] ?? -1));
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
          say: (line) => {
            run.appendOutput(`${line}\r\n`, undefined, item);
            this.reportEmitter.fire({ file: item.id, kind: 'output', message: line });
          },
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

  /** Marks an item on the run, and tells the listeners of `onDidReport`. */
  private verdict(
    run: vscode.TestRun,
    item: vscode.TestItem,
    kind: 'passed' | 'failed' | 'errored',
    message?: vscode.TestMessage,
  ): void {
    switch (kind) {
      case 'passed':
        run.passed(item);
        break;
      case 'failed':
        run.failed(item, message ?? new vscode.TestMessage(''));
        break;
      case 'errored':
        run.errored(item, message ?? new vscode.TestMessage(''));
        break;
      default: {
        const exhaustive: never = kind;
        throw new Error(`unknown verdict ${String(exhaustive)}`);
      }
    }
    const text =
      message === undefined ? undefined : typeof message.message === 'string' ? message.message : message.message.value;
    this.reportEmitter.fire({
      file: splitId(item.id)[0],
      item: item.id,
      kind,
      ...(text === undefined ? {} : { message: text }),
    });
  }

  /** Re-record Step: writes the answer of the step's last run into the file (a file item: every step that ran). */
  async rerecord(argument: unknown): Promise<boolean> {
    const item = argument as vscode.TestItem | undefined;
    if (!item || typeof item.id !== 'string') return false;
    const [file, index] = splitId(item.id);
    // A file item's steps are found by id, not through its children: the item VS Code hands a menu command can be one
    // it rebuilt from the menu's context, which has none.
    const targets =
      index === undefined ? [...this.lastAnswers.keys()].filter((id) => splitId(id)[0] === file) : [item.id];
    const answers = targets.flatMap((id) => {
      const answer = this.lastAnswers.get(id);
      const stepIndex = splitId(id)[1];
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

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
    this.reportEmitter.dispose();
    this.madeController?.dispose();
  }
}

function splitId(id: string): [string, number | undefined] {
  const at = id.lastIndexOf(STEP_SEPARATOR);
  if (at === -1) return [id, undefined];
  return [id.slice(0, at), Number(id.slice(at + STEP_SEPARATOR.length))];
}

function* iterate(collection: vscode.TestItemCollection): Generator<vscode.TestItem> {
  for (const [, item] of collection) yield item;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = 0; index < text.length; index++) if (text[index] === '\n') starts.push(index + 1);
  return starts;
}

function position(starts: readonly number[], offset: number): vscode.Position {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (starts[middle] <= offset) low = middle;
    else high = middle - 1;
  }
  return new vscode.Position(low, offset - starts[low]);
}
