import type * as ClientModule from '../../protocol/client';
import type * as StdioModule from '../../protocol/node/stdio';
import type * as LaunchModule from '../../workbench/node/launch';

/**
 * The protocol client, the stdio transport and the launcher, loaded when a server is first started or a definition
 * first checked, not at activation: the first screen lists the configured servers, and these were the largest part
 * of what evaluating the core cost at activation (the client with the JSON-RPC library, the stdio transport, the
 * launcher). Imported only through here by the extension (test/unit/launchCore.test.ts checks it).
 */
export interface LaunchCore {
  readonly client: typeof ClientModule;
  readonly stdio: typeof StdioModule;
  readonly launch: typeof LaunchModule;
}

let loaded: LaunchCore | undefined;

/** The modules, evaluated on the first call (synchronously: they are in the bundle, nothing is read from disk). */
export function launchCore(): LaunchCore {
  /* eslint-disable @typescript-eslint/no-require-imports -- evaluated on first use, not when the extension loads (see above) */
  loaded ??= {
    client: require('../../protocol/client') as typeof ClientModule,
    stdio: require('../../protocol/node/stdio') as typeof StdioModule,
    launch: require('../../workbench/node/launch') as typeof LaunchModule,
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  return loaded;
}

/** A stdio transport, or undefined for other transports (none exists before the modules are loaded). */
export function stdioTransportOf(transport: unknown): StdioModule.StdioTransport | undefined {
  return loaded && transport instanceof loaded.stdio.StdioTransport ? transport : undefined;
}
