import * as vscode from 'vscode';
import { webviewPage } from './webviewPage';
import type { FieldMessage } from './fieldMessages';
import type { FormField } from '../../../workbench/forms/formModel';
import type { SamplingPolicy } from '../../../workbench/sampling/policy';
import type { RelatedTask } from '../../../workbench/tasks/relatedTask';
import { webviewMedia } from './webviewMedia';
import { sideColumn } from './panelColumn';

/**
 * The one review panel for everything a server asks of the person: sampling requests, model answers and
 * elicitation forms. It shows the head of the queue and how many are waiting; only one item is shown at a
 * time (`acquire` lines items up), so dialogs never stack. The webview (media/review/) posts
 * `ReviewMessage`s; tests post the very same messages through `handleMessage`.
 */

export type ViewPart =
  | { kind: 'text'; text: string }
  | { kind: 'image'; mimeType: string; data: string }
  | { kind: 'other'; description: string };

export interface SamplingRequestView {
  kind: 'sampling-request';
  serverName: string;
  systemPrompt?: string;
  messages: { role: 'user' | 'assistant'; parts: ViewPart[] }[];
  models: { id: string; label: string }[];
  modelId: string;
  maxTokens: number;
  temperature?: number;
  stopSequences: string[];
  unsupported: string[];
  policy: SamplingPolicy;
  /** The task the request is for (its title names it). */
  task?: RelatedTask;
}

export interface SamplingResponseView {
  kind: 'sampling-response';
  serverName: string;
  model: string;
  text: string;
  streaming: boolean;
  usage?: string;
  /** Tool calls the model asked for (shown read-only; approving keeps them). */
  toolCalls?: string[];
  /** The model failed after approval; the request is already settled with this error. */
  error?: string;
}

export interface ElicitationFormView {
  kind: 'elicitation-form';
  serverName: string;
  message: string;
  /** The task the request is for (its title names it). */
  task?: RelatedTask;
  form: FormField;
  values: unknown;
  /** Per field (path "/name"), in the words shown next to it; path "" is the form as a whole. */
  errors: FieldMessage[];
}

export type ReviewView = SamplingRequestView | SamplingResponseView | ElicitationFormView;

/**
 * What the webview posts. Every decision carries the id of the request it was made on (`requestId`, from the
 * `show` message that displayed it); the panel drops a decision whose id is not the one shown now, so a click that
 * lands late (after the next request replaced the page) decides nothing.
 */
export type ReviewMessage = ({ type: 'ready' } | DecisionMessage) & { requestId?: number };

type DecisionMessage =
  | {
      type: 'approve-request';
      systemPrompt?: string;
      /** Per message, per part: the (edited) text of a text part, null for other parts. */
      texts: (string | null)[][];
      modelId: string;
      maxTokens: number;
      temperature?: number;
      stopSequences: string[];
      policy: SamplingPolicy;
    }
  | { type: 'reject-request'; policy: SamplingPolicy }
  | { type: 'approve-response'; text: string }
  | { type: 'reject-response' }
  | { type: 'elicit'; action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }
  /** Closes a notice (a model error) that no longer waits for a decision. */
  | { type: 'dismiss' }
  /** The panel was closed while an item was shown (not posted by the webview). */
  | { type: 'closed' };

export interface ActiveItem {
  view: ReviewView;
  onMessage(message: ReviewMessage): void;
}

export interface ReviewSnapshot {
  view: ReviewView | undefined;
  /** The id decisions on the shown request must carry (undefined when nothing is shown). */
  requestId: number | undefined;
  waiting: number;
  /** Whether the panel exists at all (it is closed when nothing waits). */
  open: boolean;
  /** Whether the workbench shows the panel: it is the active tab of an editor group. */
  visible: boolean;
  /**
   * Whether the panel has keyboard focus, as the workbench reports it: the active tab of the active group. A panel
   * opened on a server's initiative never takes it.
   */
  focused: boolean;
  /** Decisions dropped because they named another request than the one shown. */
  staleDecisions: number;
}

const REVIEW_VIEW_TYPE = 'mcpWorkbench.review';

export class ReviewPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private active: ActiveItem | undefined;
  private activeId: number | undefined;
  private nextRequestId = 1;
  private staleDecisions = 0;
  private readonly lineUp: (() => void)[] = [];
  private busy = false;
  private waitingSources: (() => number)[] = [];
  private readonly disposables: vscode.Disposable[] = [];
  private readonly askingChanged = new vscode.EventEmitter<void>();
  /** Fires when the panel starts or stops asking the person something (progress notifications keep off it meanwhile). */
  readonly onDidChangeAsking = this.askingChanged.event;

  constructor(private readonly extensionUri: vscode.Uri) {
    this.disposables.push(this.askingChanged);
  }

  /** Whether the panel shows a request the person is to answer now. */
  get asking(): boolean {
    return this.active !== undefined;
  }

  /** Sizes of the queues feeding the panel (entries in review included); the panel subtracts the one shown. */
  addWaitingSource(size: () => number): void {
    this.waitingSources.push(size);
  }

  /** Waits until the panel is free; the returned function frees it. */
  acquire(signal: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      const grant = () => {
        this.busy = true;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.busy = false;
          this.next();
        });
      };
      if (!this.busy) {
        grant();
        return;
      }
      const queued = () => {
        signal.removeEventListener('abort', onAbort);
        grant();
      };
      const onAbort = () => {
        const index = this.lineUp.indexOf(queued);
        if (index !== -1) this.lineUp.splice(index, 1);
        reject(new Error('cancelled'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.lineUp.push(queued);
    });
  }

  private next(): void {
    const following = this.lineUp.shift();
    if (following) following();
    // Nothing left to review: the panel goes away instead of standing empty in the editor area. The next request
    // creates it again beside the editor and without focus (see `ensurePanel`).
    else if (!this.active && this.waiting() === 0) this.panel?.dispose();
    else this.render();
  }

  /**
   * Shows an item under a new request id and reveals the panel without taking focus: the request comes from a
   * server, not from the person, so keystrokes meant for the editor must not land on its buttons.
   */
  present(item: ActiveItem): void {
    const wasAsking = this.asking;
    this.active = item;
    this.activeId = this.nextRequestId++;
    const existing = this.panel;
    // Revealed in the editor group the person works in, the panel would become that group's active tab and cover what
    // they type in: it moves to another group they already have (sideColumn), never into a new third column.
    const inActiveGroup =
      existing !== undefined &&
      existing.viewColumn !== undefined &&
      existing.viewColumn === vscode.window.tabGroups.activeTabGroup.viewColumn;
    if (existing) existing.reveal(inActiveGroup ? sideColumn('server') : undefined, true);
    else this.ensurePanel();
    this.render();
    if (!wasAsking) this.askingChanged.fire();
  }

  /** Replaces the shown view of the active item (e.g. streamed text), without stealing focus. */
  update(item: ActiveItem, view: ReviewView): void {
    item.view = view;
    if (this.active === item) this.render();
  }

  /** Takes an item off the panel (decided, or withdrawn by its server). */
  withdraw(item: ActiveItem): void {
    if (this.active !== item) return;
    this.active = undefined;
    this.activeId = undefined;
    this.render();
    this.askingChanged.fire();
  }

  /** Re-renders with the current waiting count (the queues changed). */
  refresh(): void {
    this.render();
  }

  snapshot(): ReviewSnapshot {
    // Read from the workbench's tabs, not from the panel: the extension host reports a panel it has just created as
    // visible and active until the workbench's first view-state update arrives, even when it opened without focus.
    const isReview = (tab: vscode.Tab | undefined) =>
      tab?.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(REVIEW_VIEW_TYPE);
    const open = this.panel !== undefined;
    return {
      view: this.active?.view,
      requestId: this.activeId,
      waiting: this.waiting(),
      open,
      visible: open && vscode.window.tabGroups.all.some((group) => isReview(group.activeTab)),
      focused: open && isReview(vscode.window.tabGroups.activeTabGroup.activeTab),
      staleDecisions: this.staleDecisions,
    };
  }

  /**
   * Everything the webview posts goes through here, and so do the tests' messages. A decision is delivered only
   * when it names the request shown now; anything else (a late click, a forged message) is dropped.
   */
  handleMessage(message: ReviewMessage): void {
    if (message.type === 'ready') {
      this.render();
      return;
    }
    if (message.type !== 'closed' && (message.requestId === undefined || message.requestId !== this.activeId)) {
      this.staleDecisions++;
      return;
    }
    this.active?.onMessage(message);
  }

  private waiting(): number {
    const total = this.waitingSources.reduce((sum, size) => sum + size(), 0);
    return Math.max(0, total - (this.active ? 1 : 0));
  }

  private render(): void {
    if (!this.panel) return;
    this.panel.title = this.active
      ? vscode.l10n.t('MCP Review: {0}', this.active.view.serverName)
      : vscode.l10n.t('MCP Review');
    void this.panel.webview.postMessage({
      type: 'show',
      view: this.active?.view,
      requestId: this.activeId,
      waiting: this.waiting(),
    });
  }

  private ensurePanel(): vscode.WebviewPanel {
    if (this.panel) return this.panel;
    const root = webviewMedia(this.extensionUri, 'review');
    // In the side group our forms use, outside the active group, and without focus: the person keeps typing where they
    // were and turns to the panel by choice.
    const panel = vscode.window.createWebviewPanel(
      REVIEW_VIEW_TYPE,
      vscode.l10n.t('MCP Review'),
      { viewColumn: sideColumn('server'), preserveFocus: true },
      {
        enableScripts: true,
        retainContextWhenHidden: true,
        localResourceRoots: [root],
      },
    );
    panel.webview.html = this.html(panel.webview, root);
    panel.onDidDispose(
      () => {
        this.panel = undefined;
        const item = this.active;
        if (item) item.onMessage({ type: 'closed', requestId: this.activeId });
      },
      undefined,
      this.disposables,
    );
    panel.webview.onDidReceiveMessage(
      (message: ReviewMessage) => this.handleMessage(message),
      undefined,
      this.disposables,
    );
    this.panel = panel;
    return panel;
  }

  private html(webview: vscode.Webview, root: vscode.Uri): string {
    // A JSON script element is data, not code: the page's CSP needs no nonce for it, and "<" is escaped so no string
    // can close it early.
    const strings = JSON.stringify(webviewStrings()).replace(/</g, '\\u003c');
    return webviewPage({
      webview,
      title: vscode.l10n.t('MCP Review'),
      body: `<main id="app" aria-live="polite"></main>\n<script id="strings" type="application/json">${strings}</script>`,
      scripts: [vscode.Uri.joinPath(root, 'review.js')],
      styles: [vscode.Uri.joinPath(root, 'review.css')],
    });
  }

  dispose(): void {
    this.panel?.dispose();
    for (const disposable of this.disposables) disposable.dispose();
  }
}

/** Every string the webview shows, translated here (vscode.l10n is not available inside the webview). */
function webviewStrings(): Record<string, string> {
  return {
    idle: vscode.l10n.t('No requests are waiting for review.'),
    waiting: vscode.l10n.t('{0} more waiting'),
    samplingTitle: vscode.l10n.t('"{0}" asks for a model completion'),
    samplingTitleTask: vscode.l10n.t('"{0}" asks for a model completion for task {1}'),
    samplingTitleTaskTool: vscode.l10n.t('"{0}" asks for a model completion for task {1} ({2})'),
    responseTitle: vscode.l10n.t('Answer from {0} for "{1}"'),
    elicitTitle: vscode.l10n.t('"{0}" asks for information'),
    elicitTitleTask: vscode.l10n.t('"{0}" asks for information for task {1}'),
    elicitTitleTaskTool: vscode.l10n.t('"{0}" asks for information for task {1} ({2})'),
    systemPrompt: vscode.l10n.t('System prompt'),
    message: vscode.l10n.t('Message {0} ({1})'),
    roleUser: vscode.l10n.t('user'),
    roleAssistant: vscode.l10n.t('assistant'),
    image: vscode.l10n.t('Image ({0})'),
    unsupported: vscode.l10n.t('Not sent to this model'),
    model: vscode.l10n.t('Model'),
    maxTokens: vscode.l10n.t('Maximum tokens'),
    temperature: vscode.l10n.t('Temperature'),
    stopSequences: vscode.l10n.t('Stop sequences (one per line)'),
    policy: vscode.l10n.t('For this server'),
    policyAsk: vscode.l10n.t('Ask every time'),
    policySession: vscode.l10n.t('Allow for this session'),
    policyAlways: vscode.l10n.t('Always allow'),
    policyNever: vscode.l10n.t('Never allow'),
    approve: vscode.l10n.t('Approve'),
    reject: vscode.l10n.t('Reject'),
    answer: vscode.l10n.t('Answer (you can edit it before it is returned)'),
    streaming: vscode.l10n.t('The model is answering…'),
    // The value is "input / output"; the label says which is which.
    tokens: vscode.l10n.t('Tokens (input / output): {0}'),
    accept: vscode.l10n.t('Accept'),
    decline: vscode.l10n.t('Decline'),
    cancel: vscode.l10n.t('Cancel'),
    required: vscode.l10n.t('required'),
    notJson: vscode.l10n.t('Not valid JSON'),
    jsonField: vscode.l10n.t('JSON ({0})'),
    keys: vscode.l10n.t(
      'Once you have clicked or tabbed into this request, Enter (or Ctrl+Enter in a text area) approves; Escape rejects.',
    ),
    elicitationKeys: vscode.l10n.t(
      'Once you have clicked or tabbed into this form, Enter (or Ctrl+Enter in a text area) accepts; Escape cancels (the server learns you made no choice; Decline tells it no).',
    ),
    toolCalls: vscode.l10n.t('Tool calls requested by the model (kept when you approve)'),
    modelError: vscode.l10n.t('The model failed; the server was told: {0}'),
    dismiss: vscode.l10n.t('Dismiss'),
  };
}
