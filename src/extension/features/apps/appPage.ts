import * as vscode from 'vscode';
import type { UiPermission } from '../../../protocol/extensions/apps';
import { APP_FRAME_SANDBOX, type AppCsp, type AppPermissions } from '../../../workbench/apps/appCsp';
import { MAX_APP_MESSAGE_BYTES } from '../../../workbench/apps/bridgeMessages';
import { APP_STYLE_SOURCES } from '../../../workbench/apps/hostContext';
import { escapeHtml } from '../../platform/webviews/webviewPage';
import { webviewMedia } from '../../platform/webviews/webviewMedia';

/** App messages per second the page relays before it removes the frame (the extension counts again). */
const PAGE_MESSAGES_PER_SECOND = 200;

interface AppPageOptions {
  webview: vscode.Webview;
  extensionUri: vscode.Uri;
  serverName: string;
  toolName: string;
  html: string;
  csp: AppCsp;
  permissions: AppPermissions;
  mode: 'inline' | 'fullscreen';
}

function permissionLabel(permission: UiPermission): string {
  switch (permission) {
    case 'camera':
      return vscode.l10n.t('camera');
    case 'microphone':
      return vscode.l10n.t('microphone');
    case 'geolocation':
      return vscode.l10n.t('location');
    case 'clipboardWrite':
      return vscode.l10n.t('clipboard write');
    default: {
      const exhaustive: never = permission;
      return exhaustive;
    }
  }
}

/**
 * The page of one app. Its own policy is the app's (the frame's srcdoc document inherits it, so it must allow what
 * the app may do and nothing more) plus this extension's script and style sheet. The page holds no server text
 * as markup: the app's HTML travels as JSON into the frame's srcdoc; names and notes are escaped.
 */
export function appPage(options: AppPageOptions): string {
  const { webview, csp, permissions } = options;
  const media = webviewMedia(options.extensionUri, 'apps');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(media, 'appHost.js')).toString();
  const guard = webview.asWebviewUri(vscode.Uri.joinPath(media, 'appFrameGuard.js')).toString();
  const style = webview.asWebviewUri(vscode.Uri.joinPath(media, 'appHost.css')).toString();
  const policy = csp.policy
    .replace("script-src 'unsafe-inline'", `script-src ${webview.cspSource} 'unsafe-inline'`)
    .replace("style-src 'unsafe-inline'", `style-src ${webview.cspSource} 'unsafe-inline'`);
  const state = {
    html: options.html,
    csp: csp.framePolicy,
    allow: permissions.allow,
    sandbox: APP_FRAME_SANDBOX,
    styleSources: APP_STYLE_SOURCES,
    maxMessageBytes: MAX_APP_MESSAGE_BYTES,
    perSecond: PAGE_MESSAGES_PER_SECOND,
    labels: {
      frameTitle: vscode.l10n.t('MCP App of {0}', options.toolName),
      flooded: vscode.l10n.t('The app sent too many messages and was stopped.'),
      stopped: vscode.l10n.t('The app was stopped.'),
    },
  };
  const notes: string[] = [];
  if (csp.refused.length > 0)
    notes.push(
      vscode.l10n.t(
        'Refused CSP entries: {0}',
        csp.refused.map((refusal) => `${refusal.entry} (${refusal.reason})`).join(', '),
      ),
    );
  if (permissions.granted.length > 0)
    notes.push(vscode.l10n.t('Granted: {0}', permissions.granted.map(permissionLabel).join(', ')));
  if (permissions.notGrantable.length > 0)
    notes.push(
      vscode.l10n.t(
        'Asked for, not available in VS Code: {0}',
        permissions.notGrantable.map(permissionLabel).join(', '),
      ),
    );
  const connect =
    csp.accepted.connectDomains.length > 0 ? csp.accepted.connectDomains.join(', ') : vscode.l10n.t('none');
  notes.push(vscode.l10n.t('Network access: {0}', connect));
  // The guard (media/apps/appFrameGuard.js) runs in every document the app makes; a frame from a declared origin is
  // that origin's own page, where it cannot run.
  notes.push(
    csp.accepted.frameDomains.length > 0
      ? vscode.l10n.t(
          'WebRTC: blocked in the app; pages it frames from {0} run their own code and may use it',
          csp.accepted.frameDomains.join(', '),
        )
      : vscode.l10n.t('WebRTC: blocked'),
  );
  const openInEditor =
    options.mode === 'inline'
      ? `<button type="button" class="secondary" data-action="openInEditor" disabled>${escapeHtml(vscode.l10n.t('Open App in Editor'))}</button>`
      : '';
  return `<!DOCTYPE html>
<html lang="${escapeHtml(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(policy)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(options.toolName)}</title>
<link rel="stylesheet" href="${escapeHtml(style)}">
</head>
<body data-mode="${options.mode}">
<header id="app-header"><h1>${escapeHtml(options.toolName)} <span class="muted">· ${escapeHtml(options.serverName)}</span></h1>${openInEditor}<button type="button" class="secondary" data-action="close" disabled>${escapeHtml(vscode.l10n.t('Close App'))}</button></header>
<p class="app-notes muted">${notes.map(escapeHtml).join(' · ')}</p>
<div id="app-note" class="error-banner" role="alert" hidden></div>
<div id="app-holder"></div>
<details id="app-context-box"><summary>${escapeHtml(vscode.l10n.t('Model context from the app'))}</summary><pre id="app-context" hidden></pre></details>
<script type="application/json" id="app-state">${JSON.stringify(state).replace(/</g, '\\u003c')}</script>
<script src="${escapeHtml(guard)}"></script>
<script src="${escapeHtml(script)}"></script>
</body>
</html>`;
}
