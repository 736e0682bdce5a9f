/**
 * The `server.json` format (schema 2025-12-11) and the generic registry API's responses (`/v0.1/servers`), as this
 * client holds them after validation (validate.ts): optional lists are present (empty when absent), booleans are
 * booleans. Everything here came from a registry, so it is untrusted data even after validation: validation only
 * says it has the right shape and no value that could reach further than it says.
 */

export const SERVER_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
export const OFFICIAL_META_KEY = 'io.modelcontextprotocol.registry/official';
export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

/** An `Input`: a value the person may have to give (an argument, an environment variable, a header, a variable). */
export interface RegistryInput {
  description?: string;
  isRequired: boolean;
  isSecret: boolean;
  format?: 'string' | 'number' | 'boolean' | 'filepath';
  /** Fixed by the publisher; `{name}` placeholders are replaced by the matching `variables`. */
  value?: string;
  default?: string;
  placeholder?: string;
  choices?: string[];
  variables: Record<string, RegistryInput>;
}

export type RegistryArgument =
  | (RegistryInput & { type: 'positional'; valueHint?: string; isRepeated: boolean })
  | (RegistryInput & { type: 'named'; name: string; isRepeated: boolean });

/** An environment variable or an HTTP header. */
export interface KeyValueInput extends RegistryInput {
  name: string;
}

type RemoteType = 'streamable-http' | 'sse';

export type PackageTransport = { type: 'stdio' } | { type: RemoteType; url: string; headers: KeyValueInput[] };

export interface RegistryRemote {
  type: RemoteType;
  url: string;
  headers: KeyValueInput[];
  variables: Record<string, RegistryInput>;
}

export interface RegistryPackage {
  /** npm, pypi, oci, nuget, mcpb; other values are kept, and refused when someone tries to run them. */
  registryType: string;
  registryBaseUrl?: string;
  identifier: string;
  version: string;
  fileSha256?: string;
  runtimeHint?: string;
  transport: PackageTransport;
  runtimeArguments: RegistryArgument[];
  packageArguments: RegistryArgument[];
  environmentVariables: KeyValueInput[];
}

export interface RegistryRepository {
  url: string;
  source?: string;
  subfolder?: string;
}

export interface ServerJson {
  name: string;
  title?: string;
  description: string;
  version: string;
  websiteUrl?: string;
  repository?: RegistryRepository;
  packages: RegistryPackage[];
  remotes: RegistryRemote[];
}

export type RegistryStatus = 'active' | 'deprecated' | 'deleted';

/** `_meta["io.modelcontextprotocol.registry/official"]`: what the registry itself says about the entry. */
export interface OfficialMeta {
  status: RegistryStatus;
  isLatest?: boolean;
  publishedAt?: string;
  updatedAt?: string;
  statusMessage?: string;
}

/** One `ServerResponse`: the publisher's server.json and the registry's metadata. */
export interface RegistryEntry {
  server: ServerJson;
  official?: OfficialMeta;
}

export interface RegistryPage {
  entries: RegistryEntry[];
  /** Entries the registry sent that failed validation, each with its reason (shown, not silently dropped). */
  rejected: { name: string; reason: string }[];
  nextCursor?: string;
}
