import { nodeHttpFetch } from '../../protocol/node/nodeHttpFetch';

/**
 * Which fetch the HTTP transports and the OAuth requests of a Node host use. `node:http` (nodeHttpFetch) is the
 * default: it costs a fraction of undici's CPU per request. It does not read proxy settings, so when a proxy is
 * configured the global fetch is kept, which reaches the proxy exactly as it did before this default existed (in
 * VS Code its fetch is patched to follow `http.proxy` and the proxy environment variables; in the CLI, Node's own
 * fetch follows them only under NODE_USE_ENV_PROXY, and that stays as it was).
 *
 * A proxy that only VS Code knows (the OS's settings, a PAC file) needs no setting here: the extension host patches
 * `http.request` itself (@vscode/proxy-agent), and under `http.proxySupport` "override" (the default) or "fallback"
 * that patch routes node:http requests through the proxy it resolves, whatever their agent. Under "on" it leaves
 * alone a request that brings its own agent, as nodeHttpFetch's do, while the patched global fetch still follows
 * the proxy: "on" keeps the global fetch. test/unit/workbench/node/vscodeProxySupport.test.ts runs both under the real patch.
 */
export type HttpFetchChoice =
  { kind: 'node-http'; fetch: typeof fetch } | { kind: 'global-fetch'; fetch: typeof fetch; reason: string };

/** The environment variables a proxy is configured with (lower case wins in curl and Node; either counts here). */
const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy'] as const;

interface HttpFetchHost {
  env: Readonly<Record<string, string | undefined>>;
  /** VS Code's `http.proxy` setting (the extension), empty or undefined where there is none (the CLI). */
  proxySetting?: string;
  /** VS Code's `http.proxySupport` setting (the extension): "override" (its default), "fallback", "on" or "off". */
  proxySupport?: string;
}

export function chooseHttpFetch(host: HttpFetchHost): HttpFetchChoice {
  const setting = host.proxySetting?.trim();
  if (setting) return { kind: 'global-fetch', fetch: globalFetch, reason: 'the http.proxy setting is set' };
  const variable = PROXY_VARIABLES.find((name) => (host.env[name] ?? '').trim() !== '');
  if (variable) return { kind: 'global-fetch', fetch: globalFetch, reason: `${variable} is set` };
  if (host.proxySupport === 'on') {
    return {
      kind: 'global-fetch',
      fetch: globalFetch,
      reason: 'http.proxySupport is "on", under which VS Code proxies only requests without an agent of their own',
    };
  }
  return { kind: 'node-http', fetch: nodeHttpFetch };
}

/** The global fetch looked up per call, so a host that patches it later (VS Code's proxy support) is still followed. */
const globalFetch: typeof fetch = (input, init) => fetch(input, init);

/** One line for logs and --verbose: which fetch and why. */
export function describeHttpFetch(choice: HttpFetchChoice): string {
  switch (choice.kind) {
    case 'node-http':
      return 'HTTP requests through node:http';
    case 'global-fetch':
      return `HTTP requests through the global fetch (${choice.reason}; node:http does not read proxy settings)`;
    default: {
      const exhaustive: never = choice;
      throw new Error(`unknown fetch choice ${JSON.stringify(exhaustive)}`);
    }
  }
}
