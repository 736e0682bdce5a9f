import { mapServer, runOptions, type MappedServer, type RunOption } from './mapping';
import { installMcpb, type BundleFolder } from './mcpb';
import type { ServerJson } from './types';
import { RegistryEntryError } from './validate';

interface PrepareOptions {
  key: string;
  takenInputIds?: readonly string[];
  option?: RunOption;
  /** The folder an MCPB bundle of this server is unpacked into (the host knows where bundles live). */
  bundleFolder?: (server: ServerJson) => BundleFolder;
  fetch?: typeof fetch;
}

/** The mcp.json entry for a server, installing an MCPB bundle first when that is the way chosen. */
export async function prepareServer(server: ServerJson, options: PrepareOptions): Promise<MappedServer> {
  const option = options.option ?? runOptions(server)[0];
  if (option?.kind === 'package' && option.pkg.registryType === 'mcpb' && option.pkg.transport.type === 'stdio') {
    if (!options.bundleFolder) throw new RegistryEntryError(`${server.name}: MCPB bundles cannot be installed here`);
    return installMcpb(server, option.pkg, options.bundleFolder(server), {
      key: options.key,
      takenInputIds: options.takenInputIds,
      fetch: options.fetch,
    });
  }
  return mapServer(server, { key: options.key, takenInputIds: options.takenInputIds, option });
}

/** The folder name of a bundle: the server's name and version with anything but [A-Za-z0-9._-] replaced. */
export function bundleFolderName(server: ServerJson): string {
  return `${server.name}@${server.version}`.replace(/[^A-Za-z0-9._@-]+/g, '_').replace(/^\.+/, '_');
}
