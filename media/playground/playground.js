// @ts-check
// The playground panel's webview: the chat log (the person's requests, the model's streamed text, each step's tokens
// and time, each tool call with its arguments, its Allow / Allow all calls of this tool / Deny buttons and its result),
// the request box, Send and Stop, the attachments of the next request as removable chips, Attach…, Save as Eval… and
// Export Conversation…. Every string comes translated from the extension; all text a server or the model
// wrote is set as text only (textContent), never as HTML.
(function () {
  const vscode = acquireVsCodeApi();
  const state = JSON.parse(document.getElementById('initial-state')?.textContent || '{}');
  const labels = state.labels || {};
  const t = (key, ...args) => String(labels[key] ?? key).replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)] ?? ''));
  const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const log = byId('log');
  const form = /** @type {HTMLFormElement} */ (byId('composer'));
  const request = /** @type {HTMLTextAreaElement} */ (byId('request'));
  const send = /** @type {HTMLButtonElement} */ (byId('send'));
  const stop = /** @type {HTMLButtonElement} */ (byId('stop'));
  const attach = /** @type {HTMLButtonElement} */ (byId('attach'));
  const saveEval = /** @type {HTMLButtonElement} */ (byId('saveEval'));
  const exportButton = /** @type {HTMLButtonElement} */ (byId('export'));
  const chips = byId('attachments');
  /** The model's text of the step under way (streamed deltas go there). @type {HTMLElement | undefined} */
  let answer;
  let busy = false;

  /** @param {string} tag @param {string} cls @param {string} [text] */
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function add(node) {
    log.appendChild(node);
    node.scrollIntoView({ block: 'end' });
    return node;
  }

  function submit() {
    const text = request.value;
    if (busy || !text.trim()) return;
    vscode.postMessage({ type: 'send', text });
    request.value = '';
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit();
  });
  request.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      submit();
    }
  });
  stop.addEventListener('click', () => vscode.postMessage({ type: 'stop' }));
  attach.addEventListener('click', () => vscode.postMessage({ type: 'attach' }));
  saveEval.addEventListener('click', () => vscode.postMessage({ type: 'saveEval' }));
  exportButton.addEventListener('click', () => vscode.postMessage({ type: 'export' }));

  /**
   * What an attachment is, as its chip and the request's entry say it.
   * @param {{ kind: string, label: string, server: string, bytes: number, cut: boolean, capKb: number }} item
   */
  function attachmentText(item) {
    const kind = t(item.kind === 'prompt' ? 'prompt' : 'resource');
    return item.cut
      ? t('attachmentCut', kind, item.label, item.server, item.bytes, item.capKb)
      : t('attachment', kind, item.label, item.server, item.bytes);
  }

  /**
   * The chips of what the next request carries: each a list item with its own Remove button (reached with Tab).
   * @param {{ kind: string, label: string, server: string, bytes: number, cut: boolean, capKb: number }[]} items
   */
  function showAttachments(items) {
    const focused = chips.contains(document.activeElement);
    chips.replaceChildren();
    items.forEach((item, index) => {
      const chip = chips.appendChild(el('li', 'chip'));
      chip.appendChild(el('span', 'chip-label', attachmentText(item)));
      const remove = /** @type {HTMLButtonElement} */ (chip.appendChild(el('button', 'secondary chip-remove', '×')));
      remove.type = 'button';
      remove.title = t('remove', item.label);
      remove.setAttribute('aria-label', t('remove', item.label));
      remove.addEventListener('click', () => vscode.postMessage({ type: 'detach', index }));
    });
    chips.hidden = items.length === 0;
    // A removed chip took the focus with it: keep the keyboard in the list (or back in the request box).
    if (focused) (chips.querySelector('button') ?? request).focus();
  }
  showAttachments([]);

  /** The card of tool call `id`. @param {number} id */
  const card = (id) => /** @type {HTMLElement | null} */ (document.getElementById(`call-${id}`));

  /** Replaces a card's buttons with its state line. @param {number} id @param {string} text */
  function settle(id, text) {
    const node = card(id);
    if (!node) return;
    node.querySelector('.decision')?.remove();
    const status = node.querySelector('.status');
    if (status) status.textContent = text;
  }

  window.addEventListener('message', (event) => {
    const message = event.data;
    switch (message.type) {
      case 'busy':
        busy = Boolean(message.busy);
        send.disabled = busy;
        stop.disabled = !busy;
        if (!busy) answer = undefined;
        break;
      case 'user': {
        const entry = add(el('div', 'entry user'));
        entry.appendChild(el('div', 'who', t('you')));
        entry.appendChild(el('div', 'text', message.text));
        for (const item of Array.isArray(message.attachments) ? message.attachments : [])
          entry.appendChild(el('div', 'attached muted', attachmentText(item)));
        answer = undefined;
        break;
      }
      case 'delta':
        if (!answer) {
          const entry = add(el('div', 'entry model'));
          entry.appendChild(el('div', 'who', t('model')));
          answer = /** @type {HTMLElement} */ (entry.appendChild(el('div', 'text answer', '')));
        }
        answer.textContent += message.text;
        break;
      case 'step': {
        // A provider that does not stream gave no deltas: its whole text comes with the step.
        if (!answer && message.text) {
          const entry = add(el('div', 'entry model'));
          entry.appendChild(el('div', 'who', t('model')));
          entry.appendChild(el('div', 'text answer', message.text));
        }
        const tokens = (value) => (typeof value === 'number' ? String(value) : t('unknownTokens'));
        add(
          el(
            'div',
            'step muted',
            t('step', message.step, tokens(message.inputTokens), tokens(message.outputTokens), message.durationMs),
          ),
        );
        answer = undefined;
        break;
      }
      case 'call': {
        const node = add(el('div', 'entry call'));
        node.id = `call-${message.id}`;
        node.appendChild(el('div', 'who', t('call', message.tool, message.server)));
        node.appendChild(el('pre', 'args', message.args));
        const status = node.appendChild(
          el('div', 'status muted', message.state === 'ask' ? t('waiting') : t('allowedAll')),
        );
        status.setAttribute('role', 'status');
        if (message.state === 'ask') {
          const decision = node.appendChild(el('div', 'decision'));
          /** @param {string} label @param {string} value @param {string} cls */
          const button = (label, value, cls) => {
            const item = /** @type {HTMLButtonElement} */ (decision.appendChild(el('button', cls, label)));
            item.type = 'button';
            item.dataset.decision = value;
            item.addEventListener('click', () => {
              decision.querySelectorAll('button').forEach((other) => (other.disabled = true));
              vscode.postMessage({ type: 'decide', id: message.id, decision: value });
            });
          };
          button(t('allow'), 'allow', 'allow');
          button(t('allowAll'), 'allowAll', 'secondary allow-all');
          button(t('deny'), 'deny', 'secondary deny');
        }
        break;
      }
      case 'decided':
        if (!message.run) settle(message.id, t('denied'));
        break;
      case 'started':
        settle(message.id, t('running'));
        break;
      case 'ended': {
        settle(message.id, t(message.isError ? 'errorResult' : 'result', message.durationMs));
        card(message.id)?.appendChild(el('pre', message.isError ? 'result bad' : 'result', message.text));
        break;
      }
      case 'withdrawn':
        settle(message.id, t('withdrawn'));
        break;
      case 'withheld': {
        const mark = card(message.id)?.appendChild(el('div', 'withheld muted', t('withheld')));
        mark?.setAttribute('role', 'status');
        break;
      }
      case 'note':
        add(el('div', 'note muted', message.text));
        break;
      case 'answerCut':
        // The answer entry stays the step's: the step's line must not show the whole text again.
        add(el('div', 'note muted answer-cut', t('answerCut')));
        break;
      case 'attachments':
        showAttachments(Array.isArray(message.items) ? message.items : []);
        break;
      case 'ran':
        exportButton.disabled = false;
        saveEval.disabled = !message.saveable;
        break;
      case 'error':
        add(el('div', 'error-banner', message.text));
        break;
    }
  });
  request.focus();
})();
