import * as path from 'node:path';
import * as vscode from 'vscode';
import { BurstDebounce } from '../../../workbench/config/burstDebounce';
import { DIALECTS, type DialectServer } from '../../../workbench/config/dialects';
import { MAX_CLAUDE_JSON_BYTES } from '../../../workbench/config/dialects/claudeCode';
import { readConfigFile } from '../../../workbench/node/configFile';
import { configSourceFiles, type ConfigSourceFile } from '../../../workbench/node/configSources';
import type { JsonSyntaxProblem } from '../../../workbench/config/jsonSyntax';
import {
  hasSyntaxErrors,
  parseMcpConfig,
  type ConfigProblem,
  type TextSpot,
} from '../../../workbench/config/mcpConfig';
import { readUserServers, USER_SERVERS_SETTING, USER_SETTINGS_SOURCE_URI, userServersLabel } from './userServers';
import { serverEntryId, type ServerEntry } from './serverEntry';
import {
  mergeSameServers,
  readConfigText,
  SOURCES_SECTION,
  enabledSources,
  sourcesHomeFolder,
  workspaceFolderOf,
} from './configSources';
import { applyServerEras, SERVER_ERAS_SETTING } from './serverEras';

/** Where a workspace folder keeps its servers, in VS Code's own format. */
export const WORKSPACE_CONFIG_PATH = '.vscode/mcp.json';

const RELOAD_DEBOUNCE_MS = 150;
/** While a file keeps changing (a tool rewriting it in a loop), reload at most this often, but at least this often. */
const RELOAD_MAX_WAIT_MS = 1000;

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
  /** Set by the config feature (it has the extension's context): the active profile's user mcp.json. */
  private vscodeUserFile: string | undefined;
  private readonly debounce = new BurstDebounce(() => void this.reload(), RELOAD_DEBOUNCE_MS, RELOAD_MAX_WAIT_MS);
  private readonly reportedProblems = new Map<string, string>();
  /** Per config file, the entries of the last version that parsed: kept while the file does not parse. */
  private readonly lastGoodEntries = new Map<string, ServerEntry[]>();
  private readonly syntaxErrorsByFile = new Map<string, ConfigSyntaxError>();
  private readonly syntaxErrorsEmitter = new vscode.EventEmitter<void>();
  /** Per config file, its entries that do not load (kept from the last version that parsed while it does not). */
  private readonly entryProblemsByFile = new Map<string, ConfigEntryProblem[]>();
  private readonly entryProblemsEmitter = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[] = [];
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
        if (event.affectsConfiguration(SOURCES_SECTION)) this.updateWatchers();
        if (
          event.affectsConfiguration(USER_SERVERS_SETTING) ||
          event.affectsConfiguration(SERVER_ERAS_SETTING) ||
          event.affectsConfiguration(SOURCES_SECTION)
        )
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

  /** VS Code's user mcp.json of this profile (next to the extension's global storage), read from now on. */
  useVscodeUserFile(file: string | undefined): void {
    if (file === this.vscodeUserFile) return;
    this.vscodeUserFile = file;
    this.updateWatchers();
    this.scheduleReload();
  }

  /** Every source file this window reads, on or off (the on/off offer needs the off ones too). */
  sourceFiles(): ConfigSourceFile[] {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
    const workspaceFile = vscode.workspace.workspaceFile;
    const files = configSourceFiles({
      platform: process.platform,
      home: sourcesHomeFolder(),
      folders: folders.map((folder) => folder.uri.fsPath),
      env: process.env,
      ...(workspaceFile?.scheme === 'file' ? { workspaceFile: workspaceFile.fsPath } : {}),
      ...(this.vscodeUserFile ? { vscodeUserFile: this.vscodeUserFile } : {}),
    });
    if (folders.length < 2) return files;
    // Multi-root: a file is named with its folder's name as the workspace names it, not the folder's path.
    return files.map((file) => {
      const folder = folders.find((candidate) => candidate.uri.fsPath === file.workspaceFolder);
      if (file.scope !== 'workspace' || !folder || file.id === 'codeWorkspace') return file;
      return { ...file, label: `${path.relative(folder.uri.fsPath, file.path).replace(/\\/g, '/')} (${folder.name})` };
    });
  }

  private enabledSourceFiles(): ConfigSourceFile[] {
    const enabled = enabledSources();
    return this.sourceFiles().filter((file) => enabled(file.id));
  }

  private async readAll(): Promise<ServerEntry[]> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    // Local folders: every enabled source. Others (a virtual file system): their .vscode/mcp.json, through workspace.fs.
    const files = this.enabledSourceFiles();
    const otherFolders = folders.filter((folder) => folder.uri.scheme !== 'file');
    const [perFile, perOtherFolder] = await Promise.all([
      Promise.all(files.map((file) => this.readSource(file))),
      Promise.all(otherFolders.map((folder) => this.readFolder(folder))),
    ]);
    const current = new Set([
      ...files.map((file) => vscode.Uri.file(file.path).toString()),
      ...otherFolders.map((folder) => vscode.Uri.joinPath(folder.uri, WORKSPACE_CONFIG_PATH).toString()),
    ]);
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
    for (const key of [...this.lastGoodEntries.keys()]) if (!current.has(key)) this.lastGoodEntries.delete(key);
    const user = readUserServers();
    this.report(USER_SETTINGS_SOURCE_URI, user.problems, userServersLabel(), 'user');
    // The user list is not read as text: its problems have no place in a file.
    this.setEntryProblems(
      USER_SETTINGS_SOURCE_URI,
      user.problems.map(({ at: _at, ...problem }) => problem),
      userServersLabel(),
      'user',
    );
    return mergeSameServers([...perFile.flat(), ...perOtherFolder.flat(), ...user.entries]);
  }

  /** One source file, in its client's dialect; a file that is refused or does not parse keeps its last good servers. */
  private async readSource(file: ConfigSourceFile): Promise<ServerEntry[]> {
    const configUri = vscode.Uri.file(file.path);
    const key = configUri.toString();
    const label = file.label;
    const read = await readConfigFile(file.path, file.dialect === 'claude-code' ? MAX_CLAUDE_JSON_BYTES : undefined);
    if (read.kind === 'missing') {
      this.report(configUri, [], label, file.scope);
      this.lastGoodEntries.delete(key);
      this.setSyntaxError(configUri, undefined);
      this.setEntryProblems(configUri, [], label, file.scope);
      return [];
    }
    if (read.kind === 'refused') {
      // A symlink loop, a huge file, one that cannot be read: said once, and what ran from it keeps running.
      this.report(configUri, [{ message: read.reason }], label, file.scope);
      return this.lastGoodEntries.get(key) ?? [];
    }
    const parsed = DIALECTS[file.dialect].read(read.text, {
      path: file.path,
      ...(file.workspaceFolder ? { workspaceFolder: file.workspaceFolder } : {}),
      pathSeparator: path.sep,
    });
    const syntax = parsed.problems.find((problem) => problem.syntax)?.syntax;
    if (syntax) {
      const kept = this.lastGoodEntries.get(key) ?? [];
      this.report(configUri, [], label, file.scope);
      this.setSyntaxError(configUri, { configUri, sourceLabel: label, syntax, keptServers: kept.length });
      return kept;
    }
    this.setSyntaxError(configUri, undefined);
    const folder = workspaceFolderOf(file);
    const eras = applyServerEras(
      parsed.servers.map((server) => server.definition),
      vscode.workspace.getConfiguration(undefined, folder.uri).get(SERVER_ERAS_SETTING),
    );
    this.report(configUri, [...parsed.problems, ...eras.problems.map((message) => ({ message }))], label, file.scope);
    this.setEntryProblems(configUri, parsed.problems, label, file.scope);
    const byName = new Map(parsed.servers.map((server) => [server.definition.name, server]));
    const entries = eras.definitions.map((definition): ServerEntry => {
      const read = byName.get(definition.name);
      return {
        id: serverEntryId(configUri, definition.name),
        name: definition.name,
        definition,
        inputs: parsed.inputs,
        ...(read?.allowedTools ? { allowedTools: read.allowedTools } : {}),
        origin: {
          configUri,
          folder,
          scope: file.scope,
          label,
          ...(notesOf(read) ? { notes: notesOf(read) } : {}),
          ...(read?.at ? { at: read.at } : {}),
        },
      };
    });
    this.lastGoodEntries.set(key, entries);
    return entries;
  }

  dispose(): void {
    this.debounce.dispose();
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

  /**
   * One watcher per enabled source file, inside the workspace or not (a home-folder file is watched through its
   * folder, non-recursively), plus each non-local folder's .vscode/mcp.json. Every event only schedules a reload.
   */
  private updateWatchers(): void {
    const wanted = new Map<string, () => vscode.FileSystemWatcher>();
    const folders = vscode.workspace.workspaceFolders ?? [];
    // One watcher per folder for its files (a brace glob): each watcher costs the extension host a read of the
    // watcher settings (0.5 ms apiece at a window's start, 7 of them for the default sources, profiled).
    const byBase = new Map<string, { base: vscode.WorkspaceFolder | vscode.Uri; paths: string[] }>();
    for (const file of this.enabledSourceFiles()) {
      const folder = folders.find((candidate) => candidate.uri.fsPath === file.workspaceFolder);
      const inside =
        file.scope === 'workspace' && folder && !path.relative(folder.uri.fsPath, file.path).startsWith('..');
      const base = inside ? folder : vscode.Uri.file(path.dirname(file.path));
      const relative = inside ? path.relative(folder.uri.fsPath, file.path) : path.basename(file.path);
      // A name a glob would read as a pattern (a workspace file named with a comma or a brace) keeps a watcher of its own.
      const plain = !/[{}[\],*?]/.test(relative);
      const key = `${inside ? folder.uri.toString() : base.toString()}${plain ? '' : `:${relative}`}`;
      const group = byBase.get(key) ?? { base, paths: [] };
      group.paths.push(relative.replace(/\\/g, '/'));
      byBase.set(key, group);
    }
    for (const [key, { base, paths }] of byBase) {
      const glob = paths.length === 1 ? paths[0] : `{${[...new Set(paths)].sort().join(',')}}`;
      wanted.set(`files:${key}:${glob}`, () =>
        vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, glob)),
      );
    }
    for (const folder of folders.filter((candidate) => candidate.uri.scheme !== 'file'))
      wanted.set(`folder:${folder.uri.toString()}`, () =>
        vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, WORKSPACE_CONFIG_PATH)),
      );
    for (const [key, watcher] of this.watchers) {
      if (wanted.has(key)) continue;
      watcher.dispose();
      this.watchers.delete(key);
    }
    for (const [key, create] of wanted) {
      if (this.watchers.has(key)) continue;
      const watcher = create();
      watcher.onDidCreate(() => this.scheduleReload());
      watcher.onDidChange(() => this.scheduleReload());
      watcher.onDidDelete(() => this.scheduleReload());
      this.watchers.set(key, watcher);
    }
  }

  /** Editors save in bursts, and a tool may rewrite a file in a loop: one reload per burst, at least one per second. */
  private scheduleReload(): void {
    this.debounce.schedule();
  }
}

/** "`.vscode/mcp.json` (folder)" in multi-root workspaces, where the bare path would be ambiguous. */
export function workspaceConfigLabel(folder: vscode.WorkspaceFolder): string {
  return (vscode.workspace.workspaceFolders?.length ?? 0) > 1
    ? `${WORKSPACE_CONFIG_PATH} (${folder.name})`
    : WORKSPACE_CONFIG_PATH;
}

/** The row's notes: the dialect's, and the allow-list this extension applies (said, so no tool seems lost). */
function notesOf(read: DialectServer | undefined): readonly string[] | undefined {
  if (!read) return undefined;
  const notes = read.allowedTools
    ? [
        ...read.notes,
        vscode.l10n.t(
          'Copilot\'s "tools" allow-list is applied: only these tools are shown and callable: {0}',
          read.allowedTools.join(', ') || vscode.l10n.t('no tools'),
        ),
      ]
    : read.notes;
  return notes.length > 0 ? notes : undefined;
}
