import type { InputEntry } from '../config/jsoncEdit';
import {
  describeFinding,
  refusedFindings,
  reviewArguments,
  type ArgumentFinding,
  type ArgumentReview,
  type Runtime,
} from './argumentPolicy';
import { InputCollector } from './inputs';
import type {
  KeyValueInput,
  RegistryArgument,
  RegistryEntry,
  RegistryPackage,
  RegistryRemote,
  ServerJson,
} from './types';
import { RegistryEntryError } from './validate';

/**
 * server.json → one mcp.json entry (plus the `inputs` it refers to). Commands are argv arrays, never a shell line;
 * the program is chosen by the package type (npx, uvx, docker, dnx), and a `runtimeHint` is only followed when it
 * names another launcher of that type, so an entry cannot make us run `bash`. Its arguments and environment names
 * pass argumentPolicy.ts: a refused one refuses the entry (ArgumentsRefusedError), unusual ones come back in
 * `review` for the host to show before the entry is written.
 */

export type RunOption =
  { kind: 'package'; index: number; pkg: RegistryPackage } | { kind: 'remote'; index: number; remote: RegistryRemote };

export interface MappedServer {
  /** What goes under `servers.<key>`. */
  entry: Record<string, unknown>;
  /** The `inputs` definitions the entry's `${input:…}` refer to, to add to the same file. */
  inputs: InputEntry[];
  /** What argumentPolicy.ts said of the package's arguments (nothing refused, or it would have thrown); none for a remote. */
  review?: ArgumentReview;
  /**
   * The folder an MCPB bundle was unpacked into. It exists on this computer only, so the entry works for this person
   * only: it belongs in their own configuration, not in a workspace's shared mcp.json.
   */
  bundleRoot?: string;
}

/** An entry refused for its arguments: the message names each argument and why; `findings` are for the host. */
export class ArgumentsRefusedError extends RegistryEntryError {
  constructor(
    readonly serverName: string,
    readonly findings: readonly ArgumentFinding[],
  ) {
    super(`${serverName} is not added: its ${findings.map(describeFinding).join('; ')}`);
  }
}

interface MapOptions {
  /** The entry's key in mcp.json; input ids start with it. */
  key: string;
  /** Input ids the target file already defines. */
  takenInputIds?: readonly string[];
  /** Which package or remote; the first one unless given. */
  option?: RunOption;
}

/** The launchers a package type may run with; the first is the default. */
const LAUNCHERS: Readonly<Record<string, readonly Runtime[]>> = {
  npm: ['npx', 'bunx', 'pnpx'],
  pypi: ['uvx', 'pipx'],
  oci: ['docker', 'podman'],
  nuget: ['dnx'],
};

const TYPE_LABELS: Readonly<Record<string, string>> = {
  npm: 'npm',
  pypi: 'PyPI',
  oci: 'OCI',
  nuget: 'NuGet',
  mcpb: 'MCPB',
};

export function runOptions(server: ServerJson): RunOption[] {
  return [
    ...server.packages.map((pkg, index) => ({ kind: 'package' as const, index, pkg })),
    ...server.remotes.map((remote, index) => ({ kind: 'remote' as const, index, remote })),
  ];
}

/** "npm", "PyPI", …, "remote": where the server runs, for lists. */
export function runsWhere(server: ServerJson): string[] {
  const kinds = server.packages.map((pkg) => TYPE_LABELS[pkg.registryType] ?? pkg.registryType);
  if (server.remotes.length > 0) kinds.push('remote');
  return [...new Set(kinds)];
}

export function describeRunOption(option: RunOption): string {
  switch (option.kind) {
    case 'package':
      return `${TYPE_LABELS[option.pkg.registryType] ?? option.pkg.registryType} ${option.pkg.identifier}@${option.pkg.version}`;
    case 'remote':
      return `remote (${option.remote.type === 'sse' ? 'SSE' : 'Streamable HTTP'}) ${option.remote.url}`;
  }
}

/** A name for the mcp.json key: the part after the "/", e.g. "weather" for io.github.user/weather. */
export function suggestKey(server: ServerJson): string {
  const tail = server.name.split('/').pop() ?? server.name;
  return tail.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[-.]+|-+$/g, '') || 'server';
}

/**
 * What must be said before adding, or a refusal: a deleted entry is not added, a deprecated one is only with a
 * warning shown first.
 */
export function statusNotice(entry: RegistryEntry): { kind: 'ok' } | { kind: 'deprecated'; message: string } {
  const meta = entry.official;
  const why = meta?.statusMessage ? `: ${meta.statusMessage}` : '';
  switch (meta?.status ?? 'active') {
    case 'active':
      return { kind: 'ok' };
    case 'deprecated':
      return {
        kind: 'deprecated',
        message: `${entry.server.name} ${entry.server.version} is deprecated in the registry${why}`,
      };
    case 'deleted':
      throw new RegistryEntryError(
        `${entry.server.name} ${entry.server.version} was deleted from the registry${why}; it is not added`,
      );
  }
}

/** The mcp.json entry for a package other than MCPB (see mcpb.ts), or a remote. */
export function mapServer(server: ServerJson, options: MapOptions): MappedServer {
  const option = options.option ?? runOptions(server)[0];
  if (!option)
    throw new RegistryEntryError(`${server.name} lists neither packages nor remotes, so there is nothing to run`);
  const collector = new InputCollector(options.key, server.title ?? server.name, options.takenInputIds);
  if (option.kind === 'remote') return { entry: remoteEntry(option.remote, collector), inputs: collector.inputs };
  const { entry, review } = packageEntry(server, option.pkg, collector);
  return { entry, inputs: collector.inputs, review };
}

function remoteEntry(remote: RegistryRemote, collector: InputCollector): Record<string, unknown> {
  const url = collector.fillVariables(remote.url, remote.variables);
  const headers = keyValues(remote.headers, collector);
  return { type: remote.type === 'sse' ? 'sse' : 'http', url, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
}

function packageEntry(
  server: ServerJson,
  pkg: RegistryPackage,
  collector: InputCollector,
): { entry: Record<string, unknown>; review: ArgumentReview } {
  if (pkg.transport.type !== 'stdio') {
    throw new RegistryEntryError(
      `${server.name}: the ${pkg.registryType} package ${pkg.identifier} serves ${pkg.transport.type} on ${pkg.transport.url} once started; ` +
        'MCP Workbench adds packages that speak stdio, so choose a remote of this server or add it by hand',
    );
  }
  if (pkg.registryType === 'mcpb')
    throw new RegistryEntryError(`${server.name}: an MCPB package is downloaded and verified first (installMcpb)`);
  const launchers = launchersOf(pkg);
  if (!launchers)
    throw new RegistryEntryError(
      `${server.name}: packages of type ${JSON.stringify(pkg.registryType)} cannot be run by MCP Workbench (npm, pypi, oci, nuget and mcpb can)`,
    );
  const command = launcherOf(pkg, launchers);
  const runtimeArgs = argv(pkg.runtimeArguments, collector);
  const packageArgs = argv(pkg.packageArguments, collector);
  const env = keyValues(pkg.environmentVariables, collector);
  const review = enforce(server, {
    runtime: command,
    runtimeArgs,
    packageArgs,
    environment: pkg.environmentVariables.map((variable) => variable.name),
  });
  const withEnv = (entry: Record<string, unknown>) => ({
    entry: Object.keys(env).length > 0 ? { ...entry, env } : entry,
    review,
  });
  switch (pkg.registryType) {
    case 'npm': {
      // npx asks "Ok to proceed?" on stdin, which is the protocol stream: -y answers it.
      const yes = command === 'npx' && !runtimeArgs.includes('-y') && !runtimeArgs.includes('--yes') ? ['-y'] : [];
      return withEnv({
        type: 'stdio',
        command,
        args: [...yes, ...runtimeArgs, `${pkg.identifier}@${pkg.version}`, ...packageArgs],
      });
    }
    case 'pypi': {
      const run = command === 'pipx' ? ['run'] : [];
      return withEnv({
        type: 'stdio',
        command,
        args: [...run, ...runtimeArgs, `${pkg.identifier}==${pkg.version}`, ...packageArgs],
      });
    }
    case 'oci': {
      // -i keeps stdin open for the protocol; --rm leaves no container behind; -e NAME passes each variable through.
      const passEnv = Object.keys(env).flatMap((name) => ['-e', name]);
      return withEnv({
        type: 'stdio',
        command,
        args: ['run', '-i', '--rm', ...runtimeArgs, ...passEnv, imageReference(pkg), ...packageArgs],
      });
    }
    case 'nuget':
      return withEnv({
        type: 'stdio',
        command,
        args: [
          ...runtimeArgs,
          `${pkg.identifier}@${pkg.version}`,
          '--yes',
          ...(packageArgs.length > 0 ? ['--', ...packageArgs] : []),
        ],
      });
    default:
      throw new RegistryEntryError(
        `${server.name}: packages of type ${JSON.stringify(pkg.registryType)} cannot be run by MCP Workbench`,
      );
  }
}

/** The launchers of the package's type (own keys only: a registryType "constructor" is no type). */
function launchersOf(pkg: RegistryPackage): readonly Runtime[] | undefined {
  return Object.hasOwn(LAUNCHERS, pkg.registryType) ? LAUNCHERS[pkg.registryType] : undefined;
}

/** The launcher the mapping runs a package with: the `runtimeHint` when it is one of the type's, else the first. */
function launcherOf(pkg: RegistryPackage, launchers: readonly Runtime[]): Runtime {
  return launchers.find((launcher) => launcher === pkg.runtimeHint) ?? launchers[0];
}

/** The policy's review, or the entry refused with every refused argument named. */
export function enforce(server: ServerJson, input: Parameters<typeof reviewArguments>[0]): ArgumentReview {
  const review = reviewArguments(input);
  const refused = refusedFindings(review);
  if (refused.length > 0) throw new ArgumentsRefusedError(server.name, refused);
  return review;
}

/**
 * What the policy says of one way to run a server, without writing or refusing anything: for the registry browser's
 * detail and the add confirmation. Undefined for a remote or a package type nothing runs.
 */
export function reviewRunOption(server: ServerJson, option: RunOption): ArgumentReview | undefined {
  if (option.kind === 'remote') return undefined;
  const { pkg } = option;
  // The words are what the mapping would write; the inputs it would add are thrown away.
  const collector = new InputCollector('review', server.name);
  const packageArgs = argv(pkg.packageArguments, collector);
  const environment = pkg.environmentVariables.map((variable) => variable.name);
  // A bundle runs its manifest's command: the entry's runtime arguments are not written (mcpb.ts), so not judged.
  if (pkg.registryType === 'mcpb')
    return reviewArguments({ runtime: 'mcpb', runtimeArgs: [], packageArgs, environment });
  const launchers = launchersOf(pkg);
  if (!launchers) return undefined;
  return reviewArguments({
    runtime: launcherOf(pkg, launchers),
    runtimeArgs: argv(pkg.runtimeArguments, collector),
    packageArgs,
    environment,
  });
}

/** `image:version`, unless the identifier already pins a tag or a digest. */
function imageReference(pkg: RegistryPackage): string {
  const lastSegment = pkg.identifier.split('/').pop() ?? pkg.identifier;
  return lastSegment.includes(':') || pkg.identifier.includes('@')
    ? pkg.identifier
    : `${pkg.identifier}:${pkg.version}`;
}

/**
 * Arguments in order. A positional one is its value; a named one is its flag followed by its value, or the flag
 * alone when it has none (a switch such as --stdio). An optional argument with no value and no default is left out
 * (positional), since there is nothing to pass.
 */
export function argv(args: readonly RegistryArgument[], collector: InputCollector): string[] {
  return args.flatMap((arg) => {
    if (arg.type === 'positional') {
      const value = collector.resolve(arg, arg.valueHint ?? 'argument');
      return value === undefined ? [] : [value];
    }
    const value = collector.resolve(arg, arg.name.replace(/^-+/, ''));
    return value === undefined ? [arg.name] : [arg.name, value];
  });
}

function keyValues(items: readonly KeyValueInput[], collector: InputCollector): Record<string, string> {
  const result: Record<string, string> = {};
  for (const item of items) {
    const value = collector.resolve(item, item.name);
    if (value !== undefined) result[item.name] = value;
  }
  return result;
}
