import * as vscode from 'vscode';
import { buildFormModel, defaultValues, type FormField } from '../../workbench/forms/formModel';
import type { JsonObject, Tool } from '../../protocol/types';
import type { HistoryLog } from '../../workbench/history/historyLog';
import { SchemaValidator } from '../../protocol/validation/schemaValidation';
import { callToolWithProgress } from './callTool';
import type { ServerController } from '../servers/serverController';
import type { ToolCallRecord } from './toolResultMarkdown';
import { formFieldMessages, type FieldMessage } from '../webviews/fieldMessages';
import { escapeHtml, webviewPage } from '../webviews/webviewPage';

/** Messages the form's script posts (media/forms/toolForm.js); tests post the same ones through `receive`. */
export type ToolFormMessage = { type: 'submit'; arguments: unknown } | { type: 'cancel' };

/** One open form: tests drive it through `receive`, exactly as the webview would. */
export interface ToolFormHandle {
  readonly controller: ServerController;
  readonly tool: Tool;
  /** The values the form was prefilled with (a re-run from History); undefined for the schema's defaults. */
  readonly initialValues?: JsonObject;
  /** The problems the form shows now, per field (tests read what a person sees). */
  readonly errors: readonly FieldMessage[];
  receive(message: ToolFormMessage): Promise<void>;
}

const validator = new SchemaValidator();

/**
 * Call Tool forms: a webview per tool, generated from its input schema. The extension validates what the form
 * sends against the schema before calling (errors go back to the form), then calls with progress and cancel and
 * hands the record to the result view. The form stays open so the tool can be called again with other values.
 */
export class ToolForms implements vscode.Disposable {
  private readonly open = new Map<string, { panel: vscode.WebviewPanel; handle: ToolFormHandle }>();
  private lastOpened: ToolFormHandle | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly showResult: (controller: ServerController, record: ToolCallRecord) => void,
    private readonly history: HistoryLog,
  ) {}

  /** The form opened last (tests). */
  get active(): ToolFormHandle | undefined {
    return this.lastOpened;
  }

  /** Opens the tool's form (or reveals the open one); `values` prefills it, e.g. to re-run a call from History. */
  show(controller: ServerController, tool: Tool, values?: JsonObject): ToolFormHandle {
    const key = `${controller.id}\u0000${tool.name}`;
    const existing = this.open.get(key);
    if (existing && existing.handle.tool === tool && values === undefined) {
      existing.panel.reveal();
      this.lastOpened = existing.handle;
      return existing.handle;
    }
    existing?.panel.dispose();
    const mediaRoot = vscode.Uri.joinPath(this.extensionUri, 'media', 'forms');
    const title = vscode.l10n.t('Call {0}', tool.name);
    const panel = vscode.window.createWebviewPanel('mcpWorkbench.toolForm', title, vscode.ViewColumn.Active, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [mediaRoot],
    });
    const model = buildFormModel(tool.inputSchema);
    panel.webview.html = webviewPage({
      webview: panel.webview,
      title,
      body: formBody(controller, tool),
      scripts: [vscode.Uri.joinPath(mediaRoot, 'toolForm.js')],
      styles: [vscode.Uri.joinPath(mediaRoot, 'toolForm.css')],
      state: { model, values: values ?? defaultValues(model) ?? {}, labels: formLabels() },
    });
    const handle: ToolFormHandle & { errors: FieldMessage[] } = {
      controller,
      tool,
      initialValues: values,
      errors: [],
      receive: async (message) => {
        const errors = await this.receive(panel, controller, tool, model, message);
        if (errors) handle.errors = errors;
      },
    };
    this.open.set(key, { panel, handle });
    this.lastOpened = handle;
    const subscription = panel.webview.onDidReceiveMessage((message: ToolFormMessage) => void handle.receive(message));
    panel.onDidDispose(() => {
      subscription.dispose();
      if (this.open.get(key)?.panel === panel) this.open.delete(key);
      if (this.lastOpened === handle) this.lastOpened = undefined;
    });
    return handle;
  }

  /** Handles one message from the form; returns the problems now shown, when it showed any (or cleared them). */
  private async receive(
    panel: vscode.WebviewPanel,
    controller: ServerController,
    tool: Tool,
    model: FormField,
    message: ToolFormMessage,
  ): Promise<FieldMessage[] | undefined> {
    if (message?.type === 'cancel') {
      panel.dispose();
      return undefined;
    }
    if (message?.type !== 'submit') return undefined;
    const args = message.arguments;
    const post = async (errors: FieldMessage[]) => {
      await panel.webview.postMessage({ type: 'errors', errors });
      return errors;
    };
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return post([{ path: '', message: vscode.l10n.t('Arguments must be a JSON object.') }]);
    }
    let unchecked: string | undefined;
    const errors = formFieldMessages(model, args, () => {
      const verdict = validator.validate(tool.inputSchema, args);
      if (verdict.kind === 'unchecked') unchecked = verdict.reason;
      return verdict.kind === 'invalid' ? verdict.errors : [];
    });
    if (errors.length > 0) return post(errors);
    if (unchecked !== undefined) controller.log.warn(`Input schema of ${tool.name} not checked: ${unchecked}`);
    await post([]);
    await panel.webview.postMessage({ type: 'busy', busy: true });
    try {
      const record = await callToolWithProgress(controller, tool, args as JsonObject, this.history);
      if (record) this.showResult(controller, record);
    } finally {
      // The panel may have been closed while the call ran.
      void panel.webview.postMessage({ type: 'busy', busy: false }).then(undefined, () => undefined);
    }
    return [];
  }

  dispose(): void {
    for (const { panel } of [...this.open.values()]) panel.dispose();
  }
}

function formBody(controller: ServerController, tool: Tool): string {
  const title = tool.title ?? tool.annotations?.title;
  return `
<h1>${escapeHtml(title ?? tool.name)} <span class="muted">· ${escapeHtml(controller.name)}</span></h1>
${title && title !== tool.name ? `<p><code>${escapeHtml(tool.name)}</code></p>` : ''}
${tool.description ? `<p class="description">${escapeHtml(tool.description)}</p>` : ''}
<form id="form" novalidate>
  <div id="errors" class="error-banner" role="alert" hidden></div>
  <div id="fields"></div>
  <textarea id="json" hidden spellcheck="false" aria-label="${escapeHtml(vscode.l10n.t('Arguments as JSON'))}"></textarea>
  <div class="toolbar">
    <button type="submit" id="submit">${escapeHtml(vscode.l10n.t('Call Tool'))}</button>
    <button type="button" id="cancel" class="secondary">${escapeHtml(vscode.l10n.t('Close'))}</button>
    <button type="button" id="toggle-json" class="secondary" aria-pressed="false">${escapeHtml(vscode.l10n.t('Edit as JSON'))}</button>
    <span class="spacer"></span>
    <span class="muted"><kbd>Ctrl</kbd>+<kbd>Enter</kbd> ${escapeHtml(vscode.l10n.t('calls the tool'))} · <kbd>Esc</kbd> ${escapeHtml(vscode.l10n.t('closes'))}</span>
  </div>
</form>`;
}

function formLabels(): Record<string, string> {
  return {
    value: vscode.l10n.t('Value'),
    items: vscode.l10n.t('Items'),
    unset: vscode.l10n.t('(not set)'),
    add: vscode.l10n.t('Add item'),
    remove: vscode.l10n.t('Remove item'),
    notJson: vscode.l10n.t('Not valid JSON:'),
    fixErrors: vscode.l10n.t('Check the highlighted fields.'),
    noArguments: vscode.l10n.t('This tool takes no arguments.'),
    jsonMode: vscode.l10n.t('Edit as JSON'),
    formMode: vscode.l10n.t('Edit as Form'),
    call: vscode.l10n.t('Call Tool'),
    calling: vscode.l10n.t('Calling…'),
  };
}
