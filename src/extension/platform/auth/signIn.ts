import * as vscode from 'vscode';
import { DEFAULT_SIGN_IN_TIMEOUT_MS } from '../../../protocol/auth/authorizerOptions';
import type { OAuthAuthorizer, SignInOutcome } from '../../../protocol/auth/oauthAuthorizer';
import type { PersonWaits } from '../../../protocol/jsonrpc/personWaits';
import { SignInRecorder } from '../../../protocol/auth/signInSteps';
import type { AuthorizationUserAgent, PendingAuthorization } from '../../../protocol/auth/types';
import type { OAuthClientConfig } from '../../../workbench/config/mcpConfig';
import { loopbackUserAgent } from '../../../workbench/node/auth/loopbackUserAgent';
import { openExternalUrl } from '../ui/openExternalUrl';
import { askSafeDefault } from '../ui/askSafeDefault';
import { signInAttempts } from './signInAttempts';
import type { SecretAuthStore } from './secretAuthStore';

/** Thrown by a start that is not a sign-in when the server needs one: the tree shows "Sign in required", not a failure. */
class SignInRequiredError extends Error {
  override readonly name = 'SignInRequiredError';
}

/** The person declined the consent modal or cancelled the wait for the browser; not a failure either. */
export class SignInCancelledError extends Error {
  override readonly name = 'SignInCancelledError';
}

/** The consent modal as it would be shown (for the test hook that answers it). */
export interface SignInModal {
  message: string;
  detail: string;
  buttons: string[];
  serverName: string;
  issuer: string;
  url: string;
}

/** How a start may meet a server that asks for sign-in. */
export type SignInMode =
  /** A start from the tree, auto-start or a config change: never opens anything, reports that sign-in is needed. */
  | { kind: 'silent'; onRequired(): void }
  /** Sign In: the consent modal, then the browser, with cancellable progress while the redirect is awaited. */
  | { kind: 'interactive' };

interface AuthorizerRequest {
  serverName: string;
  serverUrl: string;
  oauth?: OAuthClientConfig;
  mode: SignInMode;
  log(line: string): void;
  /**
   * The connection's person waits (give the client the same object): held while the person is at the
   * authorization server, so the deadline of the request that met the 401 waits for them.
   */
  personWaits?: PersonWaits;
  /** Ends the sign-in when the start it belongs to is stopped or has failed. */
  signal?: AbortSignal;
  /** The transport's fetch (proxy settings; an observed one for the Protocol view): metadata, registration and token requests go the same way. */
  fetch?: typeof fetch;
  /** `mcpWorkbench.limits.maxDocumentBytes`. */
  maxDocumentBytes?: number;
}

/** `mcpWorkbench.oauth.signInTimeoutMs`: bounds one sign-in, the person's time in the browser included. */
function signInTimeoutMs(): number {
  const value = vscode.workspace.getConfiguration('mcpWorkbench').get<number>('oauth.signInTimeoutMs');
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : DEFAULT_SIGN_IN_TIMEOUT_MS;
}

/**
 * Builds the OAuth authorizer of each HTTP server start: tokens and registrations in SecretStorage, the
 * RFC 8252 loopback redirect, and the person's consent before the authorization URL is opened.
 */
export class SignInService {
  /** Replaced by the test hooks (modal dialogs cannot be clicked in tests). */
  presentModal: (modal: SignInModal) => Thenable<string | undefined> = (modal) =>
    // Not Now first (askSafeDefault): a server's 401 can raise this in the middle of the person's typing, and a stray
    // Enter must not open the server's sign-in page.
    askSafeDefault('warning', modal.message, modal.detail, modal.buttons);
  /**
   * Opens the sign-in page after the person's consent in our modal, which showed `url` byte for byte. What is opened
   * is `throughListener`, the loopback listener's URL that redirects to exactly `url`: VS Code's link protection
   * trusts 127.0.0.1 and localhost, so it does not ask a second time ("Do you want to open the external
   * website?") before the browser goes on to the authorization server (issue 23). Replaced by the test hooks,
   * which get `url` as consented.
   */
  openExternal: (url: string, throughListener?: string) => Thenable<boolean> = (url, throughListener) =>
    openExternalUrl(throughListener ?? url);
  /** Cancels each sign-in whose progress is showing, as its Cancel button does. */
  private readonly waitingForRedirect = new Set<() => void>();
  /** Each server's sign-in steps across its starts (Sign-in Steps…), by server name; made when first asked for. */
  private readonly recorders = new Map<string, SignInRecorder>();
  /** The authorizer of each server's last HTTP start: the one its connection uses, so Refresh Now refreshes there. */
  private readonly authorizers = new Map<string, OAuthAuthorizer>();

  constructor(readonly store: SecretAuthStore) {}

  /**
   * What the progress notification's Cancel does, for every sign-in waiting for its redirect (the test hooks: a
   * notification's button cannot be pressed from the extension host). Returns how many were cancelled.
   */
  cancelWaitingSignIns(): number {
    const waiting = [...this.waitingForRedirect];
    for (const cancel of waiting) cancel();
    return waiting.length;
  }

  /** The recorder of a server's sign-in steps (the same one across its starts). */
  stepsOf(serverName: string): SignInRecorder {
    let recorder = this.recorders.get(serverName);
    if (!recorder) {
      recorder = new SignInRecorder();
      this.recorders.set(serverName, recorder);
    }
    return recorder;
  }

  /** The authorizer of the server's last HTTP start in this window, if any. */
  authorizerOf(serverName: string): OAuthAuthorizer | undefined {
    return this.authorizers.get(serverName);
  }

  async authorizerFor(request: AuthorizerRequest): Promise<OAuthAuthorizer> {
    // OAuth and its library load with the first HTTP server's start, not with the extension (esbuild.js).
    const { OAuthAuthorizer } = await import('../../../protocol/auth/oauthAuthorizer.js');
    const { oauth } = request;
    /** Ends the attempt the consent began (see withConsent); a silent start never begins one. */
    let endAttempt: ((outcome: SignInOutcome) => void) | undefined;
    const authorizer = new OAuthAuthorizer({
      serverUrl: request.serverUrl,
      serverName: request.serverName,
      store: this.store.forServer(request.serverName),
      client:
        oauth?.clientId === undefined ? undefined : { clientId: oauth.clientId, clientSecret: oauth.clientSecret },
      scopes: oauth?.scopes,
      clientMetadataUrl: oauth?.clientMetadataUrl,
      clientName: 'MCP Workbench for VS Code',
      signInTimeoutMs: signInTimeoutMs(),
      personWaits: request.personWaits,
      signal: request.signal,
      fetch: request.fetch,
      maxDocumentBytes: request.maxDocumentBytes,
      log: request.log,
      ...(request.fetch ? { fetch: request.fetch } : {}),
      onSignInSettled: (outcome) => {
        endAttempt?.(outcome);
        endAttempt = undefined;
      },
      userAgent: this.userAgent(request, () => (endAttempt = signInAttempts.begin(request.serverName))),
      steps: this.stepsOf(request.serverName),
    });
    this.authorizers.set(request.serverName, authorizer);
    return authorizer;
  }

  private userAgent(request: AuthorizerRequest, consented: () => void): AuthorizationUserAgent {
    const { mode, serverName } = request;
    switch (mode.kind) {
      case 'silent':
        return {
          prepare: () => {
            // Recorded as a fact as well: the transport and the client may wrap the error on its way out.
            mode.onRequired();
            return Promise.reject(
              new SignInRequiredError(
                vscode.l10n.t('MCP server "{0}" requires signing in; use Sign In on its row.', serverName),
              ),
            );
          },
        };
      case 'interactive': {
        const loopback = loopbackUserAgent({
          startedFrom: 'vscode',
          externalRedirectUri: (local) => externalRedirectUri(local, request.log),
          open: async (url, throughListener) => {
            // The page shown in the modal, byte for byte, reached through the listener (see openExternal).
            const opened = await this.openExternal(url.href, throughListener.href);
            if (!opened)
              throw new SignInCancelledError(
                vscode.l10n.t('Sign-in to MCP server "{0}" was cancelled: the browser was not opened.', serverName),
              );
          },
        });
        return { prepare: async () => this.withConsent(serverName, await loopback.prepare(), consented) };
      }
      default: {
        const exhaustive: never = mode;
        throw new Error(`unknown sign-in mode ${JSON.stringify(exhaustive)}`);
      }
    }
  }

  /** The loopback authorization, behind the consent modal and inside cancellable progress. */
  private withConsent(serverName: string, pending: PendingAuthorization, consented: () => void): PendingAuthorization {
    return {
      redirectUri: pending.redirectUri,
      dispose: () => pending.dispose(),
      complete: async (authorizationUrl, signal, about) => {
        const signIn = vscode.l10n.t('Sign In');
        const choice = await this.presentModal({
          message: vscode.l10n.t('Sign in to MCP server "{0}"?', serverName),
          detail: vscode.l10n.t(
            "Authorization server: {0}\nPage: {1}\n\nThe page opens in your external browser. The tokens it grants are kept in VS Code's secret storage and sent only to this MCP server.",
            about.issuer,
            // The whole URL, query included, byte for byte: it is what the browser is sent to.
            authorizationUrl.href,
          ),
          // VS Code adds its own Cancel (also Escape and the close box); any answer but Sign In opens nothing.
          buttons: [signIn],
          serverName,
          issuer: about.issuer,
          url: authorizationUrl.href,
        });
        if (choice !== signIn)
          throw new SignInCancelledError(vscode.l10n.t('Sign-in to MCP server "{0}" was cancelled.', serverName));
        consented();
        return vscode.window.withProgress(
          {
            location: vscode.ProgressLocation.Notification,
            title: vscode.l10n.t('Signing in to MCP server "{0}": complete the sign-in in your browser…', serverName),
            cancellable: true,
          },
          (_progress, token) => {
            const cancelled = new AbortController();
            const cancel = () =>
              cancelled.abort(
                new SignInCancelledError(vscode.l10n.t('Sign-in to MCP server "{0}" was cancelled.', serverName)),
              );
            const subscription = token.onCancellationRequested(cancel);
            this.waitingForRedirect.add(cancel);
            return pending
              .complete(authorizationUrl, AbortSignal.any([signal, cancelled.signal]), about)
              .finally(() => {
                this.waitingForRedirect.delete(cancel);
                subscription.dispose();
              });
          },
        );
      },
    };
  }
}

/**
 * The loopback redirect as the person's browser can reach it. Where the extension host runs on another machine
 * (Remote-SSH, WSL, a container, code-server), 127.0.0.1 in the browser is the person's own machine: VS Code's
 * `asExternalUri` gives the forwarded address of the listener's port. Locally it is the listener's own URI.
 */
async function externalRedirectUri(local: URL, log: (line: string) => void): Promise<URL> {
  if (vscode.env.remoteName === undefined && vscode.env.uiKind !== vscode.UIKind.Web) return local;
  // Only the origin is mapped: code-server's answer for a port is its proxy's root (`/proxy/<port>/`), whatever path
  // was asked for, so the callback path is put back under that root (the proxy strips the prefix again).
  const base = new URL((await vscode.env.asExternalUri(vscode.Uri.parse(`${local.origin}/`))).toString(true));
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  const external = new URL(`${local.pathname.replace(/^\//, '')}${local.search}`, base);
  if (external.href !== local.href)
    log(`Sign-in redirect: the listener at ${local.href} is reached as ${external.href} (remote window)`);
  return external;
}
