/* exported mcpAppFrameGuard */
// The WebRTC guard of an MCP App's frame. Chromium's CSP does not cover RTCPeerConnection (its `webrtc` directive is
// not implemented: "Unrecognized Content-Security-Policy directive"), so an app could send STUN/TURN packets to any
// host however narrow its declared network. No sandbox flag or Permissions-Policy feature turns WebRTC off either.
// So this function runs first in every document of the app's frame and removes WebRTC there:
//   - the app's document: appHost.js puts `(mcpAppFrameGuard)()` as the first script of the app's srcdoc (after the
//     app's CSP), so it runs before any of the app's code, and it deletes every `RTC…`/`webkitRTC…` interface;
//   - documents the app makes: a nested about:blank frame of a sandboxed frame has an opaque origin of its own, so the
//     app cannot reach into it (it runs no script of the app's); a popup is refused (no `allow-popups`); `data:` and
//     `blob:` frames are refused by the CSP's `frame-src`. What is left is content the app hands over as a string (a
//     `srcdoc`, a `javascript:` URL) or as TrustedHTML. The frame's CSP requires Trusted Types, so every such string
//     passes the default policy made here: a srcdoc gets this guard as its first script (the same rule, one level
//     down), HTML with `<iframe srcdoc>` in it gets each srcdoc guarded, and a `javascript:` navigation (which would
//     start a new document without the guard) is refused. The app's own policies are kept working (libraries make
//     them), but what they mint passes the same rewrite, and a srcdoc set from TrustedHTML is guarded at the setter.
// Called with a string (the page, appHost.js), it returns that document with `head` (the app's CSP meta tag) and the
// guard in it, and installs nothing.
/**
 * @param {string} [documentHtml]
 * @param {string} [head]
 * @returns {string | undefined}
 */
function mcpAppFrameGuard(documentHtml, head) {
  'use strict';
  const source = `(${String(mcpAppFrameGuard)})()`.replace(/<\/(script)/gi, '<\\/$1');
  const tag = `<script>${source}</` + 'script>';
  /** @type {(html: string) => any} */
  let trusted = (html) => html;
  // Taken before this guard replaces it below: the guard's own writes are already guarded.
  const setAttribute = Element.prototype.setAttribute;

  /** The document with the guard as its first script: after a doctype (so the app keeps its mode), before the rest. */
  function guardDocument(html, first = '') {
    const nested = /srcdoc/i.test(html) ? rewriteDocument(html) : html;
    const lead = /^(?:\s|<!--[\s\S]*?-->)*(?:<!doctype[^>]*>)?/i.exec(nested);
    const at = lead ? lead[0].length : 0;
    return `${nested.slice(0, at)}${first}${tag}${nested.slice(at)}`;
  }

  /** Guards each `srcdoc` under root (template contents included). */
  function guardFrames(root) {
    for (const frame of root.querySelectorAll('iframe[srcdoc]'))
      setAttribute.call(frame, 'srcdoc', trusted(guardDocument(frame.getAttribute('srcdoc') || '')));
    for (const template of root.querySelectorAll('template')) guardFrames(template.content);
  }

  /** A whole document whose markup holds frames with srcdoc. */
  function rewriteDocument(html) {
    const parsed = new DOMParser().parseFromString(trusted(html), 'text/html');
    guardFrames(parsed);
    return `${parsed.doctype ? '<!DOCTYPE html>' : ''}${parsed.documentElement.outerHTML}`;
  }

  /** A fragment (innerHTML and the like): rewritten only when it can hold a srcdoc (an attribute name has no escapes). */
  function rewriteFragment(html) {
    if (!/srcdoc/i.test(html)) return html;
    const template = document.createElement('template');
    template.innerHTML = trusted(html);
    guardFrames(template.content);
    return template.innerHTML;
  }

  if (typeof documentHtml === 'string') return guardDocument(documentHtml, head);

  for (const name of Object.getOwnPropertyNames(window))
    if (/^(webkit)?RTC/.test(name)) delete (/** @type {any} */ (window)[name]);

  const factory = /** @type {any} */ (window).trustedTypes;
  if (!factory) return undefined;
  const factoryPrototype = Object.getPrototypeOf(factory);
  const createPolicy = factoryPrototype.createPolicy;
  const own = createPolicy.call(factory, 'mcp-app-guard', {
    createHTML: (/** @type {string} */ html) => html,
    createScript: (/** @type {string} */ script) => script,
    createScriptURL: (/** @type {string} */ url) => url,
  });
  trusted = (html) => own.createHTML(html);
  createPolicy.call(factory, 'default', {
    createHTML: (/** @type {string} */ html, /** @type {unknown} */ _type, /** @type {string} */ sink) =>
      sink === 'HTMLIFrameElement srcdoc' ? guardDocument(html) : rewriteFragment(html),
    // A javascript: navigation replaces the document with one that has no guard.
    createScript: (/** @type {string} */ script, /** @type {unknown} */ _type, /** @type {string} */ sink) =>
      sink === 'Location href' ? null : script,
    createScriptURL: (/** @type {string} */ url) => url,
  });
  // The app's policies: the CSP allows only the two above, so each is a stand-in minting through ours.
  Object.defineProperty(factoryPrototype, 'createPolicy', {
    value: function createAppPolicy(/** @type {string} */ name, /** @type {any} */ rules) {
      const policy = rules || {};
      const call = (/** @type {string} */ kind, /** @type {any[]} */ args) => {
        if (typeof policy[kind] !== 'function')
          throw new TypeError(`Policy ${name}'s TrustedTypePolicyOptions did not specify a '${kind}' member.`);
        const value = policy[kind](...args);
        return value === null || value === undefined ? value : String(value);
      };
      return Object.freeze({
        name: String(name),
        createHTML: (/** @type {any[]} */ ...args) => {
          const html = call('createHTML', args);
          return html === null || html === undefined ? html : own.createHTML(rewriteFragment(html));
        },
        createScript: (/** @type {any[]} */ ...args) => {
          const script = call('createScript', args);
          return script === null || script === undefined ? script : own.createScript(script);
        },
        createScriptURL: (/** @type {any[]} */ ...args) => {
          const url = call('createScriptURL', args);
          return url === null || url === undefined ? url : own.createScriptURL(url);
        },
      });
    },
  });

  // TrustedHTML passes a srcdoc sink without the default policy: guard it where it is set.
  const isSrcdoc = (/** @type {Element} */ element, /** @type {unknown} */ name) =>
    element instanceof HTMLIFrameElement && String(name).toLowerCase() === 'srcdoc';
  const frameSrcdoc = /** @type {PropertyDescriptor} */ (
    Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'srcdoc')
  );
  Object.defineProperty(HTMLIFrameElement.prototype, 'srcdoc', {
    ...frameSrcdoc,
    set(/** @type {unknown} */ value) {
      frameSrcdoc.set?.call(this, typeof value === 'string' ? value : trusted(guardDocument(String(value))));
    },
  });
  Element.prototype.setAttribute = function (name, value) {
    const guarded = isSrcdoc(this, name) && typeof value !== 'string' ? trusted(guardDocument(String(value))) : value;
    return setAttribute.call(this, name, guarded);
  };
  const setAttributeNS = Element.prototype.setAttributeNS;
  Element.prototype.setAttributeNS = function (namespace, name, value) {
    const guarded =
      !namespace && isSrcdoc(this, name) && typeof value !== 'string' ? trusted(guardDocument(String(value))) : value;
    return setAttributeNS.call(this, namespace, name, guarded);
  };
  return undefined;
}
