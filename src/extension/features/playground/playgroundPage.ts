import * as vscode from 'vscode';
import { MAX_ATTACHMENT_BYTES } from '../../../workbench/evals/attachments';
import { MAX_TOOL_RESULT_CHARS, type EvalModel } from '../../../workbench/evals/toolLoop';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import type { ServerController } from '../../platform/servers/serverController';
import { escapeHtml } from '../../platform/webviews/webviewPage';

/** The model's streamed answer of one step is shown up to this many UTF-8 bytes (the model's own reply is not cut). */
export const MAX_SHOWN_ANSWER_BYTES = 64 * 1024;
/** Each tool result is shown up to this many bytes (the model reads up to MAX_TOOL_RESULT_CHARS of it). */
export const MAX_SHOWN_RESULT_BYTES = 16 * 1024;

/** The playground page's markup and its translated labels (the page sets server and model text as text only). */
export function pageBody(controllers: readonly ServerController[], model: EvalModel): string {
  const servers = controllers.map((controller) => escapeForDisplay(controller.name)).join(', ');
  const about = vscode.l10n.t(
    'Servers: {0} · Model: {1} ({2})',
    servers,
    escapeForDisplay(model.info.name),
    escapeForDisplay(model.info.providerLabel),
  );
  const attachHint = vscode.l10n.t(
    'Attach a resource or a prompt of the servers to the next request: its text up to {0} KB, other content described by type and size.',
    MAX_ATTACHMENT_BYTES / 1024,
  );
  return `<header class="bar">
<h1>${escapeHtml(vscode.l10n.t('Try with a Model'))}</h1>
<p class="muted" id="about">${escapeHtml(about)}</p>
<p class="muted">${escapeHtml(vscode.l10n.t('Each tool call the model makes waits for your Allow. Requests and tool results are sent to this model.'))}</p>
<p class="muted">${escapeHtml(vscode.l10n.t('This panel shows each model answer up to {0} KB and each tool result up to {1} KB; the model reads results up to {2} characters.', MAX_SHOWN_ANSWER_BYTES / 1024, MAX_SHOWN_RESULT_BYTES / 1024, MAX_TOOL_RESULT_CHARS.toLocaleString()))}</p>
</header>
<div id="log" role="log" aria-live="polite"></div>
<form id="composer">
<ul id="attachments" class="chips" aria-label="${escapeHtml(vscode.l10n.t('Attached to the next request'))}"></ul>
<label for="request">${escapeHtml(vscode.l10n.t('Request'))}</label>
<textarea id="request" rows="3" placeholder="${escapeHtml(vscode.l10n.t('Ask the model something that needs the tools… (Ctrl+Enter sends)'))}"></textarea>
<div class="actions">
<button type="submit" id="send">${escapeHtml(vscode.l10n.t('Send'))}</button>
<button type="button" id="stop" class="secondary" disabled>${escapeHtml(vscode.l10n.t('Stop'))}</button>
<button type="button" id="attach" class="secondary" title="${escapeHtml(attachHint)}">${escapeHtml(vscode.l10n.t('Attach…'))}</button>
<button type="button" id="saveEval" class="secondary" disabled>${escapeHtml(vscode.l10n.t('Save as Eval…'))}</button>
<button type="button" id="export" class="secondary" disabled>${escapeHtml(vscode.l10n.t('Export Conversation…'))}</button>
</div>
</form>`;
}

export function pageLabels(): Record<string, string> {
  return {
    you: vscode.l10n.t('You'),
    model: vscode.l10n.t('Model'),
    step: vscode.l10n.t('Step {0}: {1} input tokens, {2} output tokens, {3} ms'),
    unknownTokens: '?',
    call: vscode.l10n.t('Tool call: {0} on {1}'),
    allow: vscode.l10n.t('Allow'),
    allowAll: vscode.l10n.t('Allow all calls of this tool in this chat'),
    deny: vscode.l10n.t('Deny'),
    waiting: vscode.l10n.t('Waiting for your approval'),
    allowedAll: vscode.l10n.t('Allowed (all calls of this tool in this chat)'),
    denied: vscode.l10n.t('Denied: the model is told you declined'),
    running: vscode.l10n.t('Running…'),
    withdrawn: vscode.l10n.t('Not run: the request was stopped'),
    result: vscode.l10n.t('Result ({0} ms)'),
    errorResult: vscode.l10n.t('Error ({0} ms)'),
    withheld: vscode.l10n.t('Withheld: the model read a refusal instead of this result'),
    answerCut: vscode.l10n.t(
      '…(the answer is cut at {0} KB in this panel; the model wrote more)',
      MAX_SHOWN_ANSWER_BYTES / 1024,
    ),
    attachment: vscode.l10n.t('{0} {1} from {2}, {3} bytes'),
    attachmentCut: vscode.l10n.t('{0} {1} from {2}: {3} bytes, cut at {4} KB'),
    resource: vscode.l10n.t('Resource'),
    prompt: vscode.l10n.t('Prompt'),
    remove: vscode.l10n.t('Remove {0}'),
  };
}
