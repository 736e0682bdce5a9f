// @ts-check
// The load test panel's webview: draws the run's snapshots ({type:'snapshot'} as they come, {type:'snapshots'} on
// load) as two SVG charts (latency p50/p99, throughput) and shows the end ({type:'done'|'failed'}). Every string comes
// translated from the extension; text is set as text only. Cancel, Open Report and Save Report… post back.
(function () {
  const vscode = acquireVsCodeApi();
  const state = JSON.parse(document.getElementById('initial-state')?.textContent || '{}');
  const labels = state.labels || {};
  const SVG = 'http://www.w3.org/2000/svg';
  /** The most points drawn per line: the extension keeps the whole series, the chart its recent part. */
  const MAX_DRAWN = 600;

  /** @type {{atMs:number, p50Ms:number|null, p99Ms:number|null, throughputPerS:number, requests:number, errors:number, final:boolean}[]} */
  const points = [];
  let ended = false;

  const t = (key, ...args) => String(labels[key] ?? key).replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)] ?? ''));
  const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const status = byId('status');
  const cancel = /** @type {HTMLButtonElement} */ (byId('cancel'));
  const openReport = /** @type {HTMLButtonElement} */ (byId('open-report'));
  const saveReport = /** @type {HTMLButtonElement} */ (byId('save-report'));
  const summary = byId('summary');

  cancel.addEventListener('click', () => {
    if (ended) return;
    cancel.disabled = true;
    status.textContent = t('cancelling');
    vscode.postMessage({ type: 'cancel' });
  });
  openReport.addEventListener('click', () => vscode.postMessage({ type: 'openReport' }));
  saveReport.addEventListener('click', () => vscode.postMessage({ type: 'saveReport' }));

  function round(value) {
    return value === null || value === undefined ? '–' : value >= 100 ? value.toFixed(0) : value.toFixed(2);
  }

  /**
   * Draws `series` (each a list of [x, y] and a class) into an SVG of the given size: axes, the maximum on the left,
   * a polyline and a circle per point.
   * @param {SVGSVGElement} svg @param {number} width @param {number} height
   * @param {{cls:string, values:[number, number|null][]}[]} series @param {string} unit
   */
  function draw(svg, width, height, series, unit) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const pad = { left: 44, right: 8, top: 10, bottom: 20 };
    const xs = series.flatMap((line) => line.values.map(([x]) => x));
    const ys = series.flatMap((line) => line.values.map(([, y]) => (y === null ? 0 : y)));
    const xMin = xs.length ? Math.min(...xs) : 0;
    const xMax = xs.length ? Math.max(...xs, xMin + 1) : 1;
    const yMax = Math.max(1e-3, ...ys) * 1.1;
    const sx = (x) => pad.left + ((x - xMin) / (xMax - xMin)) * (width - pad.left - pad.right);
    const sy = (y) => height - pad.bottom - (y / yMax) * (height - pad.top - pad.bottom);
    const add = (tag, attrs, text) => {
      const node = document.createElementNS(SVG, tag);
      for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
      if (text !== undefined) node.textContent = text;
      svg.appendChild(node);
      return node;
    };
    add('line', { class: 'axis', x1: pad.left, y1: sy(0), x2: width - pad.right, y2: sy(0) });
    add('line', { class: 'axis', x1: pad.left, y1: pad.top, x2: pad.left, y2: sy(0) });
    add('text', { class: 'tick', x: 2, y: pad.top + 10 }, `${round(yMax / 1.1)} ${unit}`);
    add('text', { class: 'tick', x: 2, y: sy(0) }, `0`);
    add(
      'text',
      { class: 'tick', x: width - pad.right - 40, y: height - 4 },
      `${(xMax / 1000).toFixed(1)} ${t('seconds')}`,
    );
    for (const line of series) {
      const drawn = line.values.filter(([, y]) => y !== null);
      if (drawn.length === 0) continue;
      add('polyline', {
        class: `line ${line.cls}`,
        points: drawn.map(([x, y]) => `${sx(x).toFixed(1)},${sy(/** @type {number} */ (y)).toFixed(1)}`).join(' '),
      });
      for (const [x, y] of drawn)
        add('circle', {
          class: `point ${line.cls}`,
          cx: sx(x).toFixed(1),
          cy: sy(/** @type {number} */ (y)).toFixed(1),
          r: 2,
        });
    }
  }

  function render() {
    const recent = points.slice(-MAX_DRAWN);
    const latency = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (byId('latency-chart')));
    const throughput = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (byId('throughput-chart')));
    draw(
      latency,
      600,
      180,
      [
        { cls: 'p50', values: recent.map((p) => [p.atMs, p.p50Ms]) },
        { cls: 'p99', values: recent.map((p) => [p.atMs, p.p99Ms]) },
      ],
      t('ms'),
    );
    draw(
      throughput,
      600,
      140,
      [{ cls: 'rate', values: recent.map((p) => [p.atMs, p.throughputPerS]) }],
      t('perSecond'),
    );
    const last = points[points.length - 1];
    if (last) {
      const live = t(
        'live',
        last.requests,
        last.errors,
        round(last.throughputPerS),
        round(last.p50Ms),
        round(last.p99Ms),
      );
      latency.setAttribute('aria-label', live);
      if (!ended) status.textContent = live;
    }
  }

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (!message || typeof message !== 'object') return;
    switch (message.type) {
      case 'snapshot':
        points.push(message.snapshot);
        render();
        break;
      case 'snapshots':
        points.splice(0, points.length, ...message.snapshots);
        render();
        break;
      case 'done':
        ended = true;
        // A run that ended has nothing to cancel: the button goes (a disabled one looks the same in every theme).
        cancel.hidden = true;
        status.textContent = message.interrupted
          ? t('stopped')
          : message.file
            ? t('done', message.file)
            : t('doneUnsaved');
        summary.textContent = message.summary;
        summary.hidden = false;
        openReport.hidden = !message.file;
        saveReport.hidden = false;
        render();
        break;
      case 'failed':
        ended = true;
        cancel.hidden = true;
        status.textContent = t('failed', message.message);
        break;
    }
  });
  vscode.postMessage({ type: 'ready' });
})();
