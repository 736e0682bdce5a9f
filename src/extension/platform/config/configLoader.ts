import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { JsonSyntaxProblem } from '../../../workbench/config/jsonSyntax';
import {
  hasSyntaxErrors,
  parseMcpConfig,
  type ConfigProblem,
  type TextSpot,
} from '../../../workbench/config/mcpConfig';
import { readUserServers, USER_SERVERS_SETTING, USER_SETTINGS_SOURCE_URI, userServersLabel } from './userServers';
import { serverEntryId, type ServerEntry } from './serverEntry';
import { applyServerEras, SERVER_ERAS_SETTING } from './serverEras';

/**
 * The text of a folder's mcp.json, or undefined when it has none. A local folder's file is read with node:fs: at
 * start-up the extension host's workspace.fs waits for the window (28–35 ms of a 40 ms activation, measured in
 * code-server), node:fs takes well under a millisecond. Other schemes go through workspace.fs. Both decode the same
 * way (TextDecoder drops a byte order mark, which the JSONC parser would reject).
 */
async function readConfigText(uri: vscode.Uri): Promise<string | undefined> {
  if (uri.scheme === 'file') {
    try {
      return new TextDecoder('utf-8').decode(await fs.promises.readFile(uri.fsPath));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw error;
    }
  }
  try {
    return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return undefined;
    throw error;
  }
}

/** Where a workspace folder keeps its servers, in VS Code's own format. */
export const WORKSPACE_CONFIG_PATH = '.vscode/mcp.json';

const RELOAD_DEBOUNCE_MS = 150;

/** Workspace mcp.json files this extension has just written (see announceConfigWritten). */
const configWrites = new vscode.EventEmitter<vscode.Uri>();

/**
 * Said by the code that writes a workspace mcp.json (Add Server, Import Servers, a registry server): the loaders
 * reload without waiting for their file watcher, which may report late or not at all (CI once saw the Test
 * Explorer's watcher stay silent for a minute). The watcher's own report, if it comes, joins the same reload.
 */
export function announceConfigWritten(uri: vscode.Uri): void {
  configWrites.fire(uri);
}

export interface ConfigFileProblems {
  configUri: vscode.Uri;
  /** Where the problems are, for the message (a relative path, or the user settings). */
  sourceLabel: string;
  scope: 'workspace' | 'user';
  problems: readonly ConfigProblem[];
}

/** A server entry that does not load (`{"type": "http"}` without a url, an unknown type): the Servers view shows it. */
export interface ConfigEntryProblem {
  configUri: vscode.Uri;
  sourceLabel: string;
  scope: 'workspace' | 'user';
  server: string;
  message: string;
  /** Where the entry is in its file (undefined for the user settings, which are not read as text). */
  at?: TextSpot;
}

/**
 * A config file that does not parse (typically a half-typed edit). Its servers keep the last configuration that
 * parsed, so saving mid-edit does not stop them; the file is applied again once it parses.
 */
export interface ConfigSyntaxError {
  configUri: vscode.Uri;
  sourceLabel: string;
  /** The first syntax error: later ones usually follow from it. */
  syntax: JsonSyntaxProblem;
  /** How many servers of the last good configuration are kept meanwhile (0 when the file never parsed). */
  keptServers: number;
}

/**
 * Reads every workspace folder's `.vscode/mcp.json` and the user-level list in settings, watches them (and the
 * folder list), and publishes the complete list of servers after each change. Problems are reported once per distinct set, so saving an
 * unrelated edit does not repeat a warning the user has already seen.
 */
export class ConfigLoader implements vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<readonly ServerEntry[]>();
  private readonly problemsEmitter = new vscode.EventEmitter<ConfigFileProblems>();
  private readonly watchers = new Map<string, vscode.FileSystemWatcher>();
  private readonly reportedProblems = new Map<string, string>();
  /** Per config file, the entries of the last version that parsed: kept while the file does not parse. */
  private readonly lastGoodEntries = new Map<string, ServerEntry[]>();
  private readonly syntaxErrorsByFile = new Map<string, ConfigSyntaxError>();
  private readonly syntaxErrorsEmitter = new vscode.EventEmitter<void>();
  /** Per config file, its entries that do not load (kept from the last version that parsed while it does not). */
  private readonly entryProblemsByFile = new Map<string, ConfigEntryProblem[]>();
  private readonly entryProblemsEmitter = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  private loadSequence = 0;
  private latestLoad: Promise<ServerEntry[]> | undefined;

  /** The full server list after each reload. */
  readonly onDidChange = this.changeEmitter.event;
  /** A config file's problems, when they differ from what was last reported for that file. */
  readonly onDidFindProblems = this.problemsEmitter.event;
  /** The set of files that do not parse changed (or a broken file's error moved). */
  readonly onDidChangeSyntaxErrors = this.syntaxErrorsEmitter.event;

  /** The set of entries that do not load changed. */
  readonly onDidChangeEntryProblems = this.entryProblemsEmitter.event;

  /** Server entries that do not load right now, in file order. */
  get entryProblems(): readonly ConfigEntryProblem[] {
    return [...this.entryProblemsByFile.values()].flat();
  }

  /** Config files that do not parse right now, in folder order. */
  get syntaxErrors(): readonly ConfigSyntaxError[] {
    return [...this.syntaxErrorsByFile.values()];
  }

  constructor() {
    this.subscriptions.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.updateWatchers();
        this.scheduleReload();
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(USER_SERVERS_SETTING) || event.affectsConfiguration(SERVER_ERAS_SETTING))
          this.scheduleReload();
      }),
      configWrites.event(() => this.scheduleReload()),
    );
    this.updateWatchers();
  }

  /**
   * Reads all files now and publishes the result (also returned). When a newer reload starts meanwhile (a file
   * watcher, a settings change), this one resolves only once the newest has been published, so callers never
   * act on a list that is about to be replaced.
   */
  async reload(): Promise<readonly ServerEntry[]> {
    try {
      return await this.publishNewest();
    } finally {
      // Settling an already settled promise does nothing: only the first reload to end counts.
      this.firstLoadDone();
    }
  }

  private firstLoadDone!: () => void;
  /** Settles once the first reload has published its servers (or failed): what waits for the configuration waits on it. */
  readonly firstLoad = new Promise<void>((resolve) => (this.firstLoadDone = resolve));

  private async publishNewest(): Promise<readonly ServerEntry[]> {
    const sequence = ++this.loadSequence;
    const load = this.readAll();
    this.latestLoad = load;
    const entries = await load;
    if (sequence === this.loadSequence) {
      this.changeEmitter.fire(entries);
      return entries;
    }
    // A slower, older read must not overwrite a newer one; wait for the newest to be published.
    let newest = this.latestLoad;
    while (newest !== undefined) {
      const result = await newest;
      if (newest === this.latestLoad) return result;
      newest = this.latestLoad;
    }
    return entries;
  }

  private async readAll(): Promise<ServerEntry[]> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const perFolder = await Promise.all(folders.map((folder) => this.readFolder(folder)));
    const current = new Set(folders.map((folder) => vscode.Uri.joinPath(folder.uri, WORKSPACE_CONFIG_PATH).toString()));
    for (const key of [...this.syntaxErrorsByFile.keys()]) {
      if (current.has(key)) continue;
      this.syntaxErrorsByFile.delete(key);
      this.syntaxErrorsEmitter.fire();
    }
    for (const key of [...this.entryProblemsByFile.keys()]) {
      if (current.has(key) || key === USER_SETTINGS_SOURCE_URI.toString()) continue;
      this.entryProblemsByFile.delete(key);
      this.entryProblemsEmitter.fire();
    }
    const user = readUserServers();
    this.report(USER_SETTINGS_SOURCE_URI, user.problems, userServersLabel(), 'user');
    // The user list is not read as text: its problems have no place in a file.
    this.setEntryProblems(
      USER_SETTINGS_SOURCE_URI,
      user.problems.map(({ at: _at, ...problem }) => problem),
      userServersLabel(),
      'user',
    );
    return [...perFolder.flat(), ...user.entries];
  }

  dispose(): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    for (const watcher of this.watchers.values()) watcher.dispose();
    this.watchers.clear();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changeEmitter.dispose();
    this.problemsEmitter.dispose();
    this.syntaxErrorsEmitter.dispose();
    this.entryProblemsEmitter.dispose();
  }

  private async readFolder(folder: vscode.WorkspaceFolder): Promise<ServerEntry[]> {
    const configUri = vscode.Uri.joinPath(folder.uri, WORKSPACE_CONFIG_PATH);
    const label = workspaceConfigLabel(folder);
    let text: string | undefined;
    let unreadable: unknown;
    try {
      text = await readConfigText(configUri);
    } catch (error) {
      unreadable = error;
    }
    if (text === undefined) {
      // No file is the normal case for most folders; anything else is worth a warning.
      this.report(
        configUri,
        unreadable === undefined ? [] : [{ message: vscode.l10n.t('cannot read the file: {0}', String(unreadable)) }],
        label,
      );
      this.lastGoodEntries.delete(configUri.toString());
      this.setSyntaxError(configUri, undefined);
      this.setEntryProblems(configUri, [], label, 'workspace');
      return [];
    }
    const parsed = parseMcpConfig(text);
    const syntax = hasSyntaxErrors(parsed) ? parsed.problems.find((problem) => problem.syntax)?.syntax : undefined;
    if (syntax) {
      // A save mid-edit: keep what runs, and say where the file is broken (the view's row, not a notification per save).
      const kept = this.lastGoodEntries.get(configUri.toString()) ?? [];
      this.report(configUri, [], label);
      this.setSyntaxError(configUri, { configUri, sourceLabel: label, syntax, keptServers: kept.length });
      return kept;
    }
    this.setSyntaxError(configUri, undefined);
    // Per-server options VS Code's own mcp.json schema would flag live in a setting (see serverEras.ts).
    const eras = applyServerEras(
      parsed.servers,
      vscode.workspace.getConfiguration(undefined, folder.uri).get(SERVER_ERAS_SETTING),
    );
    this.report(configUri, [...parsed.problems, ...eras.problems.map((message) => ({ message }))], label);
    this.setEntryProblems(configUri, parsed.problems, label, 'workspace');
    const entries = eras.definitions.map((definition) => ({
      id: serverEntryId(configUri, definition.name),
      name: definition.name,
      definition,
      inputs: parsed.inputs,
      origin: { configUri, folder, scope: 'workspace' as const, label },
    }));
    this.lastGoodEntries.set(configUri.toString(), entries);
    return entries;
  }

  private setSyntaxError(configUri: vscode.Uri, error: ConfigSyntaxError | undefined): void {
    const key = configUri.toString();
    const previous = this.syntaxErrorsByFile.get(key);
    if (error === undefined) {
      if (previous === undefined) return;
      this.syntaxErrorsByFile.delete(key);
    } else {
      if (previous && JSON.stringify({ ...previous, configUri: key }) === JSON.stringify({ ...error, configUri: key }))
        return;
      this.syntaxErrorsByFile.set(key, error);
    }
    this.syntaxErrorsEmitter.fire();
  }

  private setEntryProblems(
    configUri: vscode.Uri,
    problems: readonly ConfigProblem[],
    sourceLabel: string,
    scope: 'workspace' | 'user',
  ): void {
    const key = configUri.toString();
    const entries = problems.flatMap(({ server, message, at }) =>
      server === undefined ? [] : [{ configUri, sourceLabel, scope, server, message, ...(at ? { at } : {}) }],
    );
    const previous = this.entryProblemsByFile.get(key) ?? [];
    const same = (list: readonly ConfigEntryProblem[]) =>
      JSON.stringify(list.map((problem) => ({ ...problem, configUri: key })));
    if (same(previous) === same(entries)) return;
    if (entries.length === 0) this.entryProblemsByFile.delete(key);
    else this.entryProblemsByFile.set(key, entries);
    this.entryProblemsEmitter.fire();
  }

  private report(
    configUri: vscode.Uri,
    problems: readonly ConfigProblem[],
    sourceLabel: string,
    scope: 'workspace' | 'user' = 'workspace',
  ): void {
    const key = configUri.toString();
    // Where a problem is does not make it another problem: an edit that moves the entry does not warn again.
    const fingerprint = JSON.stringify(problems.map(({ server, message }) => ({ server, message })));
    if (problems.length === 0) {
      this.reportedProblems.delete(key);
      return;
    }
    if (this.reportedProblems.get(key) === fingerprint) return;
    this.reportedProblems.set(key, fingerprint);
    this.problemsEmitter.fire({ configUri, problems, sourceLabel, scope });
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
      const watcher = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(folder, WORKSPACE_CONFIG_PATH),
      );
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

/** "`.vscode/mcp.json` (folder)" in multi-root workspaces, where the bare path would be ambiguous. */
export function workspaceConfigLabel(folder: vscode.WorkspaceFolder): string {
  return (vscode.workspace.workspaceFolders?.length ?? 0) > 1
    ? `${WORKSPACE_CONFIG_PATH} (${folder.name})`
    : WORKSPACE_CONFIG_PATH;
}
