// @ts-check
// The review panel's webview: renders what the extension sends ({type:'show', view, waiting}) and posts the
// person's decisions back. No remote resources; every string comes translated from the extension.
(function () {
  const vscode = acquireVsCodeApi();
  const strings = JSON.parse(document.getElementById('strings')?.textContent || '{}');
  const app = /** @type {HTMLElement} */ (document.getElementById('app'));
  /** @type {any} */ let current;
  /** The id of the request shown; every decision carries it so a late click cannot decide the next request. */
  /** @type {number|undefined} */ let requestId;
  /**
   * Whether the person has turned to this request since it appeared: clicked in the page, or moved the focus onto
   * one of its controls (by Tab or a click; the page itself focuses nothing). Until then Enter and Escape do
   * nothing: the request arrived on a server's initiative, and keys meant for the editor (typed while the page had
   * the keyboard by accident, which leaves the focus on the page's body) must not decide it.
   */
  let interacted = false;
  let uid = 0;

  const t = (key, ...args) =>
    String(strings[key] ?? key).replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)] ?? ''));

  /**
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag @param {Record<string, any>} [props] @param {...(Node|string|undefined)} children
   * @returns {HTMLElementTagNameMap[K]}
   */
  function el(tag, props = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (value === undefined || value === false) continue;
      if (key === 'text') node.textContent = value;
      else if (key.startsWith('on')) node.addEventListener(key.slice(2).toLowerCase(), value);
      else if (key in node && key !== 'list') /** @type {any} */ (node)[key] = value;
      else node.setAttribute(key, value === true ? '' : String(value));
    }
    for (const child of children) if (child !== undefined) node.append(child);
    return node;
  }
  const id = () => `f${++uid}`;

  function labelled(labelText, control, description) {
    const controlId = control.id || (control.id = id());
    /** @type {HTMLElement[]} */ const parts = [el('label', { htmlFor: controlId, text: labelText })];
    if (description) {
      const descId = id();
      control.setAttribute('aria-describedby', descId);
      parts.push(el('div', { className: 'description', id: descId, text: description }));
    }
    return el('div', {}, ...parts, control);
  }

  /**
   * The title of a request a server sends for a task names the task (and its tool when known); the extension has
   * already escaped and bounded both, and they are set as text.
   * @param {string} key @param {any} view
   */
  function requestTitle(key, view) {
    if (!view.task) return t(key, view.serverName);
    return view.task.shownToolName
      ? t(key + 'TaskTool', view.serverName, view.task.shownTaskId, view.task.shownToolName)
      : t(key + 'Task', view.serverName, view.task.shownTaskId);
  }

  function header(title, waiting) {
    /** @type {HTMLElement[]} */ const nodes = [el('h1', { text: title })];
    if (waiting > 0) nodes.push(el('p', { className: 'waiting', text: t('waiting', waiting) }));
    return nodes;
  }

  /**
   * The action bar (and its key hint) right under the title, where it stays while the form scrolls: VS Code's
   * notifications (a tool's "Calling…" progress) sit at the bottom right and covered Decline and Reject there.
   * @param {HTMLElement[]} nodes
   */
  function actionsOnTop(nodes) {
    const bar = nodes.findIndex((node) => node.classList.contains('actions'));
    if (bar === -1) return nodes;
    const moved = nodes.slice(bar, nodes[bar + 1]?.classList.contains('hint') ? bar + 2 : bar + 1);
    const rest = nodes.filter((node) => !moved.includes(node));
    const titleEnd = rest.findIndex((node) => node.tagName !== 'H1' && !node.classList.contains('waiting'));
    const at = titleEnd === -1 ? rest.length : titleEnd;
    return [...rest.slice(0, at), el('div', { className: 'action-bar' }, ...moved), ...rest.slice(at)];
  }

  function actions(primaryLabel, onPrimary, secondary) {
    const primary = el('button', { type: 'button', id: 'primary', text: primaryLabel, onClick: onPrimary });
    const buttons = [primary];
    for (const [label, handler, idName] of secondary)
      buttons.push(el('button', { type: 'button', className: 'secondary', id: idName, text: label, onClick: handler }));
    return el('div', { className: 'actions' }, ...buttons);
  }

  // ---- sampling request -------------------------------------------------------------------------------------
  function renderRequest(view, waiting) {
    const form = [];
    const system = el('textarea', { id: 'system-prompt', value: view.systemPrompt ?? '' });
    form.push(labelled(t('systemPrompt'), system));
    /** @type {(HTMLTextAreaElement|null)[][]} */
    const textAreas = [];
    view.messages.forEach((message, m) => {
      const role = message.role === 'user' ? t('roleUser') : t('roleAssistant');
      /** @type {HTMLElement[]} */ const fields = [el('legend', { text: t('message', m + 1, role) })];
      const row = [];
      message.parts.forEach((part, p) => {
        if (part.kind === 'text') {
          const area = el('textarea', {
            id: `message-${m}-${p}`,
            value: part.text,
            'aria-label': t('message', m + 1, role),
          });
          row.push(area);
          fields.push(area);
        } else if (part.kind === 'image') {
          row.push(null);
          fields.push(
            el(
              'div',
              {},
              el('div', { className: 'description', text: t('image', part.mimeType) }),
              el('img', { src: `data:${part.mimeType};base64,${part.data}`, alt: t('image', part.mimeType) }),
            ),
          );
        } else {
          row.push(null);
          fields.push(el('div', { className: 'other', text: part.description }));
        }
      });
      textAreas.push(row);
      form.push(el('fieldset', {}, ...fields));
    });
    if (view.unsupported.length) {
      form.push(
        el(
          'div',
          { className: 'warning', role: 'note' },
          el('strong', { text: t('unsupported') }),
          el('ul', {}, ...view.unsupported.map((u) => el('li', { text: u }))),
        ),
      );
    }
    const model = el(
      'select',
      { id: 'model' },
      ...view.models.map((option) =>
        el('option', { value: option.id, text: option.label, selected: option.id === view.modelId }),
      ),
    );
    const maxTokens = el('input', {
      type: 'number',
      id: 'max-tokens',
      min: '1',
      step: '1',
      value: String(view.maxTokens),
    });
    const temperature = el('input', {
      type: 'number',
      id: 'temperature',
      min: '0',
      max: '2',
      step: '0.1',
      value: view.temperature === undefined ? '' : String(view.temperature),
    });
    const stops = el('textarea', { id: 'stop-sequences', value: view.stopSequences.join('\n') });
    const policy = el(
      'select',
      { id: 'policy' },
      ...[
        ['ask', 'policyAsk'],
        ['session', 'policySession'],
        ['always', 'policyAlways'],
        ['never', 'policyNever'],
      ].map(([value, key]) => el('option', { value, text: t(key), selected: value === view.policy })),
    );
    form.push(labelled(t('model'), model));
    form.push(
      el('div', { className: 'row' }, labelled(t('maxTokens'), maxTokens), labelled(t('temperature'), temperature)),
    );
    form.push(labelled(t('stopSequences'), stops));
    form.push(labelled(t('policy'), policy));
    const approve = () => {
      const temp = temperature.value.trim() === '' ? undefined : Number(temperature.value);
      post({
        type: 'approve-request',
        systemPrompt: system.value,
        texts: textAreas.map((row) => row.map((area) => (area ? area.value : null))),
        modelId: model.value,
        maxTokens: Number(maxTokens.value),
        temperature: temp,
        stopSequences: stops.value.split('\n').filter((line) => line.length > 0),
        policy: policy.value,
      });
    };
    const reject = () => post({ type: 'reject-request', policy: policy.value });
    return {
      nodes: [
        ...header(requestTitle('samplingTitle', view), waiting),
        ...form,
        actions(t('approve'), approve, [[t('reject'), reject, 'reject']]),
        el('p', { className: 'hint', text: t('keys') }),
      ],
      approve,
      reject,
    };
  }

  // ---- sampling response ------------------------------------------------------------------------------------
  function renderResponse(view, waiting) {
    const title = header(t('responseTitle', view.model, view.serverName), waiting);
    if (view.streaming) {
      return {
        nodes: [
          ...title,
          el('p', { text: t('streaming'), role: 'status' }),
          el('pre', { className: 'streaming', id: 'streamed', text: view.text }),
        ],
      };
    }
    if (view.error) {
      /** @type {HTMLElement[]} */ const nodes = [
        ...title,
        el('div', { className: 'error', id: 'model-error', role: 'alert', text: t('modelError', view.error) }),
      ];
      if (view.text) nodes.push(el('pre', { className: 'streaming', text: view.text }));
      const dismiss = () => post({ type: 'dismiss' });
      nodes.push(actions(t('dismiss'), dismiss, []));
      return { nodes, approve: dismiss, reject: dismiss };
    }
    const answer = el('textarea', { id: 'answer', className: 'answer', value: view.text });
    /** @type {HTMLElement[]} */ const nodes = [...title, labelled(t('answer'), answer)];
    if (view.toolCalls && view.toolCalls.length) {
      nodes.push(
        el('p', { className: 'description', text: t('toolCalls') }),
        el('ul', { id: 'tool-calls' }, ...view.toolCalls.map((call) => el('li', {}, el('code', { text: call })))),
      );
    }
    if (view.usage) nodes.push(el('p', { className: 'description', text: t('tokens', view.usage) }));
    const approve = () => post({ type: 'approve-response', text: answer.value });
    const reject = () => post({ type: 'reject-response' });
    nodes.push(
      actions(t('approve'), approve, [[t('reject'), reject, 'reject']]),
      el('p', { className: 'hint', text: t('keys') }),
    );
    return { nodes, approve, reject };
  }

  // ---- elicitation form -------------------------------------------------------------------------------------
  function renderElicitation(view, waiting) {
    const root = view.form;
    const values = view.values && typeof view.values === 'object' ? view.values : {};
    const fieldErrors = new Map();
    const general = [];
    // Errors arrive as { path, message } in the person's words; a top-level field's path is "/<name>".
    for (const error of view.errors) {
      const match = /^\/([^/]+)$/.exec(error.path);
      const name = match ? match[1].replace(/~1/g, '/').replace(/~0/g, '~') : undefined;
      if (name !== undefined && root.kind === 'object' && root.fields.some((f) => f.name === name))
        fieldErrors.set(name, [...(fieldErrors.get(name) ?? []), error.message]);
      else general.push(error.message);
    }
    /** @type {{ name: string, read: () => { ok: boolean, value?: any, present: boolean } }[]} */
    const readers = [];
    /** @type {HTMLElement[]} */ const nodes = [
      ...header(requestTitle('elicitTitle', view), waiting),
      el('p', { text: view.message }),
    ];
    if (general.length)
      nodes.push(el('div', { className: 'error', role: 'alert' }, ...general.map((g) => el('div', { text: g }))));
    for (const field of root.kind === 'object' ? root.fields : []) {
      const label = `${field.label || field.name}${field.required ? ` (${t('required')})` : ''}`;
      const value = values[field.name];
      let block;
      switch (field.kind) {
        case 'string': {
          const type = field.secret
            ? 'password'
            : field.format === 'email'
              ? 'email'
              : field.format === 'uri'
                ? 'url'
                : field.format === 'date'
                  ? 'date'
                  : 'text';
          const input = el('input', {
            type,
            id: `field-${field.name}`,
            value: typeof value === 'string' ? value : '',
            required: field.required,
            placeholder: field.format && type === 'text' ? field.format : undefined,
          });
          block = labelled(label, input, field.description);
          readers.push({
            name: field.name,
            read: () => ({ ok: true, present: input.value !== '', value: input.value }),
          });
          break;
        }
        case 'number': {
          const input = el('input', {
            type: 'number',
            id: `field-${field.name}`,
            step: field.integer ? '1' : 'any',
            min: field.minimum,
            max: field.maximum,
            value: typeof value === 'number' ? String(value) : '',
            required: field.required,
          });
          block = labelled(label, input, field.description);
          readers.push({
            name: field.name,
            read: () => ({ ok: true, present: input.value.trim() !== '', value: Number(input.value) }),
          });
          break;
        }
        case 'boolean': {
          const input = el('input', { type: 'checkbox', id: `field-${field.name}`, checked: value === true });
          block = el(
            'div',
            {},
            el('label', { className: 'check', htmlFor: input.id }, input, field.label || field.name),
            field.description ? el('div', { className: 'description', text: field.description }) : undefined,
          );
          readers.push({ name: field.name, read: () => ({ ok: true, present: true, value: input.checked }) });
          break;
        }
        case 'enum': {
          const select = el(
            'select',
            { id: `field-${field.name}` },
            el('option', { value: '', text: '—', selected: value === undefined }),
            ...field.options.map((option, index) =>
              el('option', { value: String(index), text: option.label, selected: option.value === value }),
            ),
          );
          block = labelled(label, select, field.description);
          readers.push({
            name: field.name,
            read: () => ({
              ok: true,
              present: select.value !== '',
              value: select.value === '' ? undefined : field.options[Number(select.value)].value,
            }),
          });
          break;
        }
        case 'multi-enum': {
          const chosen = Array.isArray(value) ? value : [];
          const boxes = field.options.map((option) =>
            el('input', { type: 'checkbox', id: id(), checked: chosen.includes(option.value) }),
          );
          block = el(
            'fieldset',
            {},
            el('legend', { text: label }),
            field.description ? el('div', { className: 'description', text: field.description }) : undefined,
            ...field.options.map((option, index) =>
              el('label', { className: 'check', htmlFor: boxes[index].id }, boxes[index], option.label),
            ),
          );
          readers.push({
            name: field.name,
            read: () => ({
              ok: true,
              present: true,
              value: field.options.filter((_, index) => boxes[index].checked).map((option) => option.value),
            }),
          });
          break;
        }
        default: {
          const area = el('textarea', {
            id: `field-${field.name}`,
            value: value === undefined ? '' : JSON.stringify(value, null, 2),
          });
          block = labelled(`${label} — ${t('jsonField', field.reason ?? field.kind)}`, area, field.description);
          readers.push({
            name: field.name,
            read: () => {
              if (area.value.trim() === '') return { ok: true, present: false };
              try {
                return { ok: true, present: true, value: JSON.parse(area.value) };
              } catch {
                return { ok: false, present: true };
              }
            },
          });
        }
      }
      const errors = fieldErrors.get(field.name);
      if (errors) {
        const errorId = id();
        block.append(el('div', { className: 'field-error', id: errorId, role: 'alert', text: errors.join('; ') }));
        block.querySelector('input, select, textarea')?.setAttribute('aria-invalid', 'true');
      }
      nodes.push(block);
    }
    const accept = () => {
      /** @type {Record<string, any>} */ const content = {};
      for (const reader of readers) {
        const result = reader.read();
        if (!result.ok) {
          const control = document.getElementById(`field-${reader.name}`);
          control?.setAttribute('aria-invalid', 'true');
          control?.parentElement?.append(el('div', { className: 'field-error', role: 'alert', text: t('notJson') }));
          control?.focus();
          return;
        }
        if (result.present && result.value !== undefined) content[reader.name] = result.value;
      }
      post({ type: 'elicit', action: 'accept', content });
    };
    const decline = () => post({ type: 'elicit', action: 'decline' });
    const cancel = () => post({ type: 'elicit', action: 'cancel' });
    // Escape is a dismissal, not an answer: MCP's `cancel` ("dismissed without making an explicit choice"), while
    // `decline` is the person's explicit no (the Decline button). The hint says so.
    nodes.push(
      actions(t('accept'), accept, [
        [t('decline'), decline, 'decline'],
        [t('cancel'), cancel, 'cancel'],
      ]),
      el('p', { className: 'hint', text: t('elicitationKeys') }),
    );
    return { nodes, approve: accept, reject: cancel };
  }

  function post(message) {
    vscode.postMessage({ ...message, requestId });
    for (const button of document.querySelectorAll('button')) button.disabled = true;
  }

  /** @type {{ approve?: () => void, reject?: () => void }} */ let keys = {};

  function render(view, waiting, id) {
    const previous = current;
    const sameRequest = id === requestId;
    current = view;
    requestId = id;
    if (!sameRequest) interacted = false;
    let rendered;
    if (!view) rendered = { nodes: [el('h1', { text: t('idle') })] };
    else if (view.kind === 'sampling-request') rendered = renderRequest(view, waiting);
    else if (view.kind === 'sampling-response') rendered = renderResponse(view, waiting);
    else rendered = renderElicitation(view, waiting);
    keys = { approve: rendered.approve, reject: rendered.reject };
    // A streamed update of the same answer only appends text: keep the page (and the focus) as it is.
    const streamed = document.getElementById('streamed');
    if (
      view &&
      previous &&
      view.kind === 'sampling-response' &&
      view.streaming &&
      previous.kind === 'sampling-response' &&
      previous.streaming &&
      streamed
    ) {
      streamed.textContent = view.text;
      return;
    }
    // Nothing is focused on purpose: no button waits for a stray Enter (see `interacted`).
    app.replaceChildren(...actionsOnTop(rendered.nodes));
  }

  document.addEventListener('pointerdown', () => (interacted = true), true);
  document.addEventListener(
    'focusin',
    (event) => {
      if (event.target instanceof HTMLElement && event.target.matches('input, select, textarea, button, a[href]'))
        interacted = true;
    },
    true,
  );

  document.addEventListener(
    'keydown',
    (event) => {
      const target = /** @type {HTMLElement} */ (event.target);
      if (event.key === 'Escape') {
        if (!interacted || !keys.reject) return;
        event.preventDefault();
        keys.reject();
      } else if (event.key === 'Enter') {
        if (!interacted) {
          // Also stops the browser's own "Enter clicks the focused button".
          event.preventDefault();
          event.stopPropagation();
          return;
        }
        if (!keys.approve) return;
        const inTextArea = target.tagName === 'TEXTAREA';
        const onButton = target.tagName === 'BUTTON' || target.tagName === 'SELECT';
        if (event.ctrlKey || event.metaKey || (!inTextArea && !onButton)) {
          event.preventDefault();
          keys.approve();
        }
      }
    },
    true,
  );

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (message?.type === 'show') render(message.view, message.waiting, message.requestId);
  });
  vscode.postMessage({ type: 'ready' });
})();
