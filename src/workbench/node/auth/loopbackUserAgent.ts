import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthorizationUserAgent, PendingAuthorization } from '../../../protocol/auth/types';

const CALLBACK_PATH = '/callback';

export interface LoopbackOptions {
  /** Shows the authorization URL to the person (prints it, opens a browser). */
  open(authorizationUrl: URL): void | Promise<void>;
}

const PAGE = (title: string, text: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;

/**
 * The RFC 8252 native-app redirect: a one-shot HTTP listener on 127.0.0.1 with an ephemeral port. Only a GET
 * of its callback path completes the authorization; every other request gets 404 and changes nothing.
 */
export function loopbackUserAgent(options: LoopbackOptions): AuthorizationUserAgent {
  return {
    prepare: async (): Promise<PendingAuthorization> => {
      let deliver: ((url: URL) => void) | undefined;
      const received = new Promise<URL>((resolve) => (deliver = resolve));
      const server = http.createServer((request, response) => {
        const url = new URL(request.url ?? '/', 'http://127.0.0.1');
        if (request.method !== 'GET' || url.pathname !== CALLBACK_PATH || !deliver) {
          response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
          return;
        }
        const failed = url.searchParams.has('error');
        response
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
          .end(failed ? PAGE('Sign-in failed', 'The authorization server refused; see the terminal.') : PAGE('Signed in', 'You can close this window and return to the terminal.'));
        const done = deliver;
        deliver = undefined;
        done(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}${request.url ?? ''}`));
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
      const port = (server.address() as AddressInfo).port;
      const redirectUri = `http://127.0.0.1:${port}${CALLBACK_PATH}`;
      return {
        redirectUri,
        complete: async (authorizationUrl, signal) => {
          await options.open(authorizationUrl);
          return new Promise<URL>((resolve, reject) => {
            const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('authorization cancelled'));
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
