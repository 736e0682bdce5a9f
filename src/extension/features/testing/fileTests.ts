import * as path from 'node:path';
import * as vscode from 'vscode';

/** How a run ends for one item. */
export type TestVerdict = 'passed' | 'failed' | 'errored' | 'skipped';

/** What a run told the Test Explorer about a file (its item's id): a verdict of an item, or an output line. */
export type FileTestReport<K extends TestVerdict> =
  | { file: string; item: string; kind: K; message?: string; expected?: string; actual?: string }
  | { file: string; kind: 'output'; message: string };

/** Which of a file's children a run asks for, by index: the whole file (with the file's own item) or some. */
export type Chosen = Set<number> | 'all';

export interface TestFileKind {
  /** The files' suffix, e.g. `.mcptest.json`. */
  readonly suffix: string;
  readonly controllerId: string;
  /** The controller's label, in the person's words. */
  readonly label: () => string;
  /** Between a file's id and a child's index in the child's id (`<uri>#step-2`). */
  readonly separator: string;
}

/**
 * One kind of test file in the Test Explorer (recorded sessions, evals): one item per file, one child per entry.
 * This part is the same for each kind: the controller (made with the first file found, not at activation: making one
 * took about 4 ms of activate() in the extension host's CPU profile, and most workspaces have none), the watcher, the
 * run loop over the files a run asks for (stopped between files by the person's cancellation), and each verdict,
 * marked on the run and told to `onDidReport` (the test build's hooks listen). A kind reads a file into its item
 * (`load`) and runs it (`runFile`).
 */
export abstract class FileTests<K extends TestVerdict> implements vscode.Disposable {
  private madeController: vscode.TestController | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly reportEmitter = new vscode.EventEmitter<FileTestReport<K>>();
  /** Every verdict and output line of a run as the Test Explorer gets it. */
  readonly onDidReport = this.reportEmitter.event;

  constructor(private readonly kind: TestFileKind) {
    const watcher = vscode.workspace.createFileSystemWatcher(`**/*${kind.suffix}`);
    this.disposables.push(
      watcher,
      watcher.onDidCreate((uri) => void this.load(uri)),
      watcher.onDidChange((uri) => void this.load(uri)),
      watcher.onDidDelete((uri) => this.madeController?.items.delete(uri.toString())),
    );
    void this.discover();
  }

  /** (Re)reads one file into its item and its children. */
  protected abstract load(uri: vscode.Uri): Promise<{ item: vscode.TestItem }>;

  /** Runs one file: marks the chosen children (and with 'all' the file's item) started, then each with a verdict. */
  protected abstract runFile(
    run: vscode.TestRun,
    uri: vscode.Uri,
    chosen: Chosen,
    token: vscode.CancellationToken,
  ): Promise<void>;

  protected get controller(): vscode.TestController {
    if (this.madeController) return this.madeController;
    const controller = vscode.tests.createTestController(this.kind.controllerId, this.kind.label());
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

  async discover(): Promise<void> {
    const files = await vscode.workspace.findFiles(`**/*${this.kind.suffix}`, '**/node_modules/**');
    await Promise.all(files.map((uri) => this.load(uri)));
  }

  /** The file's item (made anew, its children kept until `load` replaces them) and its text, or why it has none. */
  protected async readFileItem(uri: vscode.Uri): Promise<{ item: vscode.TestItem; text?: string }> {
    const item = this.controller.createTestItem(
      uri.toString(),
      path.basename(uri.fsPath).slice(0, -this.kind.suffix.length),
      uri,
    );
    this.controller.items.add(item);
    try {
      return { item, text: new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)) };
    } catch (error) {
      item.error = (error as Error).message;
      return { item };
    }
  }

  /** A child's id: its file's, the separator and its index. */
  protected childId(uri: vscode.Uri, index: number): string {
    return `${uri.toString()}${this.kind.separator}${index}`;
  }

  /** An item's file id and, for a child, its index. */
  protected splitId(id: string): [string, number | undefined] {
    const at = id.lastIndexOf(this.kind.separator);
    if (at === -1) return [id, undefined];
    return [id.slice(0, at), Number(id.slice(at + this.kind.separator.length))];
  }

  private async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const run = this.controller.createTestRun(request);
    const wanted = new Map<string, Chosen>();
    for (const item of request.include ?? [...testItems(this.controller.items)]) {
      const [file, index] = this.splitId(item.id);
      if (index === undefined || wanted.get(file) === 'all') wanted.set(file, 'all');
      else wanted.set(file, new Set([...((wanted.get(file) as Set<number> | undefined) ?? []), index]));
    }
    try {
      for (const [file, chosen] of wanted) {
        if (token.isCancellationRequested) break;
        await this.runFile(run, vscode.Uri.parse(file), chosen, token);
      }
    } finally {
      run.end();
    }
  }

  /** An output line of a file's run, in the run's output and to the listeners. */
  protected say(run: vscode.TestRun, item: vscode.TestItem, line: string): void {
    run.appendOutput(`${line.replace(/\r?\n/g, '\r\n')}\r\n`, undefined, item);
    this.reportEmitter.fire({ file: item.id, kind: 'output', message: line });
  }

  /** Marks an item on the run, and tells the listeners of `onDidReport`. */
  protected verdict(run: vscode.TestRun, item: vscode.TestItem, kind: K, message?: vscode.TestMessage): void {
    const verdict: TestVerdict = kind;
    switch (verdict) {
      case 'passed':
        run.passed(item);
        break;
      case 'failed':
        run.failed(item, message ?? new vscode.TestMessage(''));
        break;
      case 'errored':
        run.errored(item, message ?? new vscode.TestMessage(''));
        break;
      case 'skipped':
        if (message) run.appendOutput(`${messageText(message)}\r\n`, undefined, item);
        run.skipped(item);
        break;
      default: {
        const exhaustive: never = verdict;
        throw new Error(`unknown verdict ${String(exhaustive)}`);
      }
    }
    this.reportEmitter.fire({
      file: this.splitId(item.id)[0],
      item: item.id,
      kind,
      ...(message === undefined ? {} : { message: messageText(message) }),
      ...(message?.expectedOutput === undefined ? {} : { expected: message.expectedOutput }),
      ...(message?.actualOutput === undefined ? {} : { actual: message.actualOutput }),
    });
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
    this.reportEmitter.dispose();
    this.madeController?.dispose();
  }
}

function messageText(message: vscode.TestMessage): string {
  return typeof message.message === 'string' ? message.message : message.message.value;
}

export function* testItems(collection: vscode.TestItemCollection): Generator<vscode.TestItem> {
  for (const [, item] of collection) yield item;
}

export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = 0; index < text.length; index++) if (text[index] === '\n') starts.push(index + 1);
  return starts;
}

export function position(starts: readonly number[], offset: number): vscode.Position {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (starts[middle] <= offset) low = middle;
    else high = middle - 1;
  }
  return new vscode.Position(low, offset - starts[low]);
}
