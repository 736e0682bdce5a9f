import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthorizationUserAgent, PendingAuthorization } from '../../../protocol/auth/types';

const CALLBACK_PATH = '/callback';
/** Where the listener forwards the browser to the authorization URL (see LoopbackOptions.open); a nonce follows. */
const START_PATH = '/start/';

/** The program that started the sign-in: the last page tells the person where to go back to. */
type SignInProgram = 'terminal' | 'vscode';

interface LoopbackOptions {
  /**
   * Shows the authorization URL to the person (prints it, opens a browser). `throughListener` is this listener's
   * own URL (mapped like the redirect URI) that answers with a redirect to exactly `authorizationUrl`: a host whose
   * opener asks again before leaving for another site (VS Code's link protection, which trusts 127.0.0.1 and
   * localhost) opens that one, after its own consent named the authorization URL.
   */
  open(authorizationUrl: URL, throughListener: URL): void | Promise<void>;
  startedFrom: SignInProgram;
  /**
   * The redirect URI the browser can reach, for the local listener's URI: where the program does not run on the
   * person's machine (code-server, Remote-SSH), VS Code's `asExternalUri` maps the port. Its path may carry a
   * prefix of the editor's port proxy; the listener accepts the callback under either path.
   */
  externalRedirectUri?(local: URL): Promise<URL> | URL;
}

const PAGE = (title: string, text: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;

function returnTo(program: SignInProgram): string {
  switch (program) {
    case 'terminal':
      return 'the terminal';
    case 'vscode':
      return 'VS Code';
    default: {
      const exhaustive: never = program;
      return String(exhaustive);
    }
  }
}

/**
 * The RFC 8252 native-app redirect: an HTTP listener on 127.0.0.1 with an ephemeral port. Only a GET of its
 * callback path carrying the `state` of the authorization in progress completes it; a callback with another
 * state (a local process knocking first, an old tab) gets an error page and the listener keeps waiting; every
 * other request gets 404 and changes nothing. A GET of its start path (a random nonce) redirects to the
 * authorization URL while the sign-in waits, so a host can open a loopback URL its opener does not ask about.
 */
export function loopbackUserAgent(options: LoopbackOptions): AuthorizationUserAgent {
  const program = returnTo(options.startedFrom);
  return {
    prepare: async (): Promise<PendingAuthorization> => {
      let deliver: ((url: URL) => void) | undefined;
      /** Set once the authorization URL (and so its state) is known. */
      let expectedState: string | undefined;
      let callbackPaths = [CALLBACK_PATH];
      /** The start path (with its nonce) as the listener sees it, directly and behind an editor's port proxy. */
      const startNonce = randomBytes(16).toString('hex');
      let startPaths = [`${START_PATH}${startNonce}`];
      /** The authorization URL the start path forwards to, once known. */
      let authorizationHref: string | undefined;
      const received = new Promise<URL>((resolve) => (deliver = resolve));
      const server = http.createServer((request, response) => {
        const url = new URL(request.url ?? '/', 'http://127.0.0.1');
        if (
          request.method === 'GET' &&
          startPaths.includes(url.pathname) &&
          authorizationHref !== undefined &&
          deliver
        ) {
          // Byte for byte: the Location is the URL the person consented to, not a re-serialization of it.
          response
            .writeHead(302, {
              location: authorizationHref,
              'cache-control': 'no-store',
              'referrer-policy': 'no-referrer',
            })
            .end();
          return;
        }
        if (request.method !== 'GET' || !callbackPaths.includes(url.pathname) || !deliver) {
          response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
          return;
        }
        const page = (status: number, title: string, text: string) =>
          response
            .writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
            .end(PAGE(title, text));
        if (expectedState === undefined || url.searchParams.get('state') !== expectedState) {
          page(
            400,
            'Not this sign-in',
            `This link does not belong to the sign-in in progress; it was ignored. Finish the sign-in in the window ${program} opened.`,
          );
          return;
        }
        if (url.searchParams.has('error'))
          page(200, 'Sign-in failed', `The authorization server refused; see ${program}.`);
        else page(200, 'Signed in', `You can close this window and return to ${program}.`);
        const done = deliver;
        deliver = undefined;
        done(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}${request.url ?? ''}`));
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
      const port = (server.address() as AddressInfo).port;
      const local = new URL(`http://127.0.0.1:${port}${CALLBACK_PATH}`);
      const localStart = new URL(`http://127.0.0.1:${port}${START_PATH}${startNonce}`);
      let redirectUri = local.href;
      let startUrl = localStart;
      try {
        const external = options.externalRedirectUri ? await options.externalRedirectUri(local) : local;
        redirectUri = external.href;
        callbackPaths = [...new Set([CALLBACK_PATH, external.pathname])];
        const externalStart = options.externalRedirectUri ? await options.externalRedirectUri(localStart) : localStart;
        // A mapping that does not keep the start path (and its nonce) cannot be used: the direct URL is opened instead.
        if (externalStart.pathname.endsWith(localStart.pathname)) startUrl = externalStart;
        startPaths = [...new Set([localStart.pathname, startUrl.pathname])];
      } catch (error) {
        server.close();
        throw error;
      }
      return {
        redirectUri,
        complete: async (authorizationUrl, signal) => {
          expectedState = authorizationUrl.searchParams.get('state') ?? '';
          authorizationHref = authorizationUrl.href;
          await options.open(authorizationUrl, startUrl);
          return new Promise<URL>((resolve, reject) => {
            const onAbort = () =>
              reject(signal.reason instanceof Error ? signal.reason : new Error('authorization cancelled'));
            if (signal.aborted) return onAbort();
            signal.addEventListener('abort', onAbort, { once: true });
            received.then((url) => {
              signal.removeEventListener('abort', onAbort);
              resolve(url);
            }, reject);
          });
        },
        dispose: () => {
          server.closeAllConnections();
          server.close();
        },
      };
    },
  };
}
