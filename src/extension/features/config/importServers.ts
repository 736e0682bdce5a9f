import { readFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  IMPORT_SOURCE_LABELS,
  importKindForFile,
  importServers,
  knownImportSources,
  uniqueName,
  type ImportCandidate,
  type ImportSkip,
  type ImportSourceKind,
} from '../../../workbench/node/importers';
import { errorMessage } from '../../../protocol/errors';
import {
  addServers,
  pickTarget,
  takenInputIds,
  takenNames,
  targetFromArgument,
  targetLabel,
  type ConfigTarget,
} from '../../platform/config/configTargets';
import { showError } from '../../platform/ui/coreErrors';
import { literalSecrets, withPasswordInputs } from './importSecrets';
import type { InputEntry } from '../../../workbench/config/jsoncEdit';

interface SourceFile {
  kind: ImportSourceKind;
  label: string;
  path: string;
}

/**
 * What a caller may fill in ahead of time (automation, tests): other files to read instead of the known locations,
 * the target ("user" or a folder URI string), and which found servers to add (by name, or "all").
 */
interface ImportServersArguments {
  sources?: { kind: ImportSourceKind; path: string }[];
  target?: string;
  select?: string[] | 'all';
  /** Literal secrets bound for a shared workspace file: password inputs (the default) or written as they are. */
  secrets?: SecretHandling;
}

/** What becomes of literal tokens and keys written into a folder's shared mcp.json. */
type SecretHandling = 'password-inputs' | 'literal';

/** The outcome, returned to callers (tests) and summarized for the user. */
interface ImportOutcome {
  found: { name: string; source: string }[];
  skipped: ImportSkip[];
  added: string[];
}

/** One row of the list of found servers: where it was found (the file's path) and what it runs. */
export interface ImportPickItem {
  name: string;
  label: string;
  description: string;
  detail: string;
  picked: boolean;
}

/**
 * The steps that ask the person, in order: the list of found servers (or "Choose file…"), the file dialog, then
 * where to write. Test hooks replace it to answer and to see what each step showed.
 */
interface ImportUi {
  pickServers(
    title: string,
    items: readonly ImportPickItem[],
    skippedCount: number,
  ): Promise<readonly string[] | 'choose-file' | undefined>;
  chooseFile(title: string): Promise<string | undefined>;
  pickTarget(title: string): Promise<ConfigTarget | undefined>;
  /**
   * Literal secrets are about to go into a shared file: turn them into password inputs, or keep them. Without this
   * step (automation, tests), they become password inputs.
   */
  protectSecrets?(title: string, where: readonly string[]): Promise<SecretHandling | undefined>;
}

/** MCP Workbench: Import Servers… — Claude Desktop, Cursor, Cline, Windsurf, Copilot CLI and workspace .mcp.json files. */
export class ServerImporter implements vscode.Disposable {
  /** The "MCP Workbench: Import" output channel listing what was skipped; created on the first import. */
  private report: vscode.OutputChannel | undefined;
  /** The person's steps; test hooks may answer them instead. */
  ui: ImportUi = quickPickImportUi;

  async run(argument: unknown): Promise<ImportOutcome | undefined> {
    const given: ImportServersArguments =
      typeof argument === 'object' && argument !== null ? (argument as ImportServersArguments) : {};
    try {
      this.report ??= vscode.window.createOutputChannel(vscode.l10n.t('MCP Workbench: Import'));
      return await importFlow(given, this.report, this.ui);
    } catch (error) {
      void showError(error, {
        words: (reason) => vscode.l10n.t('Could not import MCP servers: {0}', reason),
        logAs: 'Could not import MCP servers',
      });
      return undefined;
    }
  }

  dispose(): void {
    this.report?.dispose();
  }
}

interface Scan {
  found: ImportCandidate[];
  skipped: ImportSkip[];
  labels: Map<ImportCandidate, string>;
}

/** Scan first (known locations, or the files given), list what was found, let the person add a file, then ask where. */
async function importFlow(
  given: ImportServersArguments,
  report: vscode.OutputChannel,
  ui: ImportUi,
): Promise<ImportOutcome | undefined> {
  const title = vscode.l10n.t('Import MCP Servers');
  const scan: Scan = { found: [], skipped: [], labels: new Map() };
  for (const source of sourceFiles(given)) await scanFile(scan, source, false);
  let chosen: ImportCandidate[] | undefined;
  if (given.select)
    chosen = scan.found.filter((candidate) => given.select === 'all' || given.select?.includes(candidate.name));
  while (!chosen) {
    if (scan.skipped.length > 0) showSkipped(report, scan.skipped);
    const answer =
      scan.found.length > 0
        ? await ui.pickServers(title, pickItems(scan), scan.skipped.length)
        : await askForFile(scan.skipped.length);
    if (answer === undefined) return { found: describeFound(scan), skipped: scan.skipped, added: [] };
    if (answer === 'choose-file') {
      const file = await ui.chooseFile(title);
      if (file) await scanFile(scan, { kind: importKindForFile(file), label: file, path: file }, true);
      continue;
    }
    chosen = scan.found.filter((candidate) => answer.includes(candidate.name));
  }
  if (chosen.length === 0) return { found: describeFound(scan), skipped: scan.skipped, added: [] };
  const target = targetFromArgument(given.target) ?? (await ui.pickTarget(title));
  if (!target) return { found: describeFound(scan), skipped: scan.skipped, added: [] };
  // Names are made unique against the target only now that it is known.
  const taken = await takenNames(target);
  let servers = chosen.map((candidate) => {
    const name = uniqueName(candidate.name, taken);
    taken.push(name);
    return { name, entry: candidate.entry };
  });
  const inputs: InputEntry[] = [];
  // A folder's mcp.json is shared with everyone who gets the folder: a token copied in clear would travel with it.
  const withSecrets =
    target.kind === 'workspace'
      ? servers.flatMap((server) => literalSecrets(server.entry).map((secret) => `${server.name}: ${secret.key}`))
      : [];
  if (withSecrets.length > 0) {
    const handling =
      given.secrets ?? (ui.protectSecrets ? await ui.protectSecrets(title, withSecrets) : 'password-inputs');
    if (handling === undefined) return { found: describeFound(scan), skipped: scan.skipped, added: [] };
    if (handling === 'password-inputs') {
      const ids = await takenInputIds(target);
      servers = servers.map((server) => {
        const converted = withPasswordInputs(server.name, server.entry, [...ids, ...inputs.map((input) => input.id)]);
        inputs.push(...converted.inputs);
        return { name: server.name, entry: converted.entry };
      });
    }
  }
  await addServers(target, servers, inputs);
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      'Imported {0} MCP server(s) into {1}: {2}',
      servers.length,
      targetLabel(target),
      servers.map((server) => server.name).join(', '),
    ),
  );
  return { found: describeFound(scan), skipped: scan.skipped, added: servers.map((server) => server.name) };
}

/** Nothing found: say where it looked and offer a file. */
async function askForFile(skippedCount: number): Promise<'choose-file' | undefined> {
  const choose = vscode.l10n.t('Choose File…');
  const choice = await vscode.window.showInformationMessage(
    skippedCount > 0
      ? vscode.l10n.t(
          'No importable MCP servers found; {0} skipped (see the "MCP Workbench: Import" output).',
          skippedCount,
        )
      : vscode.l10n.t(
          'No MCP servers found in Claude Desktop, Cursor, Cline, Windsurf, Copilot CLI or .mcp.json files.',
        ),
    choose,
  );
  return choice === choose ? 'choose-file' : undefined;
}

async function scanFile(scan: Scan, source: SourceFile, reportMissing: boolean): Promise<void> {
  let text: string;
  try {
    text = await readFile(source.path, 'utf8');
  } catch (error) {
    // Most known locations do not exist on a given machine; a file the person chose must be readable.
    if (reportMissing) scan.skipped.push({ name: source.path, reason: errorMessage(error) });
    return;
  }
  const result = importServers(source.kind, text, source.path, {
    takenNames: scan.found.map((candidate) => candidate.name),
  });
  for (const candidate of result.found) scan.labels.set(candidate, source.label);
  scan.found.push(...result.found);
  scan.skipped.push(...result.skipped.map((skip) => ({ name: `${skip.name} (${source.label})`, reason: skip.reason })));
}

function sourceFiles(given: ImportServersArguments): SourceFile[] {
  if (given.sources) return given.sources.map((source) => ({ ...source, label: IMPORT_SOURCE_LABELS[source.kind] }));
  const folders = (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .map((folder) => folder.uri.fsPath);
  return knownImportSources(process.platform, os.homedir(), folders, process.env).map((source) => ({
    kind: source.kind,
    label: source.label,
    path: source.path,
  }));
}

function pickItems(scan: Scan): ImportPickItem[] {
  return scan.found.map((candidate) => ({
    name: candidate.name,
    label: candidate.name,
    description: `${scan.labels.get(candidate) ?? IMPORT_SOURCE_LABELS[candidate.source]} — ${displayPath(candidate.filePath)}`,
    detail: [
      candidate.definition.kind === 'stdio'
        ? [candidate.definition.command, ...candidate.definition.args].join(' ')
        : candidate.definition.url,
      ...candidate.notes,
    ].join(' — '),
    picked: !candidate.disabled,
  }));
}

/** "~/Library/…/claude_desktop_config.json": the path as a person recognizes it. */
function displayPath(filePath: string): string {
  const home = os.homedir();
  return home && filePath.startsWith(home + path.sep) ? `~${filePath.slice(home.length)}` : filePath;
}

const quickPickImportUi: ImportUi = {
  async pickServers(title, items, skippedCount) {
    type Item = vscode.QuickPickItem & { name?: string; chooseFile?: true };
    const chooseFile: Item = {
      label: `$(folder-opened) ${vscode.l10n.t('Choose File…')}`,
      description: vscode.l10n.t('import from another file'),
      alwaysShow: true,
      chooseFile: true,
    };
    const quickPick = vscode.window.createQuickPick<Item>();
    quickPick.title = title;
    quickPick.canSelectMany = true;
    quickPick.ignoreFocusOut = true;
    quickPick.matchOnDescription = true;
    quickPick.placeholder =
      skippedCount > 0
        ? vscode.l10n.t('Select the servers to add ({0} skipped: see the "MCP Workbench: Import" output)', skippedCount)
        : vscode.l10n.t('Select the servers to add');
    const rows: Item[] = items.map((item) => ({
      label: item.label,
      description: item.description,
      detail: item.detail,
      name: item.name,
    }));
    quickPick.items = [chooseFile, ...rows];
    quickPick.selectedItems = rows.filter((_row, index) => items[index]?.picked);
    return new Promise((resolve) => {
      let settled = false;
      const finish = (value: readonly string[] | 'choose-file' | undefined) => {
        if (settled) return;
        settled = true;
        resolve(value);
        quickPick.dispose();
      };
      quickPick.onDidChangeSelection((selection) => {
        if (selection.some((item) => item.chooseFile)) finish('choose-file');
      });
      quickPick.onDidAccept(() => finish(quickPick.selectedItems.flatMap((item) => (item.name ? [item.name] : []))));
      quickPick.onDidHide(() => finish(undefined));
      quickPick.show();
    });
  },
  async chooseFile(title) {
    const picked = await vscode.window.showOpenDialog({
      title,
      canSelectMany: false,
      openLabel: vscode.l10n.t('Import'),
      filters: { [vscode.l10n.t('MCP configuration')]: ['json', 'jsonc'] },
    });
    return picked?.[0]?.fsPath;
  },
  pickTarget: (title) => pickTarget(title),
  async protectSecrets(_title, where) {
    const useInputs = vscode.l10n.t('Use Password Inputs');
    const keep = vscode.l10n.t('Write Them As They Are');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('The imported servers contain literal secrets: {0}.', where.join(', ')),
      {
        modal: true,
        detail: vscode.l10n.t(
          "This folder's .vscode/mcp.json is shared with everyone who gets the folder. Password inputs keep the values out of it: each is asked at the server's first start and kept in VS Code's secret storage.",
        ),
      },
      useInputs,
      keep,
    );
    return choice === useInputs ? 'password-inputs' : choice === keep ? 'literal' : undefined;
  },
};

/** Skipped entries go to their own output, each with its reason, so nothing disappears silently. */
function showSkipped(report: vscode.OutputChannel, skipped: readonly ImportSkip[]): void {
  report.clear();
  report.appendLine(vscode.l10n.t('Skipped while importing MCP servers:'));
  for (const skip of skipped) report.appendLine(`- ${skip.name}: ${skip.reason}`);
  report.show(true);
}

function describeFound(scan: Scan): { name: string; source: string }[] {
  return scan.found.map((candidate) => ({
    name: candidate.name,
    source: scan.labels.get(candidate) ?? candidate.source,
  }));
}
