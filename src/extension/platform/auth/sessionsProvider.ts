import * as vscode from 'vscode';
import type { SecretAuthStore, SignedInServer } from './secretAuthStore';

export const AUTH_PROVIDER_ID = 'mcp-workbench-oauth';

/**
 * What a session carries instead of the access token: the tokens stay with the MCP server they were issued for
 * (the authorizer sends them to that server's origin only), so another extension asking for the session learns
 * that a sign-in exists, never the credential.
 */
const TOKEN_PLACEHOLDER = 'held-by-mcp-workbench';

/**
 * The MCP servers signed in with OAuth, in VS Code's Accounts menu: one session per server (id = the server URL).
 * Sign Out there removes the session, which forgets the tokens; the server asks for sign-in again on its next start.
 */
export class OAuthSessionsProvider implements vscode.AuthenticationProvider, vscode.Disposable {
  private readonly changeEmitter =
    new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  readonly onDidChangeSessions = this.changeEmitter.event;
  private known = new Map<string, vscode.AuthenticationSession>();
  private readonly subscription: { dispose(): void };
  private refreshing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: SecretAuthStore,
    /** Signs in to a server needing it (picked by the person); resolves with its URL, or undefined when cancelled. */
    private readonly signInSomeServer: () => Promise<string | undefined>,
    /** Tells the servers using `serverUrl` that its tokens are gone. */
    private readonly signedOut: (serverUrl: string) => Promise<void>,
  ) {
    this.subscription = store.onDidChange(() => void this.refresh());
    void this.refresh();
  }

  async getSessions(): Promise<vscode.AuthenticationSession[]> {
    await this.refresh();
    return [...this.known.values()];
  }

  async createSession(): Promise<vscode.AuthenticationSession> {
    const serverUrl = await this.signInSomeServer();
    await this.refresh();
    const session = serverUrl === undefined ? undefined : this.known.get(serverUrl);
    if (!session) throw new Error(vscode.l10n.t('No MCP server was signed in.'));
    return session;
  }

  async removeSession(sessionId: string): Promise<void> {
    await this.store.forgetTokens(sessionId);
    await this.refresh();
    await this.signedOut(sessionId);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changeEmitter.dispose();
  }

  /** Re-reads the store and reports what was added, removed or changed (one refresh at a time). */
  private refresh(): Promise<void> {
    this.refreshing = this.refreshing.then(
      async () => {
        const next = new Map((await this.store.signedIn()).map((server) => [server.serverUrl, toSession(server)]));
        const added = [...next.values()].filter((session) => !this.known.has(session.id));
        const removed = [...this.known.values()].filter((session) => !next.has(session.id));
        const changed = [...next.values()].filter((session) => {
          const before = this.known.get(session.id);
          return (
            before !== undefined &&
            (before.account.label !== session.account.label || before.scopes.join(' ') !== session.scopes.join(' '))
          );
        });
        this.known = next;
        if (added.length || removed.length || changed.length) this.changeEmitter.fire({ added, removed, changed });
      },
      () => undefined,
    );
    return this.refreshing;
  }
}

function toSession(server: SignedInServer): vscode.AuthenticationSession {
  return {
    id: server.serverUrl,
    accessToken: TOKEN_PLACEHOLDER,
    account: { id: server.serverUrl, label: `${server.serverName} (${new URL(server.serverUrl).host})` },
    scopes: server.scopes,
  };
}
