/**
 * `logout` from the command line. Signing in is oauthSignIn.ts: this file depends on connect.ts (to name the
 * server the way a run does), and connect.ts on the sign-in, so the two live apart and import no cycle.
 */
import * as path from 'node:path';
import { defaultAuthDir, fileAuthStore } from '../workbench/node/auth/fileAuthStore';
import { UsageError, type ParsedArgs } from './args';
import { resolveHttpServer } from './connect';

/**
 * `logout`: forgets what --auth-dir caches for one HTTP server, its tokens and its dynamic client registrations,
 * so the next run signs in afresh (a browser again). Nothing is sent anywhere: the authorization server keeps
 * whatever it issued until it expires (the MCP authorization spec names no revocation for clients).
 */
export async function logout(args: ParsedArgs): Promise<{ server: string; url: string; signedOut: boolean }> {
  if (args.positionals.length > 0)
    throw new UsageError('logout takes no arguments: name the server with --url, or --config and --server');
  const { name, url } = await resolveHttpServer(args);
  const signedOut = await fileAuthStore(path.resolve(args.authDir ?? defaultAuthDir())).forget(url);
  return { server: name, url, signedOut };
}
