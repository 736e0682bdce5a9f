import * as vscode from 'vscode';
import { parseMcpConfig, type ConfigProblem } from '../core/config/mcpConfig';
import { serverEntryId, type ServerEntry } from './serverEntry';

/** Where a workspace folder keeps its servers, in VS Code's own format. */
export const WORKSPACE_CONFIG_PATH = '.vscode/mcp.json';

const RELOAD_DEBOUNCE_MS = 150;

export interface ConfigFileProblems {
  configUri: vscode.Uri;
  problems: readonly ConfigProblem[];
}

/**
 * Reads every workspace folder's `.vscode/mcp.json`, watches them (and the folder list), and publishes the
 * complete list of servers after each change. Problems are reported once per distinct set, so saving an
 * unrelated edit does not repeat a warning the user has already seen.
 */
export class ConfigLoader implements vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<readonly ServerEntry[]>();
  private readonly problemsEmitter = new vscode.EventEmitter<ConfigFileProblems>();
  private readonly watchers = new Map<string, vscode.FileSystemWatcher>();
  private readonly reportedProblems = new Map<string, string>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  private loadSequence = 0;

  /** The full server list after each reload. */
  readonly onDidChange = this.changeEmitter.event;
  /** A config file's problems, when they differ from what was last reported for that file. */
  readonly onDidFindProblems = this.problemsEmitter.event;

  constructor() {
    this.subscriptions.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.updateWatchers();
        this.scheduleReload();
      }),
    );
    this.updateWatchers();
  }

  /** Reads all files now and publishes the result (also returned). */
  async reload(): Promise<readonly ServerEntry[]> {
    const sequence = ++this.loadSequence;
    const folders = vscode.workspace.workspaceFolders ?? [];
    const perFolder = await Promise.all(folders.map((folder) => this.readFolder(folder)));
    const entries = perFolder.flat();
    // A slower, older read must not overwrite a newer one.
    if (sequence === this.loadSequence) this.changeEmitter.fire(entries);
    return entries;
  }

  dispose(): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    for (const watcher of this.watchers.values()) watcher.dispose();
    this.watchers.clear();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changeEmitter.dispose();
    this.problemsEmitter.dispose();
  }

  private async readFolder(folder: vscode.WorkspaceFolder): Promise<ServerEntry[]> {
    const configUri = vscode.Uri.joinPath(folder.uri, WORKSPACE_CONFIG_PATH);
    let text: string;
    try {
      text = new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(configUri));
    } catch (error) {
      // No file is the normal case for most folders; anything else is worth a warning.
      const missing = error instanceof vscode.FileSystemError && error.code === 'FileNotFound';
      this.report(configUri, missing ? [] : [{ message: vscode.l10n.t('cannot read the file: {0}', String(error)) }]);
      return [];
    }
    const parsed = parseMcpConfig(text);
    this.report(configUri, parsed.problems);
    return parsed.servers.map((definition) => ({
      id: serverEntryId(configUri, definition.name),
      name: definition.name,
      definition,
      inputs: parsed.inputs,
      origin: { configUri, folder, scope: 'workspace' as const },
    }));
  }

  private report(configUri: vscode.Uri, problems: readonly ConfigProblem[]): void {
    const key = configUri.toString();
    const fingerprint = JSON.stringify(problems);
    if (problems.length === 0) {
      this.reportedProblems.delete(key);
      return;
    }
    if (this.reportedProblems.get(key) === fingerprint) return;
    this.reportedProblems.set(key, fingerprint);
    this.problemsEmitter.fire({ configUri, problems });
  }

  private updateWatchers(): void {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const wanted = new Set(folders.map((folder) => folder.uri.toString()));
    for (const [key, watcher] of this.watchers) {
      if (!wanted.has(key)) {
        watcher.dispose();
        this.watchers.delete(key);
      }
    }
    for (const folder of folders) {
      const key = folder.uri.toString();
      if (this.watchers.has(key)) continue;
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, WORKSPACE_CONFIG_PATH));
      watcher.onDidCreate(() => this.scheduleReload());
      watcher.onDidChange(() => this.scheduleReload());
      watcher.onDidDelete(() => this.scheduleReload());
      this.watchers.set(key, watcher);
    }
  }

  /** Editors save in bursts (and create+change arrive together); one reload per burst is enough. */
  private scheduleReload(): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = undefined;
      void this.reload();
    }, RELOAD_DEBOUNCE_MS);
  }
}
