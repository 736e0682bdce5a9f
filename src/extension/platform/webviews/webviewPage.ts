import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/**
 * The one way this extension builds webview HTML: a strict Content-Security-Policy (no remote content, scripts
 * only with the page's nonce, images and audio only from the extension or `data:`), and a base style sheet
 * that follows the editor theme through the `--vscode-*` variables.
 */
interface WebviewPageOptions {
  webview: vscode.Webview;
  title: string;
  /** Already-escaped HTML. */
  body: string;
  scripts?: vscode.Uri[];
  styles?: vscode.Uri[];
  /** JSON handed to the scripts in a non-executable script element (`#initial-state`). */
  state?: unknown;
}

export function webviewPage(options: WebviewPageOptions): string {
  const nonce = randomBytes(16).toString('base64');
  const { webview } = options;
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource} data:`,
    'media-src data:',
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
    // No page posts a form anywhere: messages go through postMessage.
    "form-action 'none'",
  ].join('; ');
  const styles = (options.styles ?? [])
    .map((uri) => `<link rel="stylesheet" href="${escapeHtml(webview.asWebviewUri(uri).toString())}">`)
    .join('\n');
  const scripts = (options.scripts ?? [])
    .map((uri) => `<script nonce="${nonce}" src="${escapeHtml(webview.asWebviewUri(uri).toString())}"></script>`)
    .join('\n');
  // "<" is escaped so server-provided strings can never close the element early.
  const state =
    options.state === undefined
      ? ''
      : `<script type="application/json" id="initial-state">${JSON.stringify(options.state).replace(/</g, '\\u003c')}</script>`;
  return `<!DOCTYPE html>
<html lang="${escapeHtml(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(options.title)}</title>
<style nonce="${nonce}">${BASE_CSS}</style>
${styles}
</head>
<body>
${options.body}
${state}
${scripts}
</body>
</html>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const BASE_CSS = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); padding: 0 16px 24px; line-height: 1.45; }
h1 { font-size: 1.4em; font-weight: 600; margin: 16px 0 4px; }
h2 { font-size: 1.1em; font-weight: 600; margin: 18px 0 6px; }
a { color: var(--vscode-textLink-foreground); }
img { max-width: 100%; }
a:hover { color: var(--vscode-textLink-activeForeground); }
code, pre { font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); }
pre { background: var(--vscode-textCodeBlock-background); padding: 8px 10px; border-radius: 3px; overflow: auto; white-space: pre-wrap; word-break: break-word; }
.muted { color: var(--vscode-descriptionForeground); }
.error-banner { border-left: 4px solid var(--vscode-errorForeground); background: var(--vscode-inputValidation-errorBackground); color: var(--vscode-foreground); padding: 8px 12px; margin: 8px 0; }
.ok { color: var(--vscode-testing-iconPassed); }
.bad { color: var(--vscode-errorForeground); }
button { font-family: inherit; font-size: inherit; color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: 1px solid var(--vscode-button-border, transparent); padding: 4px 12px; border-radius: 2px; cursor: pointer; }
button:hover { background: var(--vscode-button-hoverBackground); }
button.secondary { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
button.secondary:hover { background: var(--vscode-button-secondaryHoverBackground); }
button:focus-visible, input:focus, select:focus, textarea:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
`;
