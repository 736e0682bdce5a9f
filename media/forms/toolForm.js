// Tool call form: renders the FormField tree the extension built from the tool's input schema (see
// src/workbench/forms/formModel.ts), collects the values, and posts them; validation against the schema happens in
// the extension, whose errors come back and are shown next to the fields. No framework, no remote content.
(function () {
  // Shared with media/results/results.js, which draws the results under the form: one API handle per page.
  const vscode = window.mcpVsCodeApi || (window.mcpVsCodeApi = acquireVsCodeApi());
  // The form page (src/extension/forms) always renders these elements; the casts say which kind each is.
  const state = JSON.parse(
    /** @type {string} */ (/** @type {HTMLElement} */ (document.getElementById('initial-state')).textContent),
  );
  const labels = state.labels;
  const form = /** @type {HTMLFormElement} */ (document.getElementById('form'));
  const fieldsRoot = /** @type {HTMLElement} */ (document.getElementById('fields'));
  const jsonArea = /** @type {HTMLTextAreaElement} */ (document.getElementById('json'));
  const errorsBox = /** @type {HTMLElement} */ (document.getElementById('errors'));
  const submitButton = /** @type {HTMLButtonElement} */ (document.getElementById('submit'));
  const toggleButton = /** @type {HTMLButtonElement} */ (document.getElementById('toggle-json'));
  let jsonMode = false;
  let counter = 0;
  let readRoot = () => ({});
  /** @param {any} error what a throw gave: an Error, or anything else */
  const errorText = (error) => String(error && error.message ? error.message : error);

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === false) continue;
      if (key === 'text') node.textContent = value;
      else node.setAttribute(key, value === true ? '' : String(value));
    }
    for (const child of children || []) if (child) node.appendChild(child);
    return node;
  }

  function labelFor(field, id) {
    const text = field.label || field.name || labels.value;
    return el('label', { for: id, class: 'field-label' }, [
      document.createTextNode(text),
      field.required ? el('span', { class: 'required', 'aria-hidden': 'true', text: ' *' }) : null,
    ]);
  }

  function help(field, id) {
    return field.description ? el('div', { class: 'help', id: id + '-help', text: field.description }) : null;
  }

  // Each renderer returns { node, read }: read() gives the value, or undefined to leave it out.
  function render(field, value, path) {
    const id = 'f' + ++counter;
    const describedBy = field.description ? id + '-help' : undefined;
    const wrap = (control, extraClass) =>
      el('div', { class: 'field ' + (extraClass || ''), 'data-path': path }, [
        labelFor(field, id),
        control,
        help(field, id),
        el('div', { class: 'field-error', role: 'alert' }),
      ]);
    switch (field.kind) {
      case 'string': {
        const input = el('input', {
          id,
          type: field.secret ? 'password' : 'text',
          'aria-describedby': describedBy,
          'aria-required': field.required ? 'true' : undefined,
        });
        input.value = typeof value === 'string' ? value : '';
        return { node: wrap(input), read: () => (input.value === '' && !field.required ? undefined : input.value) };
      }
      case 'number': {
        const input = el('input', {
          id,
          type: 'number',
          step: field.integer ? '1' : 'any',
          min: field.minimum,
          max: field.maximum,
          'aria-describedby': describedBy,
        });
        input.value = typeof value === 'number' ? String(value) : '';
        return {
          node: wrap(input),
          read: () => {
            if (input.value.trim() === '') return undefined;
            const number = Number(input.value);
            return Number.isNaN(number) ? input.value : number;
          },
        };
      }
      case 'boolean': {
        const input = el('input', { id, type: 'checkbox', 'aria-describedby': describedBy });
        input.checked = value === true;
        let touched = value !== undefined;
        input.addEventListener('change', () => (touched = true));
        return { node: wrap(input, 'checkbox'), read: () => (touched || field.required ? input.checked : undefined) };
      }
      case 'enum': {
        const select = el('select', { id, 'aria-describedby': describedBy });
        if (!field.required || value === undefined) select.appendChild(el('option', { value: '', text: labels.unset }));
        field.options.forEach((option, index) =>
          select.appendChild(
            el('option', { value: String(index), text: option.label, selected: option.value === value }),
          ),
        );
        return {
          node: wrap(select),
          read: () => (select.value === '' ? undefined : field.options[Number(select.value)].value),
        };
      }
      case 'multi-enum': {
        const chosen = new Set(Array.isArray(value) ? value : []);
        const boxes = field.options.map((option) => {
          const boxId = 'f' + ++counter;
          const box = el('input', { id: boxId, type: 'checkbox', checked: chosen.has(option.value) });
          return {
            option,
            box,
            node: el('div', { class: 'choice' }, [box, el('label', { for: boxId, text: option.label })]),
          };
        });
        const group = el(
          'div',
          { role: 'group', id, 'aria-describedby': describedBy },
          boxes.map((b) => b.node),
        );
        return {
          node: wrap(group),
          read: () => {
            const picked = boxes.filter((b) => b.box.checked).map((b) => b.option.value);
            return picked.length || field.required ? picked : undefined;
          },
        };
      }
      case 'array': {
        const list = el('div', { class: 'array-items', id });
        const items = [];
        const addItem = (itemValue) => {
          const item = render(field.item, itemValue, path + '/' + items.length);
          const remove = el('button', {
            type: 'button',
            class: 'secondary icon',
            'aria-label': labels.remove,
            title: labels.remove,
            text: '−',
          });
          const row = el('div', { class: 'array-item' }, [item.node, remove]);
          const entry = { item, row };
          remove.addEventListener('click', () => {
            items.splice(items.indexOf(entry), 1);
            row.remove();
          });
          items.push(entry);
          list.appendChild(row);
          const focusable = row.querySelector('input, select, textarea');
          return focusable;
        };
        (Array.isArray(value) ? value : []).forEach((v) => addItem(v));
        const add = el('button', { type: 'button', class: 'secondary', text: labels.add });
        add.addEventListener('click', () => {
          const focusable = addItem(undefined);
          if (focusable) focusable.focus();
        });
        const node = el('div', { class: 'field', 'data-path': path }, [
          el('div', { class: 'field-label' }, [
            document.createTextNode(field.label || field.name || labels.items),
            field.required ? el('span', { class: 'required', text: ' *' }) : null,
          ]),
          help(field, id),
          list,
          add,
          el('div', { class: 'field-error', role: 'alert' }),
        ]);
        return {
          node,
          read: () => {
            const values = items.map((e) => e.item.read());
            return values.length || field.required ? values : undefined;
          },
        };
      }
      case 'object': {
        // An optional nested object is absent until the person adds it: its own required fields must not block a
        // call that leaves the whole object out (and Edit as JSON shows it left out).
        if (path !== '' && !field.required) return renderOptionalObject(field, value, path, id);
        return renderObject(field, value, path, id, null);
      }
      default: {
        const area = el('textarea', { id, rows: '4', 'aria-describedby': describedBy, spellcheck: 'false' });
        area.value = value === undefined ? '' : JSON.stringify(value, null, 2);
        return {
          node: wrap(area),
          read: () => {
            if (area.value.trim() === '') return undefined;
            try {
              return JSON.parse(area.value);
            } catch {
              throw new Error(labels.notJson + ' ' + (field.label || field.name));
            }
          },
        };
      }
    }
  }

  /** The object's fields in a fieldset (the root: a plain div); `extra` goes after the legend (the Remove button). */
  function renderObject(field, value, path, id, extra) {
    const children = field.fields.map((child) => ({
      child,
      rendered: render(
        child,
        value && typeof value === 'object' ? value[child.name] : undefined,
        path + '/' + child.name,
      ),
    }));
    const body = children.map((c) => c.rendered.node);
    const node =
      path === ''
        ? el('div', {}, body)
        : el('fieldset', { 'data-path': path }, [
            el('legend', {}, [
              document.createTextNode(field.label || field.name),
              field.required ? el('span', { class: 'required', text: ' *' }) : null,
            ]),
            extra,
            help(field, id),
            ...body,
            el('div', { class: 'field-error', role: 'alert' }),
          ]);
    return {
      node,
      read: () => {
        const result = {};
        for (const c of children) {
          const v = c.rendered.read();
          if (v !== undefined) result[c.child.name] = v;
        }
        return Object.keys(result).length || field.required || path === '' || extra ? result : undefined;
      },
    };
  }

  /** Defaults of a just-added object, as the extension's defaultValues gives them (optional objects stay absent). */
  function defaultsOf(field) {
    if (field.kind !== 'object') return field.default;
    const result = {};
    for (const child of field.fields) {
      if (child.kind === 'object' && !child.required) continue;
      const v = defaultsOf(child);
      if (v !== undefined) result[child.name] = v;
    }
    return result;
  }

  function renderOptionalObject(field, value, path, id) {
    const name = field.label || field.name;
    const slot = el('div', { class: 'optional-object', 'data-optional-path': path });
    /** @type {{ node: HTMLElement, read: () => any } | undefined} */
    let opened;
    const close = () => {
      opened = undefined;
      slot.textContent = '';
      const add = el('button', {
        type: 'button',
        class: 'secondary add-object',
        text: labels.addObject.replace('{0}', name),
      });
      add.addEventListener('click', () => {
        open(defaultsOf(field));
        const focusable = slot.querySelector('fieldset input, fieldset select, fieldset textarea');
        if (focusable) /** @type {HTMLElement} */ (focusable).focus();
      });
      slot.appendChild(
        el('div', { class: 'field', 'data-path': path }, [
          add,
          help(field, id),
          el('div', { class: 'field-error', role: 'alert' }),
        ]),
      );
    };
    const open = (initial) => {
      slot.textContent = '';
      const remove = el('button', {
        type: 'button',
        class: 'secondary remove-object',
        text: labels.removeObject.replace('{0}', name),
      });
      remove.addEventListener('click', () => {
        close();
        const add = slot.querySelector('button');
        if (add) /** @type {HTMLElement} */ (add).focus();
      });
      opened = renderObject(field, initial, path, id, remove);
      slot.appendChild(opened.node);
    };
    if (value && typeof value === 'object' && !Array.isArray(value)) open(value);
    else close();
    return { node: slot, read: () => (opened ? opened.read() : undefined) };
  }

  function renderForm(values) {
    counter = 0;
    fieldsRoot.textContent = '';
    const root = render(state.model, values, '');
    readRoot = root.read;
    fieldsRoot.appendChild(root.node);
    if (state.model.kind === 'object' && state.model.fields.length === 0)
      fieldsRoot.appendChild(el('p', { class: 'muted', text: labels.noArguments }));
  }

  function currentArguments() {
    if (jsonMode) return JSON.parse(jsonArea.value.trim() === '' ? '{}' : jsonArea.value);
    return readRoot();
  }

  // errors: [{ path, message }] from the extension, already in the person's words; path "" is the whole form.
  // Each message goes next to its field; the banner only points at them, and lists what belongs to no field.
  /** @param {{ path: string, message: string }[]} errors */
  function showErrors(errors) {
    errorsBox.textContent = '';
    document.querySelectorAll('.field-error').forEach((node) => (node.textContent = ''));
    document.querySelectorAll('.invalid').forEach((node) => node.classList.remove('invalid'));
    document.querySelectorAll('[aria-invalid]').forEach((node) => node.removeAttribute('aria-invalid'));
    if (!errors.length) {
      errorsBox.hidden = true;
      return;
    }
    /** @type {string[]} */
    const unplaced = [];
    /** @type {HTMLElement | undefined} */
    let firstInvalid;
    for (const error of errors) {
      const target =
        error.path === '' ? null : fieldsRoot.querySelector('[data-path="' + CSS.escape(error.path) + '"]');
      const slot = target && target.querySelector(':scope > .field-error');
      if (!slot) {
        unplaced.push(error.message);
        continue;
      }
      slot.textContent = slot.textContent ? slot.textContent + '; ' + error.message : error.message;
      target.classList.add('invalid');
      const control = /** @type {HTMLElement | null} */ (target.querySelector('input, select, textarea'));
      if (control) {
        control.setAttribute('aria-invalid', 'true');
        firstInvalid = firstInvalid || control;
      }
    }
    errorsBox.hidden = false;
    if (unplaced.length < errors.length) errorsBox.appendChild(el('strong', { text: labels.fixErrors }));
    if (unplaced.length) {
      const list = el('ul');
      for (const message of unplaced) list.appendChild(el('li', { text: message }));
      errorsBox.appendChild(list);
    }
    if (firstInvalid) firstInvalid.focus();
  }

  function submit() {
    if (submitButton.disabled) return;
    let args;
    try {
      args = currentArguments();
    } catch (error) {
      showErrors([{ path: '', message: errorText(error) }]);
      return;
    }
    // "Run as task" (present only for tools with task support): the extension decides what a disabled one means.
    const runAsTask = /** @type {HTMLInputElement | null} */ (document.getElementById('run-as-task'));
    vscode.postMessage({ type: 'submit', arguments: args, runAsTask: runAsTask ? runAsTask.checked : undefined });
  }

  toggleButton.addEventListener('click', () => {
    try {
      if (!jsonMode) {
        jsonArea.value = JSON.stringify(readRoot(), null, 2);
      } else {
        renderForm(JSON.parse(jsonArea.value.trim() === '' ? '{}' : jsonArea.value));
      }
    } catch (error) {
      showErrors([{ path: '', message: errorText(error) }]);
      return;
    }
    jsonMode = !jsonMode;
    fieldsRoot.hidden = jsonMode;
    jsonArea.hidden = !jsonMode;
    toggleButton.setAttribute('aria-pressed', String(jsonMode));
    toggleButton.textContent = jsonMode ? labels.formMode : labels.jsonMode;
    (jsonMode
      ? jsonArea
      : /** @type {HTMLElement | null} */ (fieldsRoot.querySelector('input, select, textarea')) || submitButton
    ).focus();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit();
  });
  /** @type {HTMLElement} */ (document.getElementById('cancel')).addEventListener('click', () =>
    vscode.postMessage({ type: 'cancel' }),
  );
  document.addEventListener('keydown', (event) => {
    // Escape does not close the form: a result drawn under it (perhaps a long call's) would be lost to a key pressed
    // to dismiss something else. The Close button closes.
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      submit();
    }
  });
  window.addEventListener('message', (event) => {
    const message = event.data;
    if (message.type === 'errors') showErrors(message.errors);
    else if (message.type === 'busy') {
      submitButton.disabled = message.busy;
      submitButton.textContent = message.busy ? labels.calling : labels.call;
    }
  });

  renderForm(state.values);
  // The page draws the button disabled: until this script listens, a click on it (or a person's Enter) would be lost.
  submitButton.disabled = false;
  const first = /** @type {HTMLElement | null} */ (fieldsRoot.querySelector('input, select, textarea'));
  (first || submitButton).focus();
})();
