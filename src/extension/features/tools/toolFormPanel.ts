import type { HistoryRecording } from '../../../workbench/history/historyLog';
import * as vscode from 'vscode';
import { buildFormModel, defaultValues, type FormField } from '../../../workbench/forms/formModel';
import type { JsonObject, Tool } from '../../../protocol/types';
import { loadSchemaValidator, schemaValidator } from '../../platform/shared/schemaValidator';
import { callToolWithProgress, type CallAttempt } from './callTool';
import type { AppsService } from '../../platform/services';
import { runOptionalAsTask, type ServerController } from '../../platform/servers/serverController';
import { runAsTaskChoice, type RunAsTaskChoice } from '../../../workbench/tasks/taskCalls';
import type { ResultAreaMessage, ToolResultView } from './toolResultView';
import { ResultChannel } from './resultChannel';
import { resultArea } from './resultHtml';
import { formFieldMessages, type FieldMessage } from '../../platform/webviews/fieldMessages';
import { escapeHtml } from '../../platform/webviews/webviewPage';
import { openSidePanel } from '../../platform/webviews/sidePanel';
import { isObject } from '../../../protocol/guards';

/** Messages the form's script posts (media/forms/toolForm.js); tests post the same ones through `receive`. */
type ToolFormMessage = { type: 'submit'; arguments: unknown; runAsTask?: unknown } | { type: 'cancel' };

/** One open form: tests drive it through `receive`, exactly as the webview would. */
export interface ToolFormHandle {
  readonly controller: ServerController;
  readonly tool: Tool;
  /** The values the form was prefilled with (a re-run from History); undefined for the schema's defaults. */
  readonly initialValues?: JsonObject;
  /** The problems the form shows now, per field (tests read what a person sees). */
  readonly errors: readonly FieldMessage[];
  /** Whether the form's page has said it listens (tests: a person can only submit from a page that does). */
  readonly pageListening: boolean;
  /** A message of the form, or of the result area under it (media/results/results.js). */
  receive(message: ToolFormMessage | ResultAreaMessage): Promise<void>;
}

/**
 * Call Tool forms: a webview per tool, generated from its input schema. The extension validates what the form
 * sends against the schema before calling (errors go back to the form), then calls with progress and cancel and
 * draws the result under the fields ("Open in Its Own Tab" moves it to the tool's result tab). The form stays open
 * so the tool can be called again with other values.
 */
export class ToolForms implements vscode.Disposable {
  private readonly open = new Map<string, { panel: vscode.WebviewPanel; handle: ToolFormHandle }>();
  private lastOpened: ToolFormHandle | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly results: ToolResultView,
    private readonly history: HistoryRecording,
    /** Draws a called tool's app (features/apps), when that feature is there. */
    private readonly apps: () => AppsService | undefined = () => undefined,
  ) {}

  /** How many forms are open (tests: a closed panel is counted until VS Code reports it disposed). */
  get openForms(): number {
    return this.open.size;
  }

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
    const title = vscode.l10n.t('Call {0}', tool.name);
    const model = buildFormModel(tool.inputSchema);
    const taskChoice = runAsTaskChoice(controller.client, tool, runOptionalAsTask());
    // In the side group beside the person's editor, with the result tabs and the review panel: not a column each.
    const panel = openSidePanel(this.extensionUri, {
      viewType: 'mcpWorkbench.toolForm',
      title,
      // The latest result is drawn under the fields: the page is on screen when the call answers, so showing the
      // result is one message (a result tab of its own would first have to be created and loaded).
      body: formBody(controller, tool, taskChoice) + resultArea('form', undefined),
      // The form's script first: once results.js says `ready`, both listen.
      scripts: ['forms/toolForm.js', 'results/results.js'],
      styles: ['forms/toolForm.css', 'results/results.css'],
      state: { model, values: values ?? defaultValues(model) ?? {}, labels: formLabels() },
    });
    const area: FormResultArea = { channel: new ResultChannel(panel.webview), current: { controller, title } };
    const handle: ToolFormHandle & { errors: FieldMessage[] } = {
      controller,
      tool,
      initialValues: values,
      errors: [],
      get pageListening() {
        return area.channel.listening;
      },
      receive: async (message) => {
        if (message?.type !== 'submit' && message?.type !== 'cancel') {
          this.results.handleAreaMessage(message, area.channel, area.current);
          return;
        }
        const errors = await this.receive(panel, area, controller, tool, model, taskChoice, message);
        if (errors) handle.errors = errors;
      },
    };
    this.open.set(key, { panel, handle });
    this.lastOpened = handle;
    const subscription = panel.webview.onDidReceiveMessage(
      (message: ToolFormMessage | ResultAreaMessage) => void handle.receive(message),
    );
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
    area: FormResultArea,
    controller: ServerController,
    tool: Tool,
    model: FormField,
    taskChoice: RunAsTaskChoice,
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
    if (!isObject(args)) {
      return post([{ path: '', message: vscode.l10n.t('Arguments must be a JSON object.') }]);
    }
    let unchecked: string | undefined;
    await loadSchemaValidator();
    const errors = formFieldMessages(model, args, () => {
      const verdict = schemaValidator().validate(tool.inputSchema, args);
      if (verdict.kind === 'unchecked') unchecked = verdict.reason;
      return verdict.kind === 'invalid' ? verdict.errors : [];
    });
    if (errors.length > 0) return post(errors);
    if (unchecked !== undefined) controller.log.warn(`Input schema of ${tool.name} not checked: ${unchecked}`);
    await post([]);
    await panel.webview.postMessage({ type: 'busy', busy: true });
    const abort = new AbortController();
    const cancel = () => abort.abort();
    area.current = { ...area.current, cancel };
    area.channel.deliver(this.results.status('form', controller, tool.name, { kind: 'calling' }));
    try {
      const attempt = await callToolWithProgress(controller, tool, args as JsonObject, this.history, {
        signal: abort.signal,
        apps: this.apps(),
        runAsTask: runAsTaskOf(taskChoice, message.runAsTask),
        onProgress: (text) => area.channel.progress(text),
      });
      if (area.current.cancel === cancel) area.current = { controller, title: area.current.title };
      this.showAttempt(area, controller, tool, attempt);
    } finally {
      // The panel may have been closed while the call ran.
      void panel.webview.postMessage({ type: 'busy', busy: false }).then(undefined, () => undefined);
    }
    return [];
  }

  /** Draws how the call ended under the form (a posted message: the page listens, it made the call). */
  private showAttempt(area: FormResultArea, controller: ServerController, tool: Tool, attempt: CallAttempt): void {
    switch (attempt.kind) {
      case 'answered': {
        const { record } = attempt;
        const prepared = this.results.prepare(record, 'form');
        area.current = {
          controller,
          title: prepared.title,
          markdown: prepared.markdown,
          openTab: () => void this.results.show(controller, record),
        };
        this.results.handedOver(prepared, tool.name, 'form', area.channel.deliver(prepared.message));
        return;
      }
      case 'cancelled':
        area.channel.deliver(this.results.status('form', controller, tool.name, { kind: 'cancelled' }));
        return;
      case 'failed':
        area.channel.deliver(
          this.results.status('form', controller, tool.name, { kind: 'failed', message: attempt.message }),
        );
        return;
      default: {
        const exhaustive: never = attempt;
        return exhaustive;
      }
    }
  }

  dispose(): void {
    for (const { panel } of [...this.open.values()]) panel.dispose();
  }
}

/** The result area under a form: its way to the page, and what it shows now (its buttons act on that). */
interface FormResultArea {
  channel: ResultChannel;
  current: {
    controller: ServerController;
    title: string;
    markdown?: string;
    cancel?: () => void;
    openTab?: () => void;
  };
}

/** What the call does with the form's checkbox: only an optional tool's choice is the person's to make. */
function runAsTaskOf(choice: RunAsTaskChoice, posted: unknown): boolean | undefined {
  switch (choice.kind) {
    case 'none':
      return undefined;
    case 'optional':
      return posted === true;
    case 'required':
      return true;
  }
}

/** The "Run as task" checkbox beside Call Tool (none when the tool has no task support on this connection). */
function runAsTaskControl(choice: RunAsTaskChoice): string {
  const label = escapeHtml(vscode.l10n.t('Run as task'));
  switch (choice.kind) {
    case 'none':
      return '';
    case 'optional':
      return `<label class="run-as-task"><input type="checkbox" id="run-as-task"${choice.checked ? ' checked' : ''}> ${label}</label>`;
    case 'required': {
      const note = escapeHtml(vscode.l10n.t('This tool always runs as a task.'));
      return `<label class="run-as-task" title="${note}"><input type="checkbox" id="run-as-task" checked disabled aria-describedby="run-as-task-note"> ${label}</label><span id="run-as-task-note" class="muted">${note}</span>`;
    }
  }
}

function formBody(controller: ServerController, tool: Tool, taskChoice: RunAsTaskChoice): string {
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
    <button type="submit" id="submit" disabled>${escapeHtml(vscode.l10n.t('Call Tool'))}</button>
    ${runAsTaskControl(taskChoice)}
    <button type="button" id="cancel" class="secondary">${escapeHtml(vscode.l10n.t('Close'))}</button>
    <button type="button" id="toggle-json" class="secondary" aria-pressed="false">${escapeHtml(vscode.l10n.t('Edit as JSON'))}</button>
    <span class="spacer"></span>
    <span class="muted"><kbd>Ctrl</kbd>+<kbd>Enter</kbd> ${escapeHtml(vscode.l10n.t('calls the tool'))}</span>
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
    addObject: vscode.l10n.t('Add {0}'),
    removeObject: vscode.l10n.t('Remove {0}'),
    notJson: vscode.l10n.t('Not valid JSON:'),
    fixErrors: vscode.l10n.t('Check the highlighted fields.'),
    noArguments: vscode.l10n.t('This tool takes no arguments.'),
    jsonMode: vscode.l10n.t('Edit as JSON'),
    formMode: vscode.l10n.t('Edit as Form'),
    call: vscode.l10n.t('Call Tool'),
    calling: vscode.l10n.t('Calling…'),
  };
}
