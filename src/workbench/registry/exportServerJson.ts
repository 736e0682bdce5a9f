import type { ServerDefinition } from '../config/mcpConfig';
import { SERVER_SCHEMA_URL } from './types';

/**
 * Export as server.json: an mcp.json entry becomes the skeleton a server author publishes. The launcher tells the
 * package type (npx → npm, uvx → PyPI, docker run → OCI, dnx → NuGet); an HTTP entry becomes a remote. Values are
 * never exported for environment variables or headers (they are often secrets): each becomes a declared input,
 * secret when its name or value says so. What could not be derived is listed in `notes` for the author.
 */

interface ExportedServerJson {
  document: Record<string, unknown>;
  notes: string[];
}

const SECRET_NAME = /(token|secret|password|passwd|api[-_]?key|auth|credential|private)/i;
const INPUT_REFERENCE = /\$\{(input|env):([^}]+)\}/;

export function exportServerJson(
  definition: ServerDefinition,
  options: { namespace?: string } = {},
): ExportedServerJson {
  const notes: string[] = [];
  const document: Record<string, unknown> = {
    $schema: SERVER_SCHEMA_URL,
    name: `${options.namespace ?? 'io.github.your-name'}/${definition.name.replace(/[^A-Za-z0-9._-]+/g, '-')}`,
    description: `What ${definition.name} does, in at most 100 characters`,
    version: '0.1.0',
  };
  if (!options.namespace)
    notes.push('set "name" to your namespace (e.g. io.github.<user>/<server>) and write the "description"');
  if (definition.kind === 'http') {
    const headers = Object.entries(definition.headers).map(([name, value]) => declaredInput(name, value, 'header'));
    document.remotes = [
      {
        type: definition.transport === 'sse' ? 'sse' : 'streamable-http',
        url: definition.url,
        ...(headers.length > 0 ? { headers } : {}),
      },
    ];
    return { document, notes };
  }
  const pkg = packageOf(definition.command, definition.args);
  if (!pkg) {
    notes.push(
      `"${definition.command}" is not a launcher of a published package (npx, uvx, docker run, dnx): fill in "packages" by hand`,
    );
    document.packages = [];
    return { document, notes };
  }
  if (pkg.version) document.version = pkg.version;
  else notes.push(`the package ${pkg.identifier} has no pinned version: set "version" in packages[0]`);
  const env = Object.entries(definition.env).map(([name, value]) =>
    declaredInput(name, value ?? '', 'environment variable'),
  );
  document.packages = [
    {
      registryType: pkg.registryType,
      identifier: pkg.identifier,
      version: pkg.version ?? '0.1.0',
      transport: { type: 'stdio' },
      ...(pkg.rest.length > 0 ? { packageArguments: pkg.rest.map(argumentOf) } : {}),
      ...(env.length > 0 ? { environmentVariables: env } : {}),
    },
  ];
  return { document, notes };
}

interface DerivedPackage {
  registryType: 'npm' | 'pypi' | 'oci' | 'nuget';
  identifier: string;
  version?: string;
  rest: string[];
}

function packageOf(command: string, args: readonly string[]): DerivedPackage | undefined {
  const program = (command.split(/[\\/]/).pop() ?? command).replace(/\.(cmd|exe)$/i, '');
  const firstNonOption = (list: readonly string[]) => list.findIndex((arg) => !arg.startsWith('-'));
  switch (program) {
    case 'npx': {
      const at = firstNonOption(args);
      if (at === -1) return undefined;
      const match = /^(@?[^@]+)(?:@(.+))?$/.exec(args[at]);
      return match
        ? { registryType: 'npm', identifier: match[1], version: match[2], rest: args.slice(at + 1) }
        : undefined;
    }
    case 'uvx': {
      const at = firstNonOption(args);
      if (at === -1) return undefined;
      const [identifier, version] = args[at].split('==');
      return { registryType: 'pypi', identifier, version, rest: args.slice(at + 1) };
    }
    case 'dnx': {
      const at = firstNonOption(args);
      if (at === -1) return undefined;
      const [identifier, version] = args[at].split('@');
      const separator = args.indexOf('--');
      return { registryType: 'nuget', identifier, version, rest: separator === -1 ? [] : args.slice(separator + 1) };
    }
    case 'docker':
    case 'podman': {
      if (args[0] !== 'run') return undefined;
      // Skip docker's own options (and the values of those that take one) up to the image.
      let i = 1;
      while (i < args.length && args[i].startsWith('-'))
        i += /^(-e|--env|-v|--volume|-p|--publish|--name|--network|-w|--workdir|-u|--user)$/.test(args[i]) ? 2 : 1;
      if (i >= args.length) return undefined;
      const image = args[i];
      const tagAt = image.lastIndexOf(':');
      const hasTag = tagAt > image.lastIndexOf('/');
      return {
        registryType: 'oci',
        identifier: hasTag ? image.slice(0, tagAt) : image,
        version: hasTag ? image.slice(tagAt + 1) : undefined,
        rest: args.slice(i + 1),
      };
    }
    default:
      return undefined;
  }
}

function argumentOf(arg: string): Record<string, unknown> {
  const reference = INPUT_REFERENCE.exec(arg);
  if (reference) return { type: 'positional', valueHint: reference[2], isRequired: true };
  return { type: 'positional', value: arg };
}

function declaredInput(name: string, value: string, kind: 'header' | 'environment variable'): Record<string, unknown> {
  const secret = SECRET_NAME.test(name) || INPUT_REFERENCE.test(value);
  return { name, description: `The ${name} ${kind}`, isRequired: true, ...(secret ? { isSecret: true } : {}) };
}
