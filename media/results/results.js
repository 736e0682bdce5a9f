// Result area (the result tab, and the bottom of the tool form): links and buttons post messages; the extension
// does the work (reading through the server). The extension sends each new body (already escaped HTML, built by
// the same code as the first page) once this page has said `ready`, and the page answers `rendered` once a result
// is on screen.
(function () {
  // The tool form loads this script after its own; VS Code hands out one API handle per page.
  const vscode = window.mcpVsCodeApi || (window.mcpVsCodeApi = acquireVsCodeApi());
  const stateElement = document.getElementById('result-state');
  /** @type {{ key?: string, sequence?: number }} what the page's HTML already shows */
  const initial = stateElement ? JSON.parse(stateElement.textContent || '{}') : {};
  const main = document.getElementById('result');
  function rendered(sequence) {
    // After the next frame, so "rendered" means the result is on screen, not only in the DOM. Chromium pauses
    // animation frames in a cross-origin frame it considers hidden (a webview still loading can be one), so a
    // timer answers if no frame comes.
    let sent = false;
    const send = () => {
      if (sent) return;
      sent = true;
      vscode.postMessage({ type: 'rendered', sequence });
    };
    requestAnimationFrame(send);
    setTimeout(send, 100);
  }
  function replace(html) {
    if (!main) return;
    main.innerHTML = html;
    main.hidden = false;
    // In the form the result sits under the fields: bring its top into view without moving the keyboard focus.
    if (main.dataset.place === 'form') main.scrollIntoView({ block: 'nearest' });
    else window.scrollTo(0, 0);
  }
  /**
   * A long text's next chunk: moved from its <template> (parsed, never laid out) into the <pre>, so the first screen
   * drew at once and each "Show more" lays out only what it adds.
   * @param {Element} button
   */
  function showMore(button) {
    const box = button.closest('.long-text');
    const pre = box && box.querySelector('pre');
    const template = box && /** @type {HTMLTemplateElement | null} */ (box.querySelector('template'));
    if (!box || !pre || !template) return;
    const rest = template.content.textContent || '';
    const chunk = Number(box.getAttribute('data-chunk')) || 1000000;
    pre.append(rest.slice(0, chunk));
    template.content.textContent = rest.slice(chunk);
    const total = Number(box.getAttribute('data-total'));
    const shown = Math.min(total, Number(box.getAttribute('data-shown')) + chunk);
    box.setAttribute('data-shown', String(shown));
    if (shown >= total || rest.length <= chunk) {
      button.remove();
      return;
    }
    button.textContent = (box.getAttribute('data-label') || '')
      .replace('{0}', shown.toLocaleString())
      .replace('{1}', total.toLocaleString());
  }
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target.closest('[data-action]') : null;
    if (!target) return;
    event.preventDefault();
    const action = target.getAttribute('data-action');
    if (action === 'showMore') {
      showMore(target);
      return;
    }
    if (action === 'readResource') vscode.postMessage({ type: 'readResource', uri: target.getAttribute('data-uri') });
    else if (action === 'openMarkdown' || action === 'openTab' || action === 'cancelCall')
      vscode.postMessage({ type: action });
  });
  window.addEventListener('message', (event) => {
    const message = event.data;
    if (!message || typeof message.type !== 'string') return;
    if ((message.type === 'show' || message.type === 'status') && typeof message.html === 'string') {
      replace(message.html);
      if (message.type === 'show' && typeof message.sequence === 'number') rendered(message.sequence);
    } else if (message.type === 'progress' && typeof message.text === 'string') {
      const line = document.getElementById('call-progress');
      if (line) line.textContent = message.text;
    }
  });
  if (typeof initial.sequence === 'number') rendered(initial.sequence);
  // The listener is attached: from now on a posted body is drawn. A page rebuilt later says so again.
  vscode.postMessage({ type: 'ready', showing: initial.key });
})();
