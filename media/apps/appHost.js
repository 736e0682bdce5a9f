/* global mcpAppFrameGuard */
// The page that hosts one MCP App: the app's HTML runs in a sandboxed frame (scripts only, never same-origin, so
// it cannot reach this page, its DOM or the VS Code API), and this script relays the app's JSON-RPC messages to
// the extension. Only messages from that frame's window (origin "null", the sandbox's opaque origin) are relayed,
// each checked for shape and size and counted; the extension checks them again and answers. The app never sees
// the extension's other messages: only `toApp` payloads are posted into the frame.
(function () {
  const vscode = acquireVsCodeApi();
  const stateElement = document.getElementById('app-state');
  /** @type {{ html: string, csp: string, allow: string, sandbox: string, styleSources: Record<string, string>, maxMessageBytes: number, perSecond: number, labels: Record<string, string> }} */
  const state = JSON.parse(stateElement ? stateElement.textContent || '{}' : '{}');
  const holder = document.getElementById('app-holder');
  const note = document.getElementById('app-note');
  const context = document.getElementById('app-context');
  /** @type {HTMLIFrameElement | undefined} */
  let frame;
  let stopped = false;
  const stamps = [];

  function themeKind() {
    const classes = document.body.classList;
    if (classes.contains('vscode-high-contrast-light')) return 'high-contrast-light';
    if (classes.contains('vscode-high-contrast')) return 'high-contrast';
    return classes.contains('vscode-light') ? 'light' : 'dark';
  }

  /** The app's host style variables, resolved from this page's VS Code theme variables (the frame cannot see them). */
  function styles() {
    const computed = getComputedStyle(document.documentElement);
    /** @type {Record<string, string>} */
    const resolved = {};
    for (const [appVariable, source] of Object.entries(state.styleSources || {})) {
      const value = computed.getPropertyValue(source).trim();
      if (value) resolved[appVariable] = value;
    }
    return resolved;
  }

  function surroundings() {
    vscode.postMessage({
      type: 'surroundings',
      theme: themeKind(),
      styles: styles(),
      width: Math.round(holder ? holder.clientWidth : window.innerWidth),
      height: Math.round(window.innerHeight),
    });
  }

  function stop(reason) {
    if (stopped) return;
    stopped = true;
    if (frame) frame.remove();
    frame = undefined;
    if (note) {
      note.textContent = reason;
      note.hidden = false;
    }
  }

  /** A plain JSON-RPC object of bounded size; anything else never leaves this page. */
  function acceptable(data) {
    if (typeof data !== 'object' || data === null || Array.isArray(data) || data.jsonrpc !== '2.0') return false;
    try {
      return JSON.stringify(data).length <= state.maxMessageBytes;
    } catch {
      return false;
    }
  }

  window.addEventListener('message', (event) => {
    if (frame && event.source === frame.contentWindow) {
      // From the app: its sandbox has the opaque origin "null"; anything else is not the app's frame.
      if (event.origin !== 'null' || stopped) return;
      const now = Date.now();
      while (stamps.length > 0 && now - stamps[0] >= 1000) stamps.shift();
      stamps.push(now);
      if (stamps.length > state.perSecond) {
        stop(state.labels.flooded);
        vscode.postMessage({ type: 'flooded' });
        return;
      }
      if (!acceptable(event.data)) {
        vscode.postMessage({ type: 'dropped' });
        return;
      }
      // Whether the person just acted in the app: the browser's transient user activation, which a click or a key in
      // the app's frame gives to this page too (activation reaches every ancestor frame), while the app's frame still
      // holds the focus. Events inside the frame cannot be seen from here, and anything the frame says about them
      // could be the app's own word; this the app cannot forge. The extension lets only such a recent gesture make
      // the app's display-mode switch take the focus.
      const activation = /** @type {{ userActivation?: { isActive: boolean } }} */ (navigator).userActivation;
      const gesture = Boolean(activation && activation.isActive) && document.hasFocus();
      vscode.postMessage({ type: 'fromApp', message: event.data, gesture });
      return;
    }
    // From the extension: VS Code's webview host (the frame around this page) relays them with
    // `contentWindow.postMessage(data, window.origin)`. It deletes `window.parent` here before this script runs, so
    // the sender cannot be compared; its origin is this page's own, which the app (sandboxed: origin "null") and any
    // frame it may hold (declared other origins) cannot have. A test for a null source dropped every message, and the
    // app never got its ui/initialize answer.
    if (event.origin !== window.origin) return;
    const message = event.data;
    if (typeof message !== 'object' || message === null) return;
    switch (message.type) {
      case 'toApp':
        if (frame && frame.contentWindow && !stopped) frame.contentWindow.postMessage(message.message, '*');
        return;
      case 'resize':
        if (frame && typeof message.height === 'number' && document.body.dataset.mode !== 'fullscreen')
          frame.style.height = `${Math.max(80, Math.min(message.height, 4000))}px`;
        return;
      case 'mode':
        document.body.dataset.mode = message.mode === 'fullscreen' ? 'fullscreen' : 'inline';
        return;
      case 'context':
        if (context) {
          context.textContent = message.text || '';
          context.hidden = !message.text;
        }
        return;
      case 'stopped':
        stop(String(message.reason || state.labels.stopped));
        return;
      default:
        return;
    }
  });

  document.addEventListener('click', (event) => {
    const target = /** @type {HTMLElement | null} */ (
      event.target instanceof HTMLElement ? event.target.closest('[data-action]') : null
    );
    if (target) vscode.postMessage({ type: 'action', action: target.dataset.action });
  });
  // The page draws the header's buttons disabled: until the listener above exists, a click on them would be lost.
  for (const button of document.querySelectorAll('#app-header button[data-action]'))
    /** @type {HTMLButtonElement} */ (button).disabled = false;

  // Theme switches change the body's class; resizes change the container: the extension tells the app what changed.
  new MutationObserver(() => requestAnimationFrame(surroundings)).observe(document.body, {
    attributes: true,
    attributeFilter: ['class'],
  });
  let resizeTimer;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(surroundings, 100);
  });

  surroundings();
  frame = document.createElement('iframe');
  frame.id = 'app-frame';
  frame.title = state.labels.frameTitle;
  frame.setAttribute('sandbox', state.sandbox);
  if (state.allow) frame.setAttribute('allow', state.allow);
  frame.setAttribute('referrerpolicy', 'no-referrer');
  // The app's own policy, then the WebRTC guard (appFrameGuard.js) as the document's first script, before anything
  // of the app's: the frame enforces the policy on top of this page's (which it inherits). Both go where the guard
  // goes (after a leading doctype), not after a `<head>` that the app's markup may put after a script of its own.
  const meta = `<meta http-equiv="Content-Security-Policy" content="${state.csp.replace(/"/g, '&quot;')}">`;
  frame.srcdoc = mcpAppFrameGuard(state.html, meta) || '';
  frame.addEventListener('load', () => vscode.postMessage({ type: 'loaded' }), { once: true });
  if (holder) holder.appendChild(frame);
})();
