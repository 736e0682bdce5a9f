// Result view: links and buttons post messages; the extension does the work (reading through the server).
(function () {
  const vscode = acquireVsCodeApi();
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target.closest('[data-action]') : null;
    if (!target) return;
    event.preventDefault();
    const action = target.getAttribute('data-action');
    if (action === 'readResource') vscode.postMessage({ type: 'readResource', uri: target.getAttribute('data-uri') });
    else if (action === 'openMarkdown') vscode.postMessage({ type: 'openMarkdown' });
  });
})();
