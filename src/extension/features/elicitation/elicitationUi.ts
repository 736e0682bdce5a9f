import * as vscode from 'vscode';
import type { ElicitationHandler, ElicitationMode, RequestContext } from '../../../protocol/host';
import type { ElicitRequest, ElicitResult, JsonObject } from '../../../protocol/types';
import type { ElicitationExchange } from '../../../workbench/history/elicitationExchange';
import { ReviewQueue } from '../../../workbench/sampling/reviewQueue';
import { loadSchemaValidator, schemaValidator } from '../../platform/shared/schemaValidator';
import { openExternalUrl } from '../../platform/ui/openExternalUrl';
import type { SamplingRequestContext } from '../../../workbench/sampling/coordinator';
import { checkExternalUrl, escapeForDisplay } from '../../../workbench/urlPolicy';
import { sayUrlRefusal } from '../../platform/ui/urlRefusal';
import type { ActiveItem, ElicitationFormView, ReviewPanel } from '../../platform/webviews/reviewPanel';
import { relatedTaskOf, type TaskToolLookup } from '../../../workbench/tasks/relatedTask';

/** The URL-mode consent dialog as shown: a modal warning with a message, a detail and its buttons. */
export interface UrlModal {
  message: string;
  detail: string;
  buttons: string[];
}

/**
 * Shows the modal and resolves the button chosen (undefined: dismissed). The default is VS Code's modal
 * warning; tests replace only this final answer (a modal dialog cannot be clicked there), so everything
 * around it — the URL checks, the text shown, opening the browser, the completion — stays the real path.
 */
type UrlModalPresenter = (modal: UrlModal) => Thenable<string | undefined>;

/** One URL-mode elicitation seen by this window, for the log and the test API. */
export interface UrlElicitationRecord {
  serverName: string;
  url: string;
  elicitationId?: string;
  action: 'accept' | 'decline' | 'cancel';
}

/**
 * elicitation/create in both modes. Form mode: a form in the review panel generated from the requested
 * schema, defaults pre-filled, validated before it is returned. URL mode: a modal dialog shows the full URL
 * and its domain and asks before the external browser opens it; the extension never fetches it. Requests
 * line up in one queue and share the review panel with sampling, so dialogs never stack.
 */
export class ElicitationUi implements ElicitationHandler, vscode.Disposable {
  readonly modes: readonly ElicitationMode[] = ['form', 'url'];
  readonly queue = new ReviewQueue<ElicitRequest>();
  presentUrlModal: UrlModalPresenter = showModal;
  openExternal: (url: string) => Thenable<boolean> = openExternalUrl;
  /** URL-mode elicitations of this session, newest last (capped). */
  readonly urlRecords: UrlElicitationRecord[] = [];
  /** notifications/elicitation/complete received in this session, newest last (capped). */
  readonly completions: { serverName: string; elicitationId: string }[] = [];

  private readonly answeredEmitter = new vscode.EventEmitter<ElicitationExchange>();
  /** Every elicitation of this session once answered (or failed), for the History view. */
  readonly onDidAnswer = this.answeredEmitter.event;

  constructor(
    private readonly panel: ReviewPanel,
    private readonly log: (serverName: string, line: string) => void,
    /** The tool whose call made a task of that server, when this client made the call. */
    private readonly taskTool?: TaskToolLookup,
  ) {
    this.queue.onDidChange(() => panel.refresh());
    panel.addWaitingSource(() => this.queue.size);
  }

  async elicit(
    request: ElicitRequest,
    context: RequestContext & Pick<SamplingRequestContext, 'serverKey'>,
  ): Promise<ElicitResult> {
    const { serverName, signal } = context;
    const startedAt = Date.now();
    let result: ElicitResult;
    try {
      result = await this.queue.run(
        serverName,
        request,
        signal,
        async (reviewSignal) => {
          const release = await this.panel.acquire(reviewSignal);
          try {
            return request.mode === 'url'
              ? await this.url(request, serverName)
              : await this.form(request, serverName, reviewSignal);
          } finally {
            release();
          }
        },
        context.serverKey,
      );
    } catch (error) {
      this.answeredEmitter.fire({
        serverName,
        request,
        startedAt,
        error: error instanceof Error ? error.message : String(error),
      });
      throw error;
    }
    this.log(serverName, `[elicitation] ${request.mode ?? 'form'} "${request.message}" → ${result.action}`);
    this.answeredEmitter.fire({ serverName, request, startedAt, result });
    return result;
  }

  completed(elicitationId: string, serverName: string): void {
    this.log(serverName, `[elicitation] ${elicitationId} completed`);
    this.completions.push({ serverName, elicitationId });
    if (this.completions.length > 50) this.completions.splice(0, this.completions.length - 50);
    void vscode.window.showInformationMessage(
      vscode.l10n.t('MCP server "{0}": the action in the browser is complete.', serverName),
    );
  }

  /**
   * The URL is checked and normalised once (checkExternalUrl); the very string shown in the dialog is the one opened,
   * so what the person read is where the browser goes. A URL that could show one host and reach another is refused
   * with the reason, and nothing is asked.
   */
  private async url(request: ElicitRequest, serverName: string): Promise<ElicitResult> {
    const verdict = checkExternalUrl(request.url);
    if (verdict.kind === 'refused') {
      const shown = escapeForDisplay(typeof request.url === 'string' ? request.url : String(request.url));
      this.log(serverName, `[elicitation] refused URL ${shown}: ${verdict.detail}`);
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'MCP server "{0}" asked to open a URL that is not allowed ({1}): {2}',
          serverName,
          sayUrlRefusal(verdict),
          shown,
        ),
      );
      return { action: 'decline' };
    }
    const url = verdict.url;
    const record: UrlElicitationRecord = { serverName, url, elicitationId: request.elicitationId, action: 'cancel' };
    this.remember(record);
    const choice = await this.askUrlConsent({ serverName, message: request.message, url, domain: verdict.host });
    if (choice !== 'open') {
      record.action = choice;
      return { action: choice };
    }
    // The URL shown in the consent modal, byte for byte (see openExternalUrl).
    const opened = await this.openExternal(url);
    record.action = opened ? 'accept' : 'cancel';
    return { action: record.action };
  }

  private remember(record: UrlElicitationRecord): void {
    this.urlRecords.push(record);
    if (this.urlRecords.length > 50) this.urlRecords.splice(0, this.urlRecords.length - 50);
  }

  private async askUrlConsent(request: {
    serverName: string;
    message: string;
    url: string;
    domain: string;
  }): Promise<'open' | 'decline' | 'cancel'> {
    const open = vscode.l10n.t('Open in Browser');
    const decline = vscode.l10n.t('Decline');
    const choice = await this.presentUrlModal({
      message: vscode.l10n.t(
        'MCP server "{0}" asks you to open a page in your browser: {1}',
        request.serverName,
        escapeForDisplay(request.message),
      ),
      detail: vscode.l10n.t(
        'Domain: {0}\nFull URL: {1}\n\nOnly continue if you trust this site. The page opens in your external browser; MCP Workbench does not load it.',
        request.domain,
        request.url,
      ),
      // The first button is the dialog's default (Enter): it must be the harmless one, never "Open".
      buttons: [decline, open],
    });
    if (choice === open) return 'open';
    return choice === decline ? 'decline' : 'cancel';
  }

  private async form(request: ElicitRequest, serverName: string, signal: AbortSignal): Promise<ElicitResult> {
    // The form's code and the validator (its answer is checked synchronously when submitted) load with the first
    // form a server asks for, not with the extension.
    const [, { buildFormModel, defaultValues }, { formFieldMessages }] = await Promise.all([
      loadSchemaValidator(),
      import('../../../workbench/forms/formModel.js'),
      import('../../platform/webviews/fieldMessages.js'),
    ]);
    if (signal.aborted) throw new Error('cancelled');
    const schema = (request.requestedSchema ?? { type: 'object', properties: {} }) as JsonObject;
    const form = buildFormModel(schema);
    // Input a task needs names the task it is for in the title (2025-11-25 related-task tag; 2026-07-28 input
    // requests are tagged alike).
    const task = relatedTaskOf(request, (taskId) => this.taskTool?.(serverName, taskId));
    const view: ElicitationFormView = {
      kind: 'elicitation-form',
      serverName,
      message: request.message,
      ...(task ? { task } : {}),
      form,
      values: defaultValues(form) ?? {},
      errors: [],
    };
    return new Promise<ElicitResult>((resolve, reject) => {
      const finish = (result: ElicitResult) => {
        signal.removeEventListener('abort', onAbort);
        this.panel.withdraw(item);
        resolve(result);
      };
      const item: ActiveItem = {
        view,
        onMessage: (message) => {
          if (message.type === 'closed') finish({ action: 'cancel' });
          if (message.type !== 'elicit') return;
          if (message.action !== 'accept') {
            finish({ action: message.action });
            return;
          }
          const content = message.content ?? {};
          const errors = formFieldMessages(form, content, () => {
            const verdict = schemaValidator().validate(schema, content);
            return verdict.kind === 'invalid' ? verdict.errors : [];
          });
          if (errors.length > 0) {
            this.panel.update(item, { ...view, values: content, errors });
            return;
          }
          finish({ action: 'accept', content: content as NonNullable<ElicitResult['content']> });
        },
      };
      const onAbort = () => {
        this.panel.withdraw(item);
        reject(new Error('cancelled'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.panel.present(item);
    });
  }

  dispose(): void {
    this.queue.dispose();
    this.answeredEmitter.dispose();
  }
}

function showModal(modal: UrlModal): Thenable<string | undefined> {
  return vscode.window.showWarningMessage(modal.message, { modal: true, detail: modal.detail }, ...modal.buttons);
}
