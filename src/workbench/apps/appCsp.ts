import type { UiCsp, UiPermission, UiResourceMeta } from '../../protocol/extensions/apps';

/**
 * The Content-Security-Policy of an app document, from its `_meta.ui.csp`, deny-by-default as the spec says: only
 * declared origins load, and each declared entry must be an origin (scheme, host with an optional leading `*.`,
 * optional port). Keywords, schemes alone, bare `*`, paths, spaces or semicolons are refused: they would widen or
 * rewrite the policy. Plain http and ws are accepted only for loopback hosts (a server author's dev setup).
 */
export interface AppCsp {
  /** The policy, as one meta tag value (the page's, which the app's frame inherits). */
  readonly policy: string;
  /**
   * The policy of the app's own document (its meta tag): `policy` plus Trusted Types, which the WebRTC guard
   * (media/apps/appFrameGuard.js) needs to see every string that becomes a document or a `javascript:` navigation. Not
   * the page's: the page sets the frame's srcdoc from a string.
   */
  readonly framePolicy: string;
  /** The entries that were accepted, per directive group. */
  readonly accepted: UiCsp;
  /** Entries refused, each with the reason (shown with the app). */
  readonly refused: readonly { readonly entry: string; readonly reason: string }[];
}

const ORIGIN = /^(https|wss|http|ws):\/\/(\*\.)?([a-z0-9-]+(\.[a-z0-9-]+)*)(:(\d{1,5}|\*))?\/?$/i;
const LOOPBACK = new Set(['localhost', '127.0.0.1']);

function checkOrigin(entry: string): string | undefined {
  const match = ORIGIN.exec(entry);
  if (!match) return 'not an origin (scheme://host[:port])';
  const scheme = match[1]!.toLowerCase();
  if ((scheme === 'http' || scheme === 'ws') && !LOOPBACK.has(match[3]!.toLowerCase()))
    return 'plain http/ws only for localhost';
  return undefined;
}

function accept(entries: readonly string[], refused: { entry: string; reason: string }[]): string[] {
  const accepted: string[] = [];
  for (const entry of entries) {
    const reason = checkOrigin(entry);
    if (reason) refused.push({ entry, reason });
    else if (!accepted.includes(entry.replace(/\/$/, ''))) accepted.push(entry.replace(/\/$/, ''));
  }
  return accepted;
}

const sources = (fallback: string, domains: readonly string[]): string =>
  domains.length > 0 ? `${fallback === "'none'" ? '' : `${fallback} `}${domains.join(' ')}`.trim() : fallback;

export function appCsp(csp: UiCsp): AppCsp {
  const refused: { entry: string; reason: string }[] = [];
  const accepted: UiCsp = {
    connectDomains: accept(csp.connectDomains, refused),
    resourceDomains: accept(csp.resourceDomains, refused),
    frameDomains: accept(csp.frameDomains, refused),
    baseUriDomains: accept(csp.baseUriDomains, refused),
  };
  const resources = accepted.resourceDomains;
  const policy = [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources.join(' ')}`.trim(),
    `style-src 'unsafe-inline' ${resources.join(' ')}`.trim(),
    `img-src data: blob: ${resources.join(' ')}`.trim(),
    `font-src data: ${resources.join(' ')}`.trim(),
    `media-src data: blob: ${resources.join(' ')}`.trim(),
    `connect-src ${sources("'none'", accepted.connectDomains)}`,
    `frame-src ${sources("'none'", accepted.frameDomains)}`,
    `base-uri ${sources("'none'", accepted.baseUriDomains)}`,
    "object-src 'none'",
    "form-action 'none'",
  ].join('; ');
  // Only the guard's two policies may exist; the app's own createPolicy calls get stand-ins that mint through them.
  const framePolicy = `${policy}; require-trusted-types-for 'script'; trusted-types mcp-app-guard default`;
  return { policy, framePolicy, accepted, refused };
}

/** Permission-Policy feature names of the spec's permissions. */
const FEATURE: Record<UiPermission, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

export interface AppPermissions {
  /** The frame's `allow` attribute value ('' when nothing is granted). */
  readonly allow: string;
  readonly granted: readonly UiPermission[];
  /** Asked for, but the host's own frame cannot delegate them (VS Code webviews hold no camera, microphone or geolocation). */
  readonly notGrantable: readonly UiPermission[];
}

/** The permissions a frame can pass on: only those the host frame itself holds. */
export function appPermissions(requested: readonly UiPermission[], grantable: readonly UiPermission[]): AppPermissions {
  const granted = requested.filter((permission) => grantable.includes(permission));
  return {
    allow: granted.map((permission) => FEATURE[permission]).join('; '),
    granted,
    notGrantable: requested.filter((permission) => !grantable.includes(permission)),
  };
}

/** What VS Code's webview frame is allowed to delegate (its iframe has `allow="… clipboard-write"` only). */
export const VSCODE_GRANTABLE_PERMISSIONS: readonly UiPermission[] = ['clipboardWrite'];

/** The sandbox of the app's frame: scripts, never same-origin (so it cannot reach the webview page or its API). */
export const APP_FRAME_SANDBOX = 'allow-scripts allow-forms';

/** A one-line description of an app resource's security settings (the CLI's `app` command, the host's note). */
export function describeAppSecurity(
  meta: UiResourceMeta,
  grantable: readonly UiPermission[],
): { csp: AppCsp; permissions: AppPermissions } {
  return { csp: appCsp(meta.csp), permissions: appPermissions(meta.permissions, grantable) };
}
