import { readFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { IMPORT_SOURCE_LABELS, importServers, knownImportSources, type ImportCandidate, type ImportSkip, type ImportSourceKind } from '../../workbench/node/importers';
import { errorMessage } from '../../protocol/errors';
import { addServers, pickTarget, takenNames, targetFromArgument, targetLabel } from './configTargets';

interface SourceFile {
  kind: ImportSourceKind;
  label: string;
  path: string;
}

/**
 * What a caller may fill in ahead of time (automation, tests): other files to read instead of the known locations,
 * the target ("user" or a folder URI string), and which found servers to add (by name, or "all").
 */
export interface ImportServersArguments {
  sources?: { kind: ImportSourceKind; path: string }[];
  target?: string;
  select?: string[] | 'all';
}

/** The outcome, returned to callers (tests) and summarized for the user. */
export interface ImportOutcome {
  found: { name: string; source: string }[];
  skipped: ImportSkip[];
  added: string[];
}

/** MCP Workbench: Import Servers… — Claude Desktop, Cursor, Cline, Windsurf, Copilot CLI and workspace .mcp.json files. */
export class ServerImporter implements vscode.Disposable {
  /** The "MCP Workbench: Import" output channel listing what was skipped; created on the first import. */
  private report: vscode.OutputChannel | undefined;

  async run(argument: unknown): Promise<ImportOutcome | undefined> {
    const given: ImportServersArguments = typeof argument === 'object' && argument !== null ? (argument as ImportServersArguments) : {};
    try {
      this.report ??= vscode.window.createOutputChannel(vscode.l10n.t('MCP Workbench: Import'));
      return await importFlow(given, this.report);
    } catch (error) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Could not import MCP servers: {0}', errorMessage(error)));
      return undefined;
    }
  }

  dispose(): void {
    this.report?.dispose();
  }
}

async function importFlow(given: ImportServersArguments, report: vscode.OutputChannel): Promise<ImportOutcome | undefined> {
  const title = vscode.l10n.t('Import MCP Servers');
  const target = targetFromArgument(given.target) ?? (await pickTarget(title));
  if (!target) return undefined;
  const taken = await takenNames(target);
  const found: ImportCandidate[] = [];
  const skipped: ImportSkip[] = [];
  const labels = new Map<ImportCandidate, string>();
  for (const source of sourceFiles(given)) {
    let text: string;
    try {
      text = await readFile(source.path, 'utf8');
    } catch {
      continue; // Most known locations do not exist on a given machine.
    }
    const result = importServers(source.kind, text, source.path, { takenNames: [...taken, ...found.map((candidate) => candidate.name)] });
    for (const candidate of result.found) labels.set(candidate, source.label);
    found.push(...result.found);
    skipped.push(...result.skipped.map((skip) => ({ name: `${skip.name} (${source.label})`, reason: skip.reason })));
  }
  if (skipped.length > 0) showSkipped(report, skipped);
  if (found.length === 0) {
    void vscode.window.showInformationMessage(
      skipped.length > 0
        ? vscode.l10n.t('No importable MCP servers found; {0} skipped (see the "MCP Workbench: Import" output).', skipped.length)
        : vscode.l10n.t('No MCP servers found in Claude Desktop, Cursor, Cline, Windsurf, Copilot CLI or .mcp.json files.'),
    );
    return { found: [], skipped, added: [] };
  }
  const chosen = given.select ? found.filter((candidate) => given.select === 'all' || given.select?.includes(candidate.name)) : await pickCandidates(title, found, labels, skipped.length);
  if (!chosen || chosen.length === 0) return { found: describeFound(found, labels), skipped, added: [] };
  await addServers(
    target,
    chosen.map((candidate) => ({ name: candidate.name, entry: candidate.entry })),
  );
  void vscode.window.showInformationMessage(
    vscode.l10n.t('Imported {0} MCP server(s) into {1}: {2}', chosen.length, targetLabel(target), chosen.map((candidate) => candidate.name).join(', ')),
  );
  return { found: describeFound(found, labels), skipped, added: chosen.map((candidate) => candidate.name) };
}

function sourceFiles(given: ImportServersArguments): SourceFile[] {
  if (given.sources) return given.sources.map((source) => ({ ...source, label: IMPORT_SOURCE_LABELS[source.kind] }));
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
  return knownImportSources(process.platform, os.homedir(), folders, process.env).map((source) => ({ kind: source.kind, label: source.label, path: source.path }));
}

async function pickCandidates(title: string, found: ImportCandidate[], labels: Map<ImportCandidate, string>, skippedCount: number): Promise<ImportCandidate[] | undefined> {
  const picked = await vscode.window.showQuickPick(
    found.map((candidate) => ({
      label: candidate.name,
      description: labels.get(candidate),
      detail: [candidate.definition.kind === 'stdio' ? [candidate.definition.command, ...candidate.definition.args].join(' ') : candidate.definition.url, ...candidate.notes].join(' — '),
      picked: !candidate.disabled,
      candidate,
    })),
    {
      title,
      canPickMany: true,
      matchOnDescription: true,
      placeHolder:
        skippedCount > 0
          ? vscode.l10n.t('Select the servers to add ({0} skipped: see the "MCP Workbench: Import" output)', skippedCount)
          : vscode.l10n.t('Select the servers to add'),
    },
  );
  return picked?.map((item) => item.candidate);
}

/** Skipped entries go to their own output, each with its reason, so nothing disappears silently. */
function showSkipped(report: vscode.OutputChannel, skipped: readonly ImportSkip[]): void {
  report.clear();
  report.appendLine(vscode.l10n.t('Skipped while importing MCP servers:'));
  for (const skip of skipped) report.appendLine(`- ${skip.name}: ${skip.reason}`);
  report.show(true);
}

function describeFound(found: readonly ImportCandidate[], labels: Map<ImportCandidate, string>): { name: string; source: string }[] {
  return found.map((candidate) => ({ name: candidate.name, source: labels.get(candidate) ?? candidate.source }));
}
