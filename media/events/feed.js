// @ts-check
// The live feed of one Events subscription: rows come from the extension ({type:'update'}: new rows, counters, status)
// already escaped and capped (src/workbench/events/feedModel.ts); they are set as text only, never as HTML, and only
// the last `limit` rows stay in the page. Unsubscribe posts back.
(function () {
  const vscode = acquireVsCodeApi();
  const state = JSON.parse(document.getElementById('initial-state')?.textContent || '{}');
  const labels = state.labels || {};
  const limit = Number(state.limit) || 200;
  const t = (key, ...args) => String(labels[key] ?? key).replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)] ?? ''));
  const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const rows = byId('rows');
  const status = byId('status');
  const stats = byId('stats');
  const empty = byId('empty');
  const unsubscribe = /** @type {HTMLButtonElement} */ (byId('unsubscribe'));

  unsubscribe.addEventListener('click', () => {
    unsubscribe.disabled = true;
    vscode.postMessage({ type: 'unsubscribe' });
  });

  /** @param {string} tag @param {string} text @param {string} [cls] */
  function cell(tag, text, cls) {
    const element = document.createElement(tag);
    element.textContent = text;
    if (cls) element.className = cls;
    return element;
  }

  /** @param {{seq:number, kind:string, time:string, id:string, text:string, mark:string, detail:string}} row */
  function draw(row) {
    const tr = document.createElement('tr');
    tr.className = `row-${row.kind}`;
    tr.dataset.seq = String(row.seq);
    tr.tabIndex = 0;
    tr.appendChild(cell('td', row.time, 'time'));
    if (row.kind === 'event') {
      tr.appendChild(cell('td', row.id, 'id'));
      const payload = document.createElement('td');
      payload.appendChild(cell('pre', row.text));
      tr.appendChild(payload);
      const verdict = cell('td', t(row.mark), row.mark === 'invalid' ? 'bad' : row.mark === 'valid' ? 'ok' : 'muted');
      if (row.detail) verdict.title = row.detail;
      if (row.detail && row.mark === 'invalid') verdict.appendChild(cell('div', row.detail, 'detail'));
      tr.appendChild(verdict);
    } else {
      const text =
        row.kind === 'gap'
          ? t(row.mark, row.detail)
          : row.kind === 'status'
            ? t('status', t(row.mark)) + (row.text ? ` — ${row.text}` : '')
            : `${t('refused')}: ${row.text}`;
      tr.appendChild(cell('td', row.id, 'id'));
      const note = /** @type {HTMLTableCellElement} */ (
        cell('td', text, row.kind === 'gap' || row.kind === 'refused' ? 'mark bad' : 'mark muted')
      );
      note.colSpan = 2;
      tr.appendChild(note);
    }
    rows.appendChild(tr);
  }

  let last = 0;
  /** @param {{rows: any[], stats?: Record<string, number>, status: string, ended: boolean}} update */
  function apply(update) {
    for (const row of update.rows) {
      if (row.seq <= last) continue;
      last = row.seq;
      draw(row);
    }
    while (rows.childElementCount > limit) rows.firstElementChild?.remove();
    empty.hidden = rows.childElementCount > 0;
    const s = update.stats;
    if (s) stats.textContent = t('stats', s.delivered, s.duplicates, s.gaps, s.refused, s.floodDropped);
    status.textContent = update.ended ? t('ended') : t(update.status);
    unsubscribe.disabled = update.ended;
  }

  if (state.initial) apply(state.initial);
  window.addEventListener('message', (event) => {
    const message = event.data;
    if (message && message.type === 'update') apply(message);
  });
})();
