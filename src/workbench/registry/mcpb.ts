import { InputLimitError, readBytesCapped } from '../../protocol/limits/inputLimits';
import { checkExternalUrl } from '../urlPolicy';
import { InputCollector } from './inputs';
import { argv, enforce, type MappedServer } from './mapping';
import type { RegistryPackage, ServerJson } from './types';
import { RegistryEntryError } from './validate';
import { readZip } from './zip';
import { isObject } from '../../protocol/guards';

/**
 * An MCPB package: the bundle is downloaded (bounded), its SHA-256 is checked against the registry's `fileSha256`
 * before a byte of it is unpacked, it is unpacked into its own folder, and its manifest's `server.mcp_config`
 * becomes the entry (`${__dirname}` → that folder, `${user_config.x}` → an input). Nothing is run here: the
 * server starts later through the usual first-start consent.
 */

/** Where a host keeps unpacked bundles; paths are relative to `root`, which the entry's command line names. */
export interface BundleFolder {
  /** The folder's absolute path, as it goes into the command line. */
  root: string;
  /** The host's path separator, for `${pathSeparator}`. */
  separator: string;
  write(relativePath: string, data: Uint8Array): Promise<void>;
}

interface McpbOptions {
  key: string;
  takenInputIds?: readonly string[];
  fetch?: typeof fetch;
  timeoutMs?: number;
  maxBytes?: number;
}

const MAX_BUNDLE_BYTES = 256 * 1024 * 1024;

export async function installMcpb(
  server: ServerJson,
  pkg: RegistryPackage,
  folder: BundleFolder,
  options: McpbOptions,
): Promise<MappedServer> {
  const where = `${server.name}: the MCPB bundle ${pkg.identifier}`;
  // Its arguments are judged before anything is downloaded (a throwaway collector: only the words matter here).
  const review = enforce(server, {
    runtime: 'mcpb',
    runtimeArgs: [],
    packageArgs: argv(pkg.packageArguments, new InputCollector('review', server.name)),
    environment: pkg.environmentVariables.map((variable) => variable.name),
  });
  if (!pkg.fileSha256)
    throw new RegistryEntryError(`${where} has no fileSha256, so it cannot be verified; it is not installed`);
  const url = bundleUrl(pkg.identifier, where);
  const bytes = await download(url, where, options);
  const digest = await sha256Hex(bytes);
  if (digest !== pkg.fileSha256)
    throw new RegistryEntryError(
      `${where} does not match its fileSha256 (expected ${pkg.fileSha256}, downloaded ${digest}); nothing was installed`,
    );
  const files = await readZip(bytes).catch((error: Error) => {
    throw new RegistryEntryError(`${where} is not a readable bundle: ${error.message}`);
  });
  const manifestFile = files.find((file) => file.path === 'manifest.json');
  if (!manifestFile) throw new RegistryEntryError(`${where} has no manifest.json`);
  const collector = new InputCollector(options.key, server.title ?? server.name, options.takenInputIds);
  const config = mcpConfigOf(manifestFile.data, where, folder, collector);
  for (const file of files) await folder.write(file.path, file.data);
  const args = [...config.args, ...argv(pkg.packageArguments, collector)];
  const env = { ...config.env };
  for (const variable of pkg.environmentVariables) {
    const value = collector.resolve(variable, variable.name);
    if (value !== undefined) env[variable.name] = value;
  }
  return {
    entry: { type: 'stdio', command: config.command, args, ...(Object.keys(env).length > 0 ? { env } : {}) },
    inputs: collector.inputs,
    review,
    bundleRoot: folder.root,
  };
}

function bundleUrl(identifier: string, where: string): string {
  const verdict = checkExternalUrl(identifier);
  if (verdict.kind === 'refused')
    throw new RegistryEntryError(`${where}: the identifier must be a download URL (${verdict.detail})`);
  const parsed = new URL(verdict.url);
  // Plain http only to this machine: anyone on the way could swap a bundle (the hash would catch it, but say so early).
  if (parsed.protocol === 'http:' && !['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname))
    throw new RegistryEntryError(`${where}: the download URL must be https`);
  return verdict.url;
}

async function download(url: string, where: string, options: McpbOptions): Promise<Uint8Array> {
  const limit = options.maxBytes ?? MAX_BUNDLE_BYTES;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 120_000) });
  } catch (error) {
    throw new RegistryEntryError(
      `${where} could not be downloaded from ${url}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new RegistryEntryError(`${where} could not be downloaded: ${url} answered HTTP ${response.status}`);
  }
  if (Number(response.headers.get('content-length')) > limit || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    if (response.body) throw new InputLimitError(`${where}`, limit, 'maxMessageBytes');
    return new Uint8Array();
  }
  return readBytesCapped(
    response.body,
    limit,
    () => new RegistryEntryError(`${where} is larger than ${limit} bytes; download stopped`),
  );
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes.slice());
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

interface McpConfig {
  command: string;
  args: string[];
  env: Record<string, string>;
}

type Json = Record<string, unknown>;

/** The manifest's `server.mcp_config` with its MCPB variables turned into paths and mcp.json inputs. */
function mcpConfigOf(data: Uint8Array, where: string, folder: BundleFolder, collector: InputCollector): McpConfig {
  let manifest: unknown;
  try {
    manifest = JSON.parse(new TextDecoder().decode(data));
  } catch (error) {
    throw new RegistryEntryError(`${where}: manifest.json is not JSON (${(error as Error).message})`);
  }
  const config = isObject(manifest) && isObject(manifest.server) ? manifest.server.mcp_config : undefined;
  if (!isObject(config) || typeof config.command !== 'string' || config.command === '')
    throw new RegistryEntryError(`${where}: manifest.json has no server.mcp_config.command`);
  const args = config.args ?? [];
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string'))
    throw new RegistryEntryError(`${where}: server.mcp_config.args must be strings`);
  const env = config.env ?? {};
  if (!isObject(env) || !Object.values(env).every((value) => typeof value === 'string'))
    throw new RegistryEntryError(`${where}: server.mcp_config.env must map names to strings`);
  const userConfig =
    isObject(manifest) && isObject((manifest as Json).user_config) ? ((manifest as Json).user_config as Json) : {};
  const expand = (text: string) => expandMcpbVariables(text, where, folder, userConfig, collector);
  return {
    command: expand(config.command),
    args: args.map(expand),
    env: Object.fromEntries(
      Object.entries(env as Record<string, string>).map(([name, value]) => [name, expand(value)]),
    ),
  };
}

function expandMcpbVariables(
  text: string,
  where: string,
  folder: BundleFolder,
  userConfig: Json,
  collector: InputCollector,
): string {
  return text.replace(/\$\{([^}]*)\}/g, (_whole, name: string) => {
    if (name === '__dirname') return folder.root;
    if (name === 'HOME') return '${userHome}';
    if (name === '/' || name === 'pathSeparator') return folder.separator;
    if (name.startsWith('user_config.')) {
      const key = name.slice('user_config.'.length);
      const option = userConfig[key];
      if (!isObject(option))
        throw new RegistryEntryError(`${where}: manifest.json uses \${${name}} but declares no user_config.${key}`);
      const fallback =
        typeof option.default === 'string' || typeof option.default === 'number' || typeof option.default === 'boolean'
          ? String(option.default)
          : undefined;
      if (fallback?.includes('${'))
        throw new RegistryEntryError(`${where}: user_config.${key}.default contains "\${"; refused`);
      return (
        collector.resolve(
          {
            description:
              typeof option.description === 'string'
                ? option.description
                : typeof option.title === 'string'
                  ? option.title
                  : key,
            isRequired: true,
            isSecret: option.sensitive === true,
            default: fallback,
            variables: {},
          },
          key,
        ) ?? ''
      );
    }
    throw new RegistryEntryError(`${where}: manifest.json uses \${${name}}, which MCP Workbench does not provide`);
  });
}
