import * as vscode from 'vscode';
import type {
  SignInFlow,
  SignInRecorder,
  SignInStep,
  SignInStepKind,
  TokenLife,
} from '../../../protocol/auth/signInSteps';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import type { SignInService } from '../../platform/auth/signIn';
import type { ServerController } from '../../platform/servers/serverController';
import type { ServerManager } from '../../platform/servers/serverManager';
import { isServerNode, resolveServer } from '../../platform/servers/serverPicker';

export const SIGN_IN_SCHEME = 'mcp-workbench-sign-in';

/**
 * Sign-in Steps…: a read-only document per HTTP server with each step of its sign-ins and refreshes in this window
 * (request and answer, masked by the recorder), where a flow stopped and why, and the tokens' life now. It follows
 * the recorder live; Refresh Now is in its title bar. Everything from the server or the authorization server is
 * shown through escapeForDisplay, inside fences longer than any backtick run it holds.
 */
export class SignInStepsDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly watching = new Map<string, { dispose(): void }>();
  private registration: vscode.Disposable | undefined;

  constructor(
    private readonly auth: SignInService,
    private readonly manager: ServerManager,
  ) {}

  static uriOf(serverName: string): vscode.Uri {
    return vscode.Uri.from({ scheme: SIGN_IN_SCHEME, path: `/${encodeURIComponent(serverName)}/sign-in-steps.md` });
  }

  static serverOf(uri: vscode.Uri): string | undefined {
    if (uri.scheme !== SIGN_IN_SCHEME) return undefined;
    const [, name] = uri.path.split('/');
    return name === undefined ? undefined : decodeURIComponent(name);
  }

  async show(controller: ServerController): Promise<void> {
    // Registered on first use: a window that never opens it pays nothing.
    this.registration ??= vscode.workspace.registerTextDocumentContentProvider(SIGN_IN_SCHEME, this);
    const uri = SignInStepsDocuments.uriOf(controller.name);
    if (!this.watching.has(controller.name)) {
      const recorder = this.auth.stepsOf(controller.name);
      this.watching.set(
        controller.name,
        recorder.onDidChange(() => this.changed.fire(uri)),
      );
    }
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: false });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const name = SignInStepsDocuments.serverOf(uri);
    if (name === undefined) return '';
    const controller = this.manager.byName(name)[0];
    return renderSignInSteps(
      name,
      controller?.entry.definition.kind === 'http' ? controller.entry.definition.url : undefined,
      this.auth.stepsOf(name),
    );
  }

  dispose(): void {
    for (const watch of this.watching.values()) watch.dispose();
    this.watching.clear();
    this.registration?.dispose();
    this.changed.dispose();
  }
}

/** MCP Workbench: Sign-in Steps… — the row's server, or one picked among the HTTP servers. */
export async function showSignInSteps(
  manager: ServerManager,
  documents: SignInStepsDocuments,
  argument: unknown,
): Promise<boolean> {
  const controller = await remoteServer(
    manager,
    argument,
    vscode.l10n.t('Select the MCP server whose sign-in steps to show'),
  );
  if (!controller) return false;
  await documents.show(controller);
  return true;
}

/** MCP Workbench: Refresh Sign-in Now — from the steps document's title bar, a row, or a pick. */
export async function refreshSignInNow(
  manager: ServerManager,
  auth: SignInService,
  argument: unknown,
): Promise<boolean> {
  const named = argument instanceof vscode.Uri ? SignInStepsDocuments.serverOf(argument) : undefined;
  const controller =
    named !== undefined
      ? manager.byName(named)[0]
      : await remoteServer(manager, argument, vscode.l10n.t('Select the MCP server whose sign-in to refresh'));
  if (!controller) return false;
  const authorizer = auth.authorizerOf(controller.name);
  if (!authorizer) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('MCP server "{0}" has not been started in this window; start it, then refresh.', controller.name),
    );
    return false;
  }
  const refreshed = await authorizer.refreshNow();
  if (refreshed)
    void vscode.window.showInformationMessage(
      vscode.l10n.t('The sign-in to MCP server "{0}" was refreshed.', controller.name),
    );
  else
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'The sign-in to MCP server "{0}" could not be refreshed; Sign-in Steps shows why. Sign in again when the server asks.',
        controller.name,
      ),
    );
  return refreshed;
}

async function remoteServer(
  manager: ServerManager,
  argument: unknown,
  placeHolder: string,
): Promise<ServerController | undefined> {
  const isHttp = (server: ServerController) => server.entry.definition.kind === 'http';
  let controller: ServerController | undefined;
  if (typeof argument === 'string') controller = manager.byName(argument)[0];
  else if (isServerNode(argument)) controller = argument.controller;
  else if (manager.servers.length > 0 && !manager.servers.some(isHttp)) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('No MCP server here is reached over HTTP, so none signs in.'),
    );
    return undefined;
  } else controller = await resolveServer(manager, argument, { placeHolder, prefer: isHttp });
  if (!controller) return undefined;
  if (!isHttp(controller)) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'MCP server "{0}" runs as a local process; only servers reached over HTTP sign in.',
        controller.name,
      ),
    );
    return undefined;
  }
  return controller;
}

function stepLabel(kind: SignInStepKind): string {
  switch (kind) {
    case 'resource-metadata':
      return vscode.l10n.t('Discovery: protected resource metadata');
    case 'server-metadata':
      return vscode.l10n.t('Discovery: authorization server metadata');
    case 'registration':
      return vscode.l10n.t('Client registration');
    case 'authorization':
      return vscode.l10n.t('Authorization (the page opened in your browser, after your consent)');
    case 'token':
      return vscode.l10n.t('Token request');
    case 'refresh':
      return vscode.l10n.t('Refresh');
    case 'other':
      return vscode.l10n.t('Other request');
    default: {
      const exhaustive: never = kind;
      return String(exhaustive);
    }
  }
}

function flowLabel(flow: SignInFlow): string {
  const when = clock(flow.started);
  const took = flow.ended === undefined ? '' : ` (${((flow.ended - flow.started) / 1000).toFixed(1)} s)`;
  const kind = flow.kind === 'sign-in' ? vscode.l10n.t('Sign-in') : vscode.l10n.t('Refresh');
  switch (flow.outcome) {
    case 'running':
      return vscode.l10n.t('{0} at {1}: in progress', kind, when);
    case 'succeeded':
      return vscode.l10n.t('{0} at {1}: succeeded{2}', kind, when, took);
    case 'failed':
      return vscode.l10n.t('{0} at {1}: failed{2}', kind, when, took);
    default: {
      const exhaustive: never = flow.outcome;
      return String(exhaustive);
    }
  }
}

/** The document's Markdown (exported for the unit test). */
export function renderSignInSteps(serverName: string, url: string | undefined, recorder: SignInRecorder): string {
  const lines: string[] = [`# ${vscode.l10n.t('Sign-in steps: {0}', serverName)}`, ''];
  if (url !== undefined) lines.push(escapeForDisplay(url), '');
  lines.push(`## ${vscode.l10n.t('The sign-in now')}`, '', ...lifeLines(recorder.tokenLife()), '');
  lines.push(
    vscode.l10n.t(
      'Refresh Now is in this editor\'s title bar (or run "MCP Workbench: Refresh Sign-in Now"). Secrets (tokens, codes, client secrets, verifiers) are masked as ••••.',
    ),
    '',
  );
  const flows = [...recorder.flows()].reverse();
  const steps = recorder.allSteps();
  lines.push(`## ${vscode.l10n.t('Sign-ins and refreshes in this window, newest first')}`, '');
  if (flows.length === 0)
    lines.push(vscode.l10n.t('None yet: the steps appear here when the server asks to sign in.'), '');
  for (const flow of flows) {
    lines.push(`### ${flowLabel(flow)}`, '');
    if (flow.error !== undefined)
      lines.push(`**${vscode.l10n.t('Stopped here: {0}', escapeForDisplay(flow.error))}**`, '');
    const own = steps.filter((step) => step.flow === flow.id);
    if (own.length === 0) lines.push(vscode.l10n.t('(its steps are no longer kept)'), '');
    own.forEach((step, index) => lines.push(...stepLines(step, index + 1)));
  }
  const loose = steps.filter((step) => step.flow === 0);
  if (loose.length > 0) {
    lines.push(`### ${vscode.l10n.t('Requests outside a sign-in')}`, '');
    loose.forEach((step, index) => lines.push(...stepLines(step, index + 1)));
  }
  return lines.join('\n');
}

function lifeLines(life: TokenLife | undefined): string[] {
  if (!life) return [`- ${vscode.l10n.t('No token is held: the server asks to sign in when it needs one.')}`];
  const lines = [`- ${vscode.l10n.t('Access token: {0}', life.tokenType === 'dpop' ? 'DPoP' : 'Bearer')}`];
  if (life.obtainedAt !== undefined) lines.push(`- ${vscode.l10n.t('Obtained: {0}', dateTime(life.obtainedAt))}`);
  if (life.expiresAt === undefined) lines.push(`- ${vscode.l10n.t('Expires: the authorization server did not say')}`);
  else {
    const minutes = Math.round((life.expiresAt - Date.now()) / 60_000);
    lines.push(
      `- ${
        minutes >= 0
          ? vscode.l10n.t('Expires: {0} (in about {1} min)', dateTime(life.expiresAt), minutes)
          : vscode.l10n.t('Expired: {0}', dateTime(life.expiresAt))
      }`,
    );
  }
  lines.push(
    `- ${
      life.refreshable
        ? vscode.l10n.t('Refresh: a refresh token is held, so it is refreshed before it expires without asking you')
        : vscode.l10n.t('Refresh: no refresh token is held, so you sign in again when it expires')
    }`,
  );
  if (life.scopes.length > 0) lines.push(`- ${vscode.l10n.t('Scopes: {0}', escapeForDisplay(life.scopes.join(' ')))}`);
  return lines;
}

function stepLines(step: SignInStep, index: number): string[] {
  const answer =
    step.answer !== undefined
      ? `→ ${step.answer.status}`
      : step.error !== undefined
        ? `→ ${vscode.l10n.t('no answer: {0}', escapeForDisplay(step.error))}`
        : '';
  const lines = [
    `${index}. **${stepLabel(step.kind)}** (${clock(step.time)}, ${step.durationMs} ms)`,
    `   \`${step.request.method}\` ${escapeForDisplay(step.request.url)} ${answer}`,
    '',
  ];
  if (step.request.body !== undefined) lines.push(...fenced(vscode.l10n.t('Request'), step.request.body));
  if (step.answer?.body !== undefined && step.answer.body !== '')
    lines.push(...fenced(vscode.l10n.t('Answer'), step.answer.body));
  return lines;
}

/** Text in a fence longer than any backtick run in it, each line escaped (so nothing in it can close the fence). */
function fenced(title: string, text: string): string[] {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [
    `   ${title}:`,
    '',
    `   ${fence}`,
    ...text.split('\n').map((line) => `   ${escapeForDisplay(line)}`),
    `   ${fence}`,
    '',
  ];
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

function clock(time: number): string {
  const date = new Date(time);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

function dateTime(time: number): string {
  const date = new Date(time);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${clock(time)}`;
}
