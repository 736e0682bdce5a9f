/**
 * Signing in from the command line: the OAuth authorizer with a token cache in --auth-dir, a loopback redirect
 * listener, and the authorization URL printed on stderr and opened with BROWSER (or the platform's opener)
 * unless --no-browser. Tokens and secrets never reach stdout or stderr.
 *
 * The sign-in has its own bound, --sign-in-timeout (default 5 minutes), not --timeout: a person at a login page
 * takes longer than a server should. While the person signs in the connection's PersonWaits holds a wait, so the
 * deadline of the request that met the 401 does not run out meanwhile.
 */
import * as path from 'node:path';
import { DEFAULT_SIGN_IN_TIMEOUT_MS, OAuthAuthorizer, type ConfiguredClient } from '../protocol/auth/oauthAuthorizer';
import type { PersonWaits } from '../protocol/jsonrpc/personWaits';
import type { OAuthClientConfig } from '../workbench/config/mcpConfig';
import { defaultAuthDir, fileAuthStore } from '../workbench/node/auth/fileAuthStore';
import { loopbackUserAgent } from '../workbench/node/auth/loopbackUserAgent';
import { openBrowser } from '../workbench/node/auth/openBrowser';
import { UsageError, type ParsedArgs } from './args';
import { printable } from './printable';

interface CliSignIn {
  serverUrl: string;
  serverName: string;
  args: ParsedArgs;
  /** The config entry's "oauth" object; --client-id overrides it. */
  config?: OAuthClientConfig;
  personWaits: PersonWaits;
  /** The transport's fetch: metadata, registration and token requests go the same way (proxy settings). */
  fetch?: typeof fetch;
}

export function cliAuthorizer({ serverUrl, serverName, args, config, personWaits, fetch }: CliSignIn): OAuthAuthorizer {
  if (args.clientSecret !== undefined && args.clientId === undefined)
    throw new UsageError('--client-secret needs --client-id');
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
    signInTimeoutMs: args.signInTimeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS,
    personWaits,
    fetch,
    maxDocumentBytes: args.limits.maxDocumentBytes,
    log: args.verbose ? (line) => say(`${serverName}: ${line}`) : undefined,
    userAgent: loopbackUserAgent({
      startedFrom: 'terminal',
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
