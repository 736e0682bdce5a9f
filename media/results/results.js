// Result view: links and buttons post messages; the extension does the work (reading through the server).
// The extension reuses this page for the tool's next result: it posts the new body (already escaped HTML, built by
// the same code as the first page) and the page answers "rendered" once it is drawn.
(function () {
  const vscode = acquireVsCodeApi();
  const stateElement = document.getElementById('initial-state');
  const initial = stateElement ? JSON.parse(stateElement.textContent || '{}') : {};
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
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target.closest('[data-action]') : null;
    if (!target) return;
    event.preventDefault();
    const action = target.getAttribute('data-action');
    if (action === 'readResource') vscode.postMessage({ type: 'readResource', uri: target.getAttribute('data-uri') });
    else if (action === 'openMarkdown') vscode.postMessage({ type: 'openMarkdown' });
  });
  window.addEventListener('message', (event) => {
    const message = event.data;
    if (!message || message.type !== 'show' || typeof message.html !== 'string') return;
    const main = document.getElementById('result');
    if (!main) return;
    main.innerHTML = message.html;
    window.scrollTo(0, 0);
    rendered(message.sequence);
  });
  if (typeof initial.sequence === 'number') rendered(initial.sequence);
})();
