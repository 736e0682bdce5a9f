import * as vscode from 'vscode';
import type { LintFinding } from '../../../workbench/lint/findings';
import type { ServerCatalog } from '../../platform/servers/serverCatalog';
import type { ServerController } from '../../platform/servers/serverController';
import type { ServerLint, ServerLintResult } from './serverLint';

export const LINT_SCHEME = 'mcp-workbench-lint';
/** Lines of one tool's (template's, prompt's) JSON shown under its heading; the rest is left out. */
const ITEM_LINES = 80;

/**
 * The Problems entries of the lint: one read-only document per running server (`mcp-workbench-lint:`), listing each
 * tool, template or prompt with findings under a heading line, and the findings as diagnostics on those headings,
 * so a click in Problems opens the document at the tool. Everything in the document is the server's text inside JSON
 * strings (escaped by JSON.stringify), so a name cannot add lines or break the layout.
 */
export class LintProblems implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('mcpWorkbench.lint');
  private readonly contentEmitter = new vscode.EventEmitter<vscode.Uri>();
  private readonly documents = new Map<string, { text: string; controller: ServerController }>();
  private readonly subscriptions: vscode.Disposable[];

  readonly onDidChange = this.contentEmitter.event;

  constructor(
    private readonly lint: ServerLint,
    private readonly catalog: ServerCatalog,
  ) {
    this.subscriptions = [
      vscode.workspace.registerTextDocumentContentProvider(LINT_SCHEME, this),
      lint.onDidChangeResults(() => this.update()),
    ];
    this.update();
  }

  /** The document of a server's findings (undefined: the server is not running, or lint is off). */
  uriOf(controller: ServerController): vscode.Uri | undefined {
    return this.lint.resultOf(controller) ? documentUri(controller) : undefined;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.documents.get(uri.toString())?.text ??
      vscode.l10n.t('// The server is not running, or lint is off (mcpWorkbench.lint.enabled).')
    );
  }

  private update(): void {
    const shown = new Set<string>();
    for (const result of this.lint.all) {
      const uri = documentUri(result.controller);
      const key = uri.toString();
      shown.add(key);
      const { text, diagnostics } = this.render(result);
      if (this.documents.get(key)?.text !== text) {
        this.documents.set(key, { text, controller: result.controller });
        this.contentEmitter.fire(uri);
      }
      this.diagnostics.set(uri, diagnostics);
    }
    for (const [key] of this.documents) {
      if (shown.has(key)) continue;
      this.documents.delete(key);
      this.diagnostics.delete(vscode.Uri.parse(key));
    }
  }

  private render(result: ServerLintResult): { text: string; diagnostics: vscode.Diagnostic[] } {
    const { controller, report } = result;
    const count = (severity: LintFinding['severity']) => report.findings.filter((f) => f.severity === severity).length;
    const lines = [
      `// ${vscode.l10n.t(
        'MCP Workbench lint of {0}: {1} errors, {2} warnings, {3} notes; about {4} tokens for {5} tools. The rules and their sources: docs/lint-rules.md',
        JSON.stringify(controller.name),
        count('error'),
        count('warning'),
        count('info'),
        report.context.totalTokens,
        report.context.tools.length,
      )}`,
    ];
    const diagnostics: vscode.Diagnostic[] = [];
    for (const [target, findings] of result.byTarget) {
      const line = lines.length;
      lines.push(`// ${JSON.stringify(target)}`);
      lines.push(...this.itemJson(controller, target));
      lines.push('');
      for (const finding of findings)
        diagnostics.push(diagnosticOf(finding, line, lines[line].length, this.lint.ruleSource(finding.rule)));
    }
    return { text: `${lines.join('\n')}\n`, diagnostics };
  }

  /** The listed item a target names, as indented JSON (its first ITEM_LINES lines). */
  private itemJson(controller: ServerController, target: string): string[] {
    const colon = target.indexOf(':');
    const kind = target.slice(0, colon);
    const name = target.slice(colon + 1);
    const state = controller.state;
    const offerings = this.catalog.offerings(controller);
    const list: readonly unknown[] =
      kind === 'tool'
        ? state.kind === 'running'
          ? state.tools
          : []
        : kind === 'template'
          ? (offerings?.templates ?? [])
          : kind === 'prompt'
            ? (offerings?.prompts ?? [])
            : [];
    const item = list.find((candidate) => (candidate as { name?: unknown } | null)?.name === name);
    if (item === undefined) return [];
    let json: string;
    try {
      json = JSON.stringify(item, null, 2) ?? '';
    } catch {
      return ['// (nested too deeply to show)'];
    }
    const itemLines = json.split('\n');
    return itemLines.length > ITEM_LINES
      ? [...itemLines.slice(0, ITEM_LINES), `// … ${itemLines.length - ITEM_LINES} more lines`]
      : itemLines;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.diagnostics.dispose();
    this.contentEmitter.dispose();
  }
}

function documentUri(controller: ServerController): vscode.Uri {
  return vscode.Uri.from({
    scheme: LINT_SCHEME,
    path: `/${encodeURIComponent(controller.id)}/${encodeURIComponent(controller.name)}.lint.jsonc`,
  });
}

function diagnosticOf(
  finding: LintFinding,
  line: number,
  length: number,
  source: string | undefined,
): vscode.Diagnostic {
  const severity: Record<LintFinding['severity'], vscode.DiagnosticSeverity> = {
    error: vscode.DiagnosticSeverity.Error,
    warning: vscode.DiagnosticSeverity.Warning,
    info: vscode.DiagnosticSeverity.Information,
  };
  const where = finding.path ? `${finding.target} ${finding.path}: ` : `${finding.target}: `;
  const fix = finding.fix ? ` ${vscode.l10n.t('Fix: {0}', finding.fix)}` : '';
  const diagnostic = new vscode.Diagnostic(
    new vscode.Range(line, 0, line, length),
    `${where}${finding.message}${fix}`,
    severity[finding.severity],
  );
  diagnostic.source = vscode.l10n.t('MCP Workbench lint');
  diagnostic.code = source ? { value: finding.rule, target: vscode.Uri.parse(source) } : finding.rule;
  return diagnostic;
}
