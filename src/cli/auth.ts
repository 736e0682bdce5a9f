/**
 * Signing in from the command line: the OAuth authorizer with a token cache in --auth-dir, a loopback redirect
 * listener, and the authorization URL printed on stderr and opened with BROWSER (or the platform's opener)
 * unless --no-browser. Tokens and secrets never reach stdout or stderr.
 */
import * as path from 'node:path';
import { OAuthAuthorizer, type ConfiguredClient } from '../protocol/auth/oauthAuthorizer';
import type { OAuthClientConfig } from '../workbench/config/mcpConfig';
import { defaultAuthDir, fileAuthStore } from '../workbench/node/auth/fileAuthStore';
import { loopbackUserAgent } from '../workbench/node/auth/loopbackUserAgent';
import { openBrowser } from '../workbench/node/auth/openBrowser';
import { UsageError, type ParsedArgs } from './args';
import { printable, resolveHttpServer } from './connect';

/**
 * The sign-in happens inside the request the server refused, so the request's limit (--timeout, default 60 s)
 * bounds it too; the authorizer gets the same limit so a sign-in that is never completed says so.
 */
const DEFAULT_SIGN_IN_TIMEOUT_MS = 60_000;

export function cliAuthorizer(serverUrl: string, serverName: string, args: ParsedArgs, config?: OAuthClientConfig): OAuthAuthorizer {
  if (args.clientSecret !== undefined && args.clientId === undefined) throw new UsageError('--client-secret needs --client-id');
  const clientId = args.clientId ?? config?.clientId;
  const clientSecret = args.clientId !== undefined ? args.clientSecret : config?.clientSecret;
  const client: ConfiguredClient | undefined = clientId === undefined ? undefined : { clientId, clientSecret };
  const say = (line: string) => process.stderr.write(`${printable(line)}\n`);
  return new OAuthAuthorizer({
    serverUrl,
    serverName,
    store: fileAuthStore(path.resolve(args.authDir ?? defaultAuthDir())),
    client,
    scopes: config?.scopes,
    clientMetadataUrl: config?.clientMetadataUrl,
    clientName: 'MCP Workbench CLI',
    timeoutMs: args.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS,
    log: args.verbose ? (line) => say(`${serverName}: ${line}`) : undefined,
    userAgent: loopbackUserAgent({
      open: async (url) => {
        say(`${serverName} requires signing in. Open this URL in a browser to continue:\n  ${url.href}`);
        if (args.noBrowser) return;
        try {
          await openBrowser(url.href);
        } catch (error) {
          say(`(could not open a browser: ${(error as Error).message}; open the URL above by hand)`);
        }
      },
    }),
  });
}

/**
 * `logout`: forgets what --auth-dir caches for one HTTP server, its tokens and its dynamic client registrations,
 * so the next run signs in afresh (a browser again). Nothing is sent anywhere: the authorization server keeps
 * whatever it issued until it expires (the MCP authorization spec names no revocation for clients).
 */
export async function logout(args: ParsedArgs): Promise<{ server: string; url: string; signedOut: boolean }> {
  if (args.positionals.length > 0) throw new UsageError('logout takes no arguments: name the server with --url, or --config and --server');
  const { name, url } = await resolveHttpServer(args);
  const signedOut = await fileAuthStore(path.resolve(args.authDir ?? defaultAuthDir())).forget(url);
  return { server: name, url, signedOut };
}
