import * as vscode from 'vscode';
import { DEFAULT_INPUT_LIMITS, inputLimits, type InputLimits } from '../../../protocol/limits/inputLimits';
import { chooseHttpFetch, type HttpFetchChoice } from '../../../workbench/node/httpFetchChoice';

/**
 * `mcpWorkbench.limits.*`: how much the extension host reads of what a server or an authorization server sends.
 * Application-scoped settings (package.json), so a workspace's `.vscode/settings.json` cannot raise them. Read at
 * each start: a change applies from the next start of a server.
 */
export function configuredInputLimits(): InputLimits {
  const section = vscode.workspace.getConfiguration('mcpWorkbench');
  const overrides: Partial<InputLimits> = {};
  for (const name of Object.keys(DEFAULT_INPUT_LIMITS) as (keyof InputLimits)[]) {
    const value = section.get<number>(`limits.${name}`);
    if (typeof value === 'number') overrides[name] = value;
  }
  return inputLimits(overrides);
}

/**
 * The extension host's fetch for HTTP servers and their sign-in: node:http unless `http.proxy` or a proxy variable is
 * set, or `http.proxySupport` is "on" (see chooseHttpFetch).
 */
export function extensionHttpFetch(): HttpFetchChoice {
  const http = vscode.workspace.getConfiguration('http');
  return chooseHttpFetch({
    env: process.env,
    proxySetting: http.get<string>('proxy'),
    proxySupport: http.get<string>('proxySupport'),
  });
}
