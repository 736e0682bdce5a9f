/**
 * The fetch the extension chooses (chooseHttpFetch) under VS Code's own proxy support. VS Code's extension host
 * patches node:http and the global fetch with @vscode/proxy-agent and resolves proxies in its main process (the OS's
 * settings, a PAC file), so a proxy can exist that no setting or variable names. Here the same library patches this
 * process the way the extension host does (connectProxyResolver: createProxyResolver, createHttpPatch merged into the
 * http module, createFetchPatch as the global fetch), with a resolver that answers `PROXY <a real proxy>` for every
 * URL, as the main process does for a PAC file or a system proxy. For each `http.proxySupport` value, a POST through
 * the chosen fetch must reach the server through that proxy (through none under "off").
 *
 * The server listens on 127.0.0.2: the resolver answers DIRECT for localhost and 127.0.0.1 without asking.
 */
import assert from 'node:assert/strict';
import type * as Http from 'node:http';
import { createRequire } from 'node:module';
import * as net from 'node:net';
import { after, before, describe, test } from 'node:test';
import {
  LogLevel,
  createFetchPatch,
  createHttpPatch,
  createProxyResolver,
  type ProxyAgentParams,
  type ProxySupportSetting,
} from '@vscode/proxy-agent';
import { chooseHttpFetch } from '../../../../src/workbench/node/httpFetchChoice';

const SERVER_HOST = '127.0.0.2';
/** The http module itself (an import's namespace only has getters), as the extension host patches it. */
const http = createRequire(__filename)('node:http') as typeof Http;

describe("the chosen fetch under VS Code's proxy support (@vscode/proxy-agent), with a proxy only its resolver knows", () => {
  const originalRequest = http.request;
  const originalGet = http.get;
  const originalFetch = globalThis.fetch;
  let server: Http.Server;
  let proxy: Http.Server;
  let serverUrl: string;
  let proxyPort: number;
  /** What the proxy was asked, in order: `POST http://127.0.0.2:<port>/mcp` or `CONNECT 127.0.0.2:<port>`. */
  const proxied: string[] = [];
  /** What reached the server, with the peer it came from. */
  const served: string[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        served.push(`${req.method} ${req.url} ${body}`);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, SERVER_HOST, resolve));
    serverUrl = `http://${SERVER_HOST}:${(server.address() as net.AddressInfo).port}/mcp`;

    // A forward proxy: absolute-form requests (node:http through http-proxy-agent) and CONNECT tunnels (undici's
    // ProxyAgent). It forwards with the unpatched http.request, or it would be sent to itself.
    proxy = http.createServer((req, res) => {
      proxied.push(`${req.method} ${req.url}`);
      const upstream = originalRequest(req.url ?? '', { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    proxy.on('connect', (req: Http.IncomingMessage, socket: net.Socket, head: Buffer) => {
      proxied.push(`CONNECT ${req.url}`);
      const [host, port] = (req.url ?? '').split(':');
      const upstream = net.connect(Number(port), host, () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyPort = (proxy.address() as net.AddressInfo).port;
  });

  after(async () => {
    Object.assign(http, { request: originalRequest, get: originalGet });
    globalThis.fetch = originalFetch;
    for (const each of [server, proxy]) {
      each.closeAllConnections();
      await new Promise<void>((resolve) => each.close(() => resolve()));
    }
  });

  /** Patches this process as VS Code's extension host does, under the given http.proxySupport. */
  function patchAsVsCode(proxySupport: ProxySupportSetting): void {
    const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
    const params: ProxyAgentParams = {
      resolveProxy: async () => `PROXY 127.0.0.1:${proxyPort}`,
      getProxyURL: () => undefined,
      getProxySupport: () => proxySupport,
      getNoProxyConfig: () => [],
      isAdditionalFetchSupportEnabled: () => true,
      isWebSocketPatchEnabled: () => false,
      addCertificatesV1: () => false,
      addCertificatesV2: () => false,
      loadSystemCertificatesFromNode: () => false,
      loadAdditionalCertificates: async () => [],
      log: quiet,
      getLogLevel: () => LogLevel.Off,
      proxyResolveTelemetry: () => undefined,
      isUseHostProxyEnabled: () => true,
      env: {},
    };
    const { resolveProxyWithRequest, resolveProxyURL } = createProxyResolver(params);
    Object.assign(http, { request: originalRequest, get: originalGet });
    Object.assign(http, createHttpPatch(params, http, withUnrefTimers(resolveProxyWithRequest)));
    globalThis.fetch = createFetchPatch(params, originalFetch, resolveProxyURL);
  }

  /**
   * The resolver starts a 10-minute telemetry timer on its first use and does not unref it: the extension host lives
   * longer than that, this test's process must not wait for it. A timer started during a call is unref'd.
   */
  function withUnrefTimers<A extends unknown[]>(resolve: (...args: A) => void): (...args: A) => void {
    return (...args) => {
      const setTimeoutBefore = globalThis.setTimeout;
      globalThis.setTimeout = ((...timer: Parameters<typeof setTimeout>) =>
        setTimeoutBefore(...timer).unref()) as typeof setTimeout;
      try {
        resolve(...args);
      } finally {
        globalThis.setTimeout = setTimeoutBefore;
      }
    };
  }

  for (const proxySupport of ['override', 'fallback', 'on', 'off'] as const) {
    test(`http.proxySupport "${proxySupport}": ${proxySupport === 'off' ? 'straight to the server, as VS Code does' : 'through the proxy VS Code resolves'}`, async () => {
      patchAsVsCode(proxySupport);
      proxied.length = 0;
      served.length = 0;
      const choice = chooseHttpFetch({ env: {}, proxySupport });
      assert.equal(choice.kind, proxySupport === 'on' ? 'global-fetch' : 'node-http');
      const body = `{"jsonrpc":"2.0","id":1,"method":"ping","via":"${proxySupport}"}`;
      const response = await choice.fetch(serverUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        redirect: 'manual',
      });
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { ok: true });
      assert.deepEqual(served, [`POST /mcp ${body}`], 'the server got the request once');
      const { host } = new URL(serverUrl);
      if (proxySupport === 'off') assert.deepEqual(proxied, [], 'no proxy under "off"');
      else
        assert.ok(
          proxied.length === 1 && (proxied[0] === `POST ${serverUrl}` || proxied[0] === `CONNECT ${host}`),
          `through the proxy: ${JSON.stringify(proxied)}`,
        );
    });
  }

  test('the reason "on" keeps the global fetch: under "on" the patch leaves a node:http request with its own agent unproxied', async () => {
    patchAsVsCode('on');
    proxied.length = 0;
    served.length = 0;
    const nodeHttp = chooseHttpFetch({ env: {} });
    assert.equal(nodeHttp.kind, 'node-http');
    const response = await nodeHttp.fetch(serverUrl, { method: 'POST', body: '{}', redirect: 'manual' });
    assert.equal(response.status, 200);
    await response.text();
    assert.equal(served.length, 1);
    assert.deepEqual(proxied, [], 'node:http with its own agent went around the proxy');
  });
});
