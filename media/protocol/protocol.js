// @ts-check
// The Show Protocol page: a live timeline of one server's wire (messages, HTTP exchanges, console lines), drawn as a
// virtual list (only the rows on screen are in the DOM, so 100,000 events scroll smoothly). Everything shown comes
// masked from the extension; every string comes translated. Text is set with textContent only, never as HTML.
(function () {
  const vscode = window.mcpVsCodeApi ?? (window.mcpVsCodeApi = acquireVsCodeApi());
  const initial = JSON.parse(document.getElementById('initial-state')?.textContent || '{}');
  /** @type {Record<string, string>} */ const strings = initial.strings ?? {};
  const t = (key, ...args) =>
    String(strings[key] ?? key).replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)] ?? ''));

  const ROW_HEIGHT = 22;
  const OVERSCAN = 10;
  /** The page keeps as many events as the log does; older ones go first. */
  const MAX_EVENTS = 100000;

  /** @type {any[]} */ let events = [];
  /** Responses by the seq of the request they answer: a request row shows its duration. */
  /** @type {Map<number, any>} */ let answers = new Map();
  /** Indices into `events` that pass the filters, in order. */
  /** @type {number[]} */ let shown = [];
  let dropped = 0;
  let tab = 'message';
  let paused = false;
  /** @type {any[]} */ let pausedEvents = [];
  /** @type {number|undefined} */ let selectedSeq;
  let follow = true;
  /** Pinned rows by seq: kept apart from `events` (the extension keeps them through Clear and the log's roll). */
  /** @type {Map<number, any>} */ let pins = new Map();
  /** The row chosen first for Compare. */
  /** @type {number|undefined} */ let compareFirst;
  /** The row whose Edit and Send editor is open, and its text (kept while the detail is redrawn). */
  /** @type {{ seq: number, text: string } | undefined} */ let editing;
  /** The outcome of the last Replay or Edit and Send, by the row it came from. */
  /** @type {{ seq: number, text: string, bad: boolean } | undefined} */ let sendNote;
  const filters = { method: '', id: '', text: '', direction: 'both' };

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
      else if (key in node) /** @type {any} */ (node)[key] = value;
      else node.setAttribute(key, value === true ? '' : String(value));
    }
    for (const child of children) if (child !== undefined) node.append(child);
    return node;
  }

  const app = /** @type {HTMLElement} */ (document.getElementById('app'));
  const tabs = el('div', { className: 'tabs', role: 'tablist' });
  /** @type {Record<string, HTMLButtonElement>} */ const tabButtons = {};
  for (const [kind, label] of [
    ['message', t('messages')],
    ['http', t('network')],
    ['console', t('console')],
  ]) {
    const button = el('button', {
      type: 'button',
      className: 'tab secondary',
      role: 'tab',
      text: label,
      id: `tab-${kind}`,
      onClick: () => setTab(kind),
    });
    tabButtons[kind] = button;
    tabs.append(button);
  }
  const methodInput = el('input', {
    type: 'search',
    id: 'filter-method',
    placeholder: t('filterMethod'),
    'aria-label': t('filterMethod'),
  });
  const idInput = el('input', {
    type: 'search',
    id: 'filter-id',
    placeholder: t('filterId'),
    'aria-label': t('filterId'),
    size: 6,
  });
  const textInput = el('input', {
    type: 'search',
    id: 'filter-text',
    placeholder: t('filterText'),
    'aria-label': t('filterText'),
  });
  const directionSelect = el(
    'select',
    { id: 'filter-direction', 'aria-label': t('direction') },
    el('option', { value: 'both', text: t('both') }),
    el('option', { value: 'send', text: `→ ${t('sent')}` }),
    el('option', { value: 'receive', text: `← ${t('received')}` }),
  );
  const pauseButton = el('button', {
    type: 'button',
    id: 'pause',
    className: 'secondary',
    text: t('pause'),
    onClick: () => setPaused(!paused),
  });
  const clearButton = el('button', {
    type: 'button',
    id: 'clear',
    className: 'secondary',
    text: t('clear'),
    onClick: () => vscode.postMessage({ type: 'clear' }),
  });
  const exportButton = el('button', {
    type: 'button',
    id: 'export',
    className: 'secondary',
    text: t('export'),
    onClick: () => vscode.postMessage({ type: 'export' }),
  });
  const status = el('span', { id: 'status', className: 'muted', role: 'status' });
  const toolbar = el(
    'div',
    { className: 'toolbar' },
    tabs,
    methodInput,
    idInput,
    textInput,
    directionSelect,
    pauseButton,
    clearButton,
    exportButton,
    status,
  );

  const pinnedStrip = el('div', { id: 'pinned', className: 'pinned', role: 'list', 'aria-label': t('pinned') });
  pinnedStrip.hidden = true;
  const viewport = el('div', { id: 'list', className: 'viewport', tabIndex: 0, role: 'listbox' });
  const spacer = el('div', { className: 'spacer' });
  const emptyNote = el('div', { className: 'empty muted', text: t('empty') });
  viewport.append(spacer, emptyNote);
  const detail = el('div', { id: 'detail', className: 'detail' }, el('p', { className: 'muted', text: t('select') }));
  app.append(toolbar, pinnedStrip, viewport, detail);

  for (const input of [methodInput, idInput, textInput]) input.addEventListener('input', () => applyFilters());
  directionSelect.addEventListener('change', () => applyFilters());
  viewport.addEventListener('scroll', () => {
    follow = viewport.scrollTop + viewport.clientHeight >= viewport.scrollHeight - ROW_HEIGHT;
    render();
  });
  window.addEventListener('resize', () => render());
  viewport.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const position = shown.findIndex((index) => events[index].seq === selectedSeq);
    const next = Math.max(0, Math.min(shown.length - 1, position + (event.key === 'ArrowDown' ? 1 : -1)));
    if (shown[next] !== undefined) select(events[shown[next]].seq, true);
  });

  function setTab(kind) {
    tab = kind;
    for (const [name, button] of Object.entries(tabButtons)) {
      button.classList.toggle('active', name === kind);
      button.setAttribute('aria-selected', String(name === kind));
    }
    // Method, id and direction belong to messages; the text filter applies to every tab.
    for (const input of [methodInput, idInput, directionSelect]) input.disabled = kind !== 'message';
    applyFilters();
  }

  function setPaused(value) {
    paused = value;
    pauseButton.textContent = paused ? t('resume') : t('pause');
    pauseButton.classList.toggle('active', paused);
    if (!paused && pausedEvents.length > 0) {
      const resumed = pausedEvents;
      pausedEvents = [];
      add(resumed);
    }
    updateStatus();
  }

  function applyFilters() {
    filters.method = methodInput.value.trim().toLowerCase();
    filters.id = idInput.value.trim();
    filters.text = textInput.value.trim().toLowerCase();
    filters.direction = directionSelect.value;
    shown = [];
    for (let index = 0; index < events.length; index++) if (passes(events[index])) shown.push(index);
    follow = true;
    layout();
  }

  function passes(event) {
    if (event.kind !== tab) return false;
    if (event.kind === 'message') {
      if (filters.direction !== 'both' && event.direction !== filters.direction) return false;
      if (filters.method && !(event.method ?? '').toLowerCase().includes(filters.method)) return false;
      if (filters.id && String(event.id ?? '') !== filters.id) return false;
    }
    if (filters.text && !searchText(event).includes(filters.text)) return false;
    return true;
  }

  function searchText(event) {
    switch (event.kind) {
      case 'message':
        return `${event.method ?? ''} ${event.text}`.toLowerCase();
      case 'http':
        return [
          event.method,
          event.url,
          String(event.status ?? ''),
          event.failure ?? '',
          ...event.requestHeaders.map((h) => `${h.name}: ${h.value}`),
          ...event.responseHeaders.map((h) => `${h.name}: ${h.value}`),
        ]
          .join('\n')
          .toLowerCase();
      default:
        return String(event.text).toLowerCase();
    }
  }

  /** Appends events (already in seq order), dropping the oldest past MAX_EVENTS. */
  function add(batch) {
    for (const event of batch) {
      if (event.kind === 'message' && event.relatedSeq !== undefined && event.durationMs !== undefined)
        answers.set(event.relatedSeq, event);
      events.push(event);
      if (passes(event)) shown.push(events.length - 1);
    }
    if (events.length > MAX_EVENTS) {
      const excess = events.length - MAX_EVENTS;
      dropped += excess;
      for (const event of events.slice(0, excess)) answers.delete(event.seq);
      events = events.slice(excess);
      shown = shown.filter((index) => index >= excess).map((index) => index - excess);
    }
    layout();
  }

  function layout() {
    spacer.style.height = `${shown.length * ROW_HEIGHT}px`;
    emptyNote.hidden = shown.length > 0;
    if (follow) viewport.scrollTop = lastTop();
    render();
    updateStatus();
  }

  /**
   * The scroll position that shows the list's end. Not the viewport's scrollHeight: the rows drawn before the list
   * shrank (a filter) still stand at their old offsets until render() moves them, and would make the window start
   * past the list's end, drawing nothing until a scroll event came.
   */
  function lastTop() {
    return Math.max(0, shown.length * ROW_HEIGHT - viewport.clientHeight);
  }

  /** @type {HTMLElement[]} */ let rows = [];

  function render() {
    const top = Math.min(viewport.scrollTop, lastTop());
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const count = Math.max(
      0,
      Math.min(shown.length - first, Math.ceil(viewport.clientHeight / ROW_HEIGHT) + 2 * OVERSCAN),
    );
    while (rows.length < count) {
      const row = el('div', { className: 'row', role: 'option' });
      row.addEventListener('click', () => select(Number(row.dataset.seq), false));
      viewport.append(row);
      rows.push(row);
    }
    while (rows.length > Math.max(0, count)) rows.pop()?.remove();
    for (let offset = 0; offset < rows.length; offset++) {
      const event = events[shown[first + offset]];
      const row = rows[offset];
      row.style.top = `${(first + offset) * ROW_HEIGHT}px`;
      if (row.dataset.seq === String(event.seq) && row.dataset.stamp === stampOf(event)) continue;
      fillRow(row, event);
    }
  }

  /** What makes a row's drawing stale: a request row changes when its answer arrives. */
  function stampOf(event) {
    return `${answers.get(event.seq)?.seq ?? ''}|${selectedSeq === event.seq}`;
  }

  function fillRow(row, event) {
    row.dataset.seq = String(event.seq);
    row.dataset.stamp = stampOf(event);
    row.dataset.method = event.method ?? '';
    row.className = 'row';
    row.setAttribute('aria-selected', String(selectedSeq === event.seq));
    if (selectedSeq === event.seq) row.classList.add('selected');
    row.replaceChildren();
    const cell = (className, text, title) => row.append(el('span', { className: `cell ${className}`, text, title }));
    // The row number that "row N" in a detail refers to (the log's own count, across the three tabs).
    cell('seq', String(event.seq), t('rowNumber', event.seq));
    cell('time', clock(event.time));
    switch (event.kind) {
      case 'message': {
        const answer = answers.get(event.seq);
        const failed = event.messageKind === 'error' || answer?.messageKind === 'error';
        if (failed) row.classList.add('error');
        // An agent's request through the gateway and the answer to it: double arrows, the agent named on hover (and in
        // the summary), so they stand apart from the workbench's own exchanges with the server.
        cell(
          `dir ${event.direction}`,
          event.agent === undefined ? (event.direction === 'send' ? '→' : '←') : event.direction === 'send' ? '⇒' : '⇐',
          event.agent === undefined ? (event.direction === 'send' ? t('sent') : t('received')) : agentOf(event),
        );
        cell('kind', event.messageKind);
        cell('method', event.method ?? (event.error ? `error ${event.error.code ?? ''}` : ''));
        cell('id', event.id === undefined ? '' : t('requestId', event.id));
        const duration = event.durationMs ?? answer?.durationMs;
        cell('duration', duration === undefined ? '' : `${duration} ms`);
        cell('size', bytes(event.size));
        cell('era', event.era ?? '', t('eraTitle'));
        if (event.replayOf !== undefined) row.classList.add('replayed');
        const summary = event.error
          ? event.error.message
          : event.relatedSeq !== undefined && event.durationMs === undefined
            ? relation(event)
            : replayMark(event);
        // The agent's label is its own text, escaped by the extension; drawn as text, never as markup.
        cell('summary', event.agent === undefined ? summary : [agentOf(event), summary].filter(Boolean).join('  '));
        return;
      }
      case 'http': {
        const bad = event.failure !== undefined || (event.status ?? 0) >= 400;
        if (bad) row.classList.add('error');
        cell('method', event.method);
        cell('status', event.failure !== undefined ? '✕' : String(event.status));
        cell('purpose', event.purpose === 'auth' ? t('auth') : '');
        cell('duration', `${event.durationMs} ms`);
        cell('summary', event.location ? `${event.url} → ${event.location}` : event.url);
        return;
      }
      default:
        cell('summary console', event.text);
    }
  }

  function select(seq, scroll) {
    selectedSeq = seq;
    const index = events.findIndex((event) => event.seq === seq);
    if (index < 0) {
      // A pinned row the log no longer holds (cleared, or rolled past) is still shown from its pin.
      const pinned = pins.get(seq);
      if (pinned) {
        render();
        drawPins();
        showDetail(pinned);
      }
      return;
    }
    const position = shown.indexOf(index);
    if (scroll && position >= 0) {
      const top = position * ROW_HEIGHT;
      if (top < viewport.scrollTop || top + ROW_HEIGHT > viewport.scrollTop + viewport.clientHeight)
        viewport.scrollTop = top - viewport.clientHeight / 2;
    }
    render();
    drawPins();
    showDetail(events[index]);
  }

  function showDetail(event) {
    const body = detailText(event);
    const copy = el('button', {
      type: 'button',
      id: 'copy',
      className: 'secondary',
      text: t('copy'),
      onClick: () => {
        vscode.postMessage({ type: 'copy', text: body });
        copy.textContent = t('copied');
        setTimeout(() => (copy.textContent = t('copy')), 1200);
      },
    });
    const related = event.kind === 'message' ? event.relatedSeq : undefined;
    const goTo =
      related === undefined
        ? undefined
        : el('button', {
            type: 'button',
            id: 'go-to-related',
            className: 'secondary',
            text: t('goToRow', related),
            onClick: () => select(related, true),
          });
    // Sent by this client: a request the gateway sent to an agent (a server's relayed request) is not the client's.
    const sentRequest =
      event.kind === 'message' &&
      event.direction === 'send' &&
      event.messageKind === 'request' &&
      event.agent === undefined;
    const action = (id, text, onClick) => el('button', { type: 'button', id, className: 'secondary', text, onClick });
    const replay = sentRequest
      ? action('replay', t('replay'), () => {
          sendNote = undefined;
          vscode.postMessage({ type: 'replay', seq: event.seq });
        })
      : undefined;
    const edit = sentRequest
      ? action('edit-send', t('editSend'), () => {
          editing = { seq: event.seq, text: detailText(event) };
          sendNote = undefined;
          showDetail(event);
          document.getElementById('edit-text')?.focus();
        })
      : undefined;
    const pin = pins.has(event.seq)
      ? action('pin', t('unpin'), () => vscode.postMessage({ type: 'unpin', seq: event.seq }))
      : action('pin', t('pin'), () => vscode.postMessage({ type: 'pin', seq: event.seq }));
    const compare =
      compareFirst === undefined || compareFirst === event.seq
        ? action('compare', compareFirst === event.seq ? t('compareChosen', event.seq) : t('compareChoose'), () => {
            compareFirst = compareFirst === event.seq ? undefined : event.seq;
            showDetail(event);
          })
        : action('compare', t('compareWith', compareFirst), () => {
            vscode.postMessage({ type: 'compare', left: compareFirst, right: event.seq });
            compareFirst = undefined;
            showDetail(event);
          });
    const heading = el(
      'div',
      { className: 'detail-head' },
      el('strong', { text: headline(event) }),
      el('span', { className: 'detail-actions' }, replay, edit, pin, compare, goTo, copy),
    );
    /** @type {HTMLElement[]} */ const parts = [heading];
    if (sendNote && sendNote.seq === event.seq)
      parts.push(
        el('p', { id: 'send-note', className: sendNote.bad ? 'bad' : 'muted', role: 'alert', text: sendNote.text }),
      );
    if (editing && editing.seq === event.seq) parts.push(editor(event));
    if (event.kind === 'message' && event.truncated)
      parts.push(el('p', { className: 'muted', text: t('truncated', event.text.length, event.size) }));
    if (event.kind === 'http') parts.push(httpDetail(event));
    else
      parts.push(el('pre', { className: event.kind === 'message' && event.error ? 'json error' : 'json', text: body }));
    detail.replaceChildren(...parts);
  }

  /** Edit and Send: the request's JSON in a text area; the extension checks it and says why when it refuses. */
  function editor(event) {
    const area = el('textarea', {
      id: 'edit-text',
      className: 'edit',
      spellcheck: false,
      'aria-label': t('editLabel', event.seq),
      rows: 12,
    });
    area.value = editing?.text ?? '';
    area.addEventListener('input', () => {
      if (editing) editing.text = area.value;
    });
    const send = () => {
      sendNote = undefined;
      vscode.postMessage({ type: 'send', seq: event.seq, text: area.value });
    };
    area.addEventListener('keydown', (key) => {
      if (key.key === 'Enter' && (key.ctrlKey || key.metaKey)) {
        key.preventDefault();
        send();
      } else if (key.key === 'Escape') {
        editing = undefined;
        showDetail(event);
      }
    });
    return el(
      'div',
      { className: 'editor' },
      el('p', { className: 'muted', text: t('editHint') }),
      area,
      el(
        'div',
        { className: 'detail-actions' },
        el('button', { type: 'button', id: 'edit-send-go', text: t('send'), onClick: send }),
        el('button', {
          type: 'button',
          id: 'edit-cancel',
          className: 'secondary',
          text: t('cancel'),
          onClick: () => {
            editing = undefined;
            showDetail(event);
          },
        }),
      ),
    );
  }

  /** The pinned rows above the list, in row order; each is reachable with Tab and opens with Enter. */
  function drawPins() {
    pinnedStrip.hidden = pins.size === 0;
    const items = [...pins.values()].sort((a, b) => a.seq - b.seq);
    pinnedStrip.replaceChildren(
      el('div', { className: 'pinned-title muted', text: t('pinned') }),
      ...items.map((event) => {
        const item = el('div', {
          className: `row pinned-row${selectedSeq === event.seq ? ' selected' : ''}`,
          role: 'listitem',
          tabIndex: 0,
          title: t('rowNumber', event.seq),
        });
        item.dataset.seq = String(event.seq);
        item.dataset.method = event.method ?? '';
        const cell = (className, text) => item.append(el('span', { className: `cell ${className}`, text }));
        cell('seq', String(event.seq));
        cell('time', clock(event.time));
        if (event.kind === 'message') {
          cell(`dir ${event.direction}`, event.direction === 'send' ? '→' : '←');
          cell('method', event.method ?? '');
          cell('id', event.id === undefined ? '' : t('requestId', event.id));
        } else if (event.kind === 'http') {
          cell('method', event.method);
          cell('summary', event.url);
        } else cell('summary console', event.text);
        item.addEventListener('click', () => select(event.seq, true));
        item.addEventListener('keydown', (key) => {
          if (key.key === 'Enter' || key.key === ' ') {
            key.preventDefault();
            select(event.seq, true);
          }
        });
        return item;
      }),
    );
  }

  /** Redraws the detail of the selected row (after a pin, a send's outcome). */
  function refreshDetail() {
    if (selectedSeq === undefined) return;
    const event = events.find((candidate) => candidate.seq === selectedSeq) ?? pins.get(selectedSeq);
    if (event) showDetail(event);
  }

  function headline(event) {
    switch (event.kind) {
      case 'message': {
        const arrow = event.direction === 'send' ? `→ ${t('sent')}` : `← ${t('received')}`;
        const answer =
          event.relatedSeq !== undefined
            ? event.durationMs !== undefined
              ? t('answers', event.relatedId ?? event.id ?? '', event.relatedSeq)
              : relation(event)
            : '';
        return [
          t('rowNumber', event.seq),
          clock(event.time),
          arrow,
          event.messageKind,
          event.method ?? '',
          event.id === undefined ? '' : t('requestId', event.id),
          answer,
          replayMark(event),
          bytes(event.size),
          event.era ?? '',
          event.agent === undefined ? '' : agentOf(event),
        ]
          .filter(Boolean)
          .join('  ');
      }
      case 'http':
        return `${clock(event.time)}  ${event.method} ${event.status ?? ''} ${event.url}`;
      default:
        return clock(event.time);
    }
  }

  /** "replay of row 12" (or "edited from row 12") on a request the person sent again. */
  function replayMark(event) {
    if (event.replayOf === undefined) return '';
    return event.edited ? t('editedFrom', event.replayOf) : t('replayOf', event.replayOf);
  }

  /** "from agent X" for an agent's request through the gateway, "to agent X" for the gateway's answer. */
  function agentOf(event) {
    return event.direction === 'receive' ? t('fromAgent', event.agent) : t('toAgent', event.agent);
  }

  /** "about request id 7 (row 41)" for progress and cancellations; the row alone when the id is not known. */
  function relation(event) {
    return event.relatedId !== undefined
      ? t('relatesTo', event.relatedId, event.relatedSeq)
      : t('relatesToRow', event.relatedSeq);
  }

  function detailText(event) {
    switch (event.kind) {
      case 'message':
        if (event.truncated) return event.text;
        try {
          return JSON.stringify(JSON.parse(event.text), null, 2);
        } catch {
          return event.text;
        }
      case 'http': {
        const lines = [`${event.method} ${event.url}`, ...event.requestHeaders.map(headerText), ''];
        if (event.requestBody) lines.push(event.requestBody, '');
        if (event.failure !== undefined) lines.push(t('failed', event.failure));
        else lines.push(`${event.status} ${event.statusText ?? ''}`.trim(), ...event.responseHeaders.map(headerText));
        return lines.join('\n');
      }
      default:
        return event.text;
    }
  }

  const headerText = (header) =>
    `${header.name}: ${header.value}${header.decoded !== undefined ? `   (${t('decoded', header.decoded)})` : ''}`;

  function httpDetail(event) {
    const section = el('div', { className: 'http' });
    const table = (title, headers) => {
      section.append(el('h2', { text: title }));
      const list = el('table', { className: 'headers' });
      for (const header of headers) {
        const value = el('td', { text: header.value });
        if (header.decoded !== undefined)
          value.append(el('div', { className: 'muted', text: t('decoded', header.decoded) }));
        list.append(el('tr', {}, el('th', { text: header.name }), value));
      }
      section.append(list);
    };
    section.append(el('p', { text: `${t('url')}: ${event.url}` }));
    if (event.failure !== undefined) section.append(el('p', { className: 'bad', text: t('failed', event.failure) }));
    else
      section.append(
        el('p', {
          className: (event.status ?? 0) >= 400 ? 'bad' : '',
          text: `${t('status')}: ${event.status} ${event.statusText ?? ''}`,
        }),
      );
    if (event.location) section.append(el('p', { text: t('redirect', event.location) }));
    table(t('requestHeaders'), event.requestHeaders);
    if (event.requestBody) section.append(el('h2', { text: t('requestBody') }), el('pre', { text: event.requestBody }));
    if (event.failure === undefined) table(t('responseHeaders'), event.responseHeaders);
    return section;
  }

  function updateStatus() {
    const total = events.filter((event) => event.kind === tab).length;
    const parts = [t('shown', shown.length, total)];
    if (paused) parts.push(t('pausedCount', pausedEvents.length));
    if (dropped > 0) parts.push(t('dropped', dropped));
    status.textContent = parts.join(' · ');
    viewport.dataset.shown = String(shown.length);
    viewport.dataset.total = String(events.length);
  }

  const pad = (value, width) => String(value).padStart(width, '0');
  function clock(time) {
    const date = new Date(time);
    return `${pad(date.getHours(), 2)}:${pad(date.getMinutes(), 2)}:${pad(date.getSeconds(), 2)}.${pad(date.getMilliseconds(), 3)}`;
  }

  function bytes(size) {
    if (size === undefined) return '';
    if (size < 1024) return `${size} B`;
    if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
    return `${(size / 1024 / 1024).toFixed(1)} MB`;
  }

  const utf8 = new TextDecoder();

  window.addEventListener('message', (message) => {
    const data = message.data;
    if (!data || typeof data !== 'object') return;
    // A batch of events comes as the UTF-8 bytes of its JSON, { events, dropped } (see encodeEventBatch).
    const batch = ArrayBuffer.isView(data.json) ? JSON.parse(utf8.decode(data.json)) : {};
    switch (data.type) {
      case 'reset':
        events = [];
        answers = new Map();
        shown = [];
        pausedEvents = [];
        dropped = batch.dropped ?? 0;
        add(batch.events ?? []);
        return;
      case 'pins':
        pins = new Map((batch.events ?? []).map((event) => [event.seq, event]));
        drawPins();
        refreshDetail();
        return;
      case 'sendResult': {
        const outcome = data.outcome ?? {};
        const text =
          outcome.kind === 'sent'
            ? t('sentAgain')
            : outcome.kind === 'answered-error'
              ? t('answeredError')
              : outcome.kind === 'declined'
                ? t('declined')
                : String(outcome.reason ?? '');
        sendNote = { seq: Number(data.seq), text, bad: outcome.kind === 'refused' };
        if (outcome.kind === 'sent' || outcome.kind === 'answered-error') editing = undefined;
        refreshDetail();
        return;
      }
      case 'append':
        dropped = Math.max(dropped, batch.dropped ?? 0);
        if (paused) {
          pausedEvents.push(...(batch.events ?? []));
          updateStatus();
        } else add(batch.events ?? []);
        return;
      default:
        return;
    }
  });

  setTab('message');
  vscode.postMessage({ type: 'ready' });
})();
