import { checkExternalUrl } from '../urlPolicy';
import {
  OFFICIAL_META_KEY,
  type KeyValueInput,
  type OfficialMeta,
  type PackageTransport,
  type RegistryArgument,
  type RegistryEntry,
  type RegistryInput,
  type RegistryPackage,
  type RegistryRemote,
  type RegistryRepository,
  type RegistryStatus,
  type ServerJson,
} from './types';
import { isObject } from '../../protocol/guards';

/**
 * Checks a registry's answer against server.json 2025-12-11 and turns it into the shapes of types.ts. A field of
 * the wrong type rejects the entry (naming the server and the field), rather than being guessed at. Beyond the
 * schema, values that would reach further than they say are refused: a `${...}` (mcp.json would expand
 * `${env:SECRET}` into an argument or a header sent to the server), a URL other than http(s), an identifier or a
 * version that starts with "-" (npx, uvx and docker would read it as an option).
 */

export class RegistryEntryError extends Error {
  override readonly name = 'RegistryEntryError';
}

type Json = Record<string, unknown>;

/** Bounds on what one entry may hold, far above real entries, so a hostile one costs little. */
const MAX_TEXT = 4096;
const MAX_ITEMS = 64;
const NAME_PATTERN = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
const STATUSES: readonly RegistryStatus[] = ['active', 'deprecated', 'deleted'];

class Reader {
  constructor(readonly server: string) {}

  fail(path: string, why: string): never {
    throw new RegistryEntryError(`registry entry ${JSON.stringify(this.server)}: ${path} ${why}`);
  }

  text(value: unknown, path: string, options: { required?: boolean; max?: number } = {}): string | undefined {
    if (value === undefined || value === null) {
      if (options.required) this.fail(path, 'is missing');
      return undefined;
    }
    if (typeof value !== 'string') this.fail(path, 'must be a string');
    if (value.length > (options.max ?? MAX_TEXT))
      this.fail(path, `is longer than ${options.max ?? MAX_TEXT} characters`);
    return value;
  }

  /** A string that ends up in mcp.json, where `${...}` is a variable the client would expand. */
  configText(value: unknown, path: string, options: { required?: boolean } = {}): string | undefined {
    const text = this.text(value, path, options);
    if (text?.includes('${'))
      this.fail(
        path,
        'contains "${", which mcp.json would expand (e.g. ${env:NAME} would read your environment); refused',
      );
    return text;
  }

  bool(value: unknown, path: string): boolean {
    if (value === undefined || value === null) return false;
    if (typeof value !== 'boolean') this.fail(path, 'must be true or false');
    return value;
  }

  list(value: unknown, path: string): unknown[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) this.fail(path, 'must be an array');
    if (value.length > MAX_ITEMS) this.fail(path, `has more than ${MAX_ITEMS} items`);
    return value;
  }

  object(value: unknown, path: string): Json {
    if (!isObject(value)) this.fail(path, 'must be an object');
    return value;
  }

  httpUrl(value: unknown, path: string): string {
    const raw = this.text(value, path, { required: true }) as string;
    if (raw.includes('${')) this.fail(path, 'contains "${", which mcp.json would expand; refused');
    // `{name}` placeholders are filled in later; check the URL with them replaced by a plain word.
    const verdict = checkExternalUrl(raw.replace(/\{[A-Za-z0-9_.-]+\}/g, 'x'));
    if (verdict.kind === 'refused') this.fail(path, `is not an acceptable http(s) URL: ${verdict.detail}`);
    return raw;
  }

  input(value: unknown, path: string, depth = 0): RegistryInput {
    const node = this.object(value, path);
    const format = this.text(node.format, `${path}.format`);
    if (format !== undefined && !['string', 'number', 'boolean', 'filepath'].includes(format))
      this.fail(`${path}.format`, `is not one of string, number, boolean, filepath`);
    const choices =
      node.choices === undefined
        ? undefined
        : this.list(node.choices, `${path}.choices`).map(
            (choice, i) => this.configText(choice, `${path}.choices[${i}]`, { required: true }) as string,
          );
    const variables: Record<string, RegistryInput> = {};
    if (node.variables !== undefined) {
      if (depth > 0) this.fail(`${path}.variables`, 'cannot be nested');
      const entries = Object.entries(this.object(node.variables, `${path}.variables`));
      if (entries.length > MAX_ITEMS) this.fail(`${path}.variables`, `has more than ${MAX_ITEMS} entries`);
      for (const [name, variable] of entries) {
        if (!/^[A-Za-z0-9_.-]+$/.test(name))
          this.fail(`${path}.variables`, `has an invalid name ${JSON.stringify(name)}`);
        variables[name] = this.input(variable, `${path}.variables.${name}`, depth + 1);
      }
    }
    return {
      description: this.text(node.description, `${path}.description`),
      isRequired: this.bool(node.isRequired, `${path}.isRequired`),
      isSecret: this.bool(node.isSecret, `${path}.isSecret`),
      ...(format !== undefined ? { format: format as RegistryInput['format'] } : {}),
      value: this.configText(node.value, `${path}.value`),
      default: this.configText(node.default, `${path}.default`),
      placeholder: this.text(node.placeholder, `${path}.placeholder`),
      ...(choices ? { choices } : {}),
      variables,
    };
  }

  keyValue(value: unknown, path: string, kind: 'environment variable' | 'header'): KeyValueInput {
    const base = this.input(value, path);
    const name = this.text((value as Json).name, `${path}.name`, { required: true, max: 256 }) as string;
    const pattern = kind === 'header' ? /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/ : /^[A-Za-z_][A-Za-z0-9_.-]*$/;
    if (!pattern.test(name)) this.fail(`${path}.name`, `is not a valid ${kind} name: ${JSON.stringify(name)}`);
    return { ...base, name };
  }

  argument(value: unknown, path: string): RegistryArgument {
    const base = this.input(value, path);
    const node = value as Json;
    const isRepeated = this.bool(node.isRepeated, `${path}.isRepeated`);
    switch (node.type) {
      case 'positional': {
        const valueHint = this.configText(node.valueHint, `${path}.valueHint`);
        if (valueHint === undefined && base.value === undefined)
          this.fail(path, 'is a positional argument with neither "value" nor "valueHint"');
        return { ...base, type: 'positional', valueHint, isRepeated };
      }
      case 'named': {
        const name = this.configText(node.name, `${path}.name`, { required: true }) as string;
        if (!/^-{1,2}[A-Za-z0-9]/.test(name) || /\s/.test(name))
          this.fail(`${path}.name`, `must be a flag such as --port, got ${JSON.stringify(name)}`);
        return { ...base, type: 'named', name, isRepeated };
      }
      default:
        return this.fail(`${path}.type`, `must be "positional" or "named", got ${JSON.stringify(node.type)}`);
    }
  }

  transport(value: unknown, path: string): PackageTransport {
    const node = this.object(value, path);
    if (node.type === 'stdio') return { type: 'stdio' };
    if (node.type !== 'streamable-http' && node.type !== 'sse')
      return this.fail(`${path}.type`, `must be "stdio", "streamable-http" or "sse", got ${JSON.stringify(node.type)}`);
    // A package's URL usually names localhost with a {port}: only its template is kept, it is never fetched here.
    const url = this.text(node.url, `${path}.url`, { required: true }) as string;
    return {
      type: node.type,
      url,
      headers: this.list(node.headers, `${path}.headers`).map((header, i) =>
        this.keyValue(header, `${path}.headers[${i}]`, 'header'),
      ),
    };
  }

  package(value: unknown, path: string): RegistryPackage {
    const node = this.object(value, path);
    const registryType = this.text(node.registryType, `${path}.registryType`, { required: true, max: 64 }) as string;
    const identifier = this.configText(node.identifier, `${path}.identifier`, { required: true }) as string;
    if (identifier === '' || identifier.startsWith('-') || /\s/.test(identifier))
      this.fail(`${path}.identifier`, `is not a package identifier: ${JSON.stringify(identifier)}`);
    const version = this.configText(node.version, `${path}.version`, { required: true }) as string;
    if (version === '' || version === 'latest' || version.startsWith('-') || /[\s^~<>=*]/.test(version))
      this.fail(`${path}.version`, `must be one specific version, got ${JSON.stringify(version)}`);
    const fileSha256 = this.text(node.fileSha256, `${path}.fileSha256`);
    if (fileSha256 !== undefined && !/^[a-f0-9]{64}$/.test(fileSha256))
      this.fail(`${path}.fileSha256`, 'must be 64 lowercase hex digits');
    const runtimeHint = this.configText(node.runtimeHint, `${path}.runtimeHint`);
    if (runtimeHint !== undefined && !/^[A-Za-z0-9._-]+$/.test(runtimeHint))
      this.fail(`${path}.runtimeHint`, `must be a program name such as npx, got ${JSON.stringify(runtimeHint)}`);
    return {
      registryType,
      registryBaseUrl:
        node.registryBaseUrl === undefined ? undefined : this.httpUrl(node.registryBaseUrl, `${path}.registryBaseUrl`),
      identifier,
      version,
      ...(fileSha256 !== undefined ? { fileSha256 } : {}),
      ...(runtimeHint !== undefined ? { runtimeHint } : {}),
      transport: this.transport(node.transport, `${path}.transport`),
      runtimeArguments: this.list(node.runtimeArguments, `${path}.runtimeArguments`).map((arg, i) =>
        this.argument(arg, `${path}.runtimeArguments[${i}]`),
      ),
      packageArguments: this.list(node.packageArguments, `${path}.packageArguments`).map((arg, i) =>
        this.argument(arg, `${path}.packageArguments[${i}]`),
      ),
      environmentVariables: this.list(node.environmentVariables, `${path}.environmentVariables`).map((env, i) =>
        this.keyValue(env, `${path}.environmentVariables[${i}]`, 'environment variable'),
      ),
    };
  }

  remote(value: unknown, path: string): RegistryRemote {
    const node = this.object(value, path);
    if (node.type !== 'streamable-http' && node.type !== 'sse')
      return this.fail(`${path}.type`, `must be "streamable-http" or "sse", got ${JSON.stringify(node.type)}`);
    const variables = node.variables === undefined ? {} : this.input({ variables: node.variables }, path).variables;
    return {
      type: node.type,
      url: this.httpUrl(node.url, `${path}.url`),
      headers: this.list(node.headers, `${path}.headers`).map((header, i) =>
        this.keyValue(header, `${path}.headers[${i}]`, 'header'),
      ),
      variables,
    };
  }

  repository(value: unknown, path: string): RegistryRepository | undefined {
    if (value === undefined || value === null) return undefined;
    const node = this.object(value, path);
    // Registries send {"url": "", "source": ""} for "no repository".
    if (node.url === '' || node.url === undefined) return undefined;
    return {
      url: this.httpUrl(node.url, `${path}.url`),
      source: this.text(node.source, `${path}.source`, { max: 64 }),
      subfolder: this.text(node.subfolder, `${path}.subfolder`),
    };
  }
}

/** A server.json document (a file being imported, or the `server` of a registry response). */
export function validateServerJson(value: unknown, where = 'server'): ServerJson {
  const name = isObject(value) && typeof value.name === 'string' ? value.name.slice(0, 200) : '(unnamed)';
  const read = new Reader(name);
  const node = read.object(value, where);
  const checkedName = read.text(node.name, `${where}.name`, { required: true, max: 200 }) as string;
  if (!NAME_PATTERN.test(checkedName))
    read.fail(`${where}.name`, 'must be a reverse-DNS name with one "/" (e.g. io.github.user/weather)');
  const websiteUrl =
    node.websiteUrl === undefined || node.websiteUrl === ''
      ? undefined
      : read.httpUrl(node.websiteUrl, `${where}.websiteUrl`);
  return {
    name: checkedName,
    title: read.text(node.title, `${where}.title`, { max: 200 }),
    description: read.text(node.description, `${where}.description`, { required: true }) as string,
    version: read.text(node.version, `${where}.version`, { required: true, max: 255 }) as string,
    ...(websiteUrl !== undefined ? { websiteUrl } : {}),
    repository: read.repository(node.repository, `${where}.repository`),
    packages: read
      .list(node.packages, `${where}.packages`)
      .map((pkg, i) => read.package(pkg, `${where}.packages[${i}]`)),
    remotes: read
      .list(node.remotes, `${where}.remotes`)
      .map((remote, i) => read.remote(remote, `${where}.remotes[${i}]`)),
  };
}

/** One `ServerResponse` of the API: `{ server, _meta }`. */
export function validateEntry(value: unknown): RegistryEntry {
  if (!isObject(value)) throw new RegistryEntryError('a registry entry must be an object with "server"');
  const server = validateServerJson(value.server, 'server');
  const meta = value._meta;
  const official =
    isObject(meta) && isObject(meta[OFFICIAL_META_KEY])
      ? officialMeta(new Reader(server.name), meta[OFFICIAL_META_KEY] as Json)
      : undefined;
  return { server, ...(official ? { official } : {}) };
}

function officialMeta(read: Reader, node: Json): OfficialMeta {
  const status = node.status === undefined ? 'active' : node.status;
  if (!STATUSES.includes(status as RegistryStatus))
    read.fail(`_meta.${OFFICIAL_META_KEY}.status`, `must be one of ${STATUSES.join(', ')}`);
  return {
    status: status as RegistryStatus,
    ...(typeof node.isLatest === 'boolean' ? { isLatest: node.isLatest } : {}),
    publishedAt: read.text(node.publishedAt, 'publishedAt', { max: 64 }),
    updatedAt: read.text(node.updatedAt, 'updatedAt', { max: 64 }),
    statusMessage: read.text(node.statusMessage, 'statusMessage'),
  };
}

/** The name a registry response carries, for messages about an entry that did not validate. */
export function entryNameOf(value: unknown): string {
  const server = isObject(value) ? value.server : undefined;
  return isObject(server) && typeof server.name === 'string' ? server.name.slice(0, 200) : '(unnamed entry)';
}
