import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { errorMessage } from '../protocol/errors';
import { defaultAuthDir } from '../workbench/node/auth/fileAuthStore';
import { RegistryClient, RegistryError } from '../workbench/registry/client';
import { namesInConfig, uniqueKey, writeMappedServer } from '../workbench/registry/configWrite';
import { describeFinding, unusualFindings } from '../workbench/registry/argumentPolicy';
import {
  describeRunOption,
  reviewRunOption,
  runOptions,
  runsWhere,
  statusNotice,
  suggestKey,
  type RunOption,
} from '../workbench/registry/mapping';
import type { BundleFolder } from '../workbench/registry/mcpb';
import { bundleFolderName, prepareServer } from '../workbench/registry/prepare';
import type { RegistryEntry, ServerJson } from '../workbench/registry/types';
import { escapeForDisplay } from '../workbench/urlPolicy';
import { toJsonText } from '../workbench/display';
import { UsageError, type ParsedArgs } from './args';

export async function runRegistry(
  args: ParsedArgs,
  out: (text: string) => void = (text) => process.stdout.write(text),
  err: (text: string) => void = (text) => process.stderr.write(text),
): Promise<number> {
  try {
    const [action, ...rest] = args.positionals;
    const client = new RegistryClient({
      baseUrl: args.registry ?? process.env.MCP_WORKBENCH_REGISTRY_URL,
      ...(args.timeoutMs ? { timeoutMs: args.timeoutMs } : {}),
    });
    switch (action) {
      case 'search': {
        if (rest.length > 1) throw new UsageError('registry search takes at most one search text (quote it)');
        const result = await client.searchAll(rest[0]);
        for (const rejected of result.rejected)
          err(
            `warning: skipped ${escapeForDisplay(rejected.name)} from ${client.baseUrl}: ${escapeForDisplay(rejected.reason)}\n`,
          );
        out(`${toJsonText(result.entries.map(summary), 2)}\n`);
        return 0;
      }
      case 'show': {
        const name = single(rest, 'registry show needs a server name, e.g. io.github.user/weather');
        const entry = await client.get(name, args.version);
        out(
          `${toJsonText({ ...entry, runsOn: runOptions(entry.server).map(describeRunOption), ...argumentNotes(entry.server) }, 2)}\n`,
        );
        return 0;
      }
      case 'add':
        return await add(
          client,
          single(rest, 'registry add needs a server name, e.g. io.github.user/weather'),
          args,
          out,
          err,
        );
      case undefined:
        throw new UsageError('registry needs search, show or add');
      default:
        throw new UsageError(`unknown registry command "${action}" (search, show or add)`);
    }
  } catch (error) {
    err(`${escapeForDisplay(errorMessage(error))}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}

async function add(
  client: RegistryClient,
  name: string,
  args: ParsedArgs,
  out: (text: string) => void,
  err: (text: string) => void,
): Promise<number> {
  if (!args.config) throw new UsageError('registry add needs --config <mcp.json>: the file to add the server to');
  const configPath = path.resolve(args.config);
  const entry = await client.get(name, args.version);
  const notice = statusNotice(entry);
  if (notice.kind === 'deprecated') err(`warning: ${escapeForDisplay(notice.message)}\n`);
  const option = chooseOption(entry.server, args.via);
  const text = await readIfExists(configPath);
  const taken = namesInConfig(text);
  const key = args.as ?? uniqueKey(suggestKey(entry.server), taken.servers);
  if (args.as && taken.servers.some((used) => used.toLowerCase() === key.toLowerCase())) {
    err(`a server named "${key}" already exists in ${configPath}; choose another --as. Nothing was changed\n`);
    return 1;
  }
  writeMappedServer(text, key, { entry: {}, inputs: [] }); // the file must take an entry before a bundle is fetched
  const mapped = await prepareServer(entry.server, {
    key,
    takenInputIds: taken.inputIds,
    option,
    bundleFolder: nodeBundleFolder,
  });
  for (const finding of mapped.review ? unusualFindings(mapped.review) : [])
    err(
      `warning: ${escapeForDisplay(entry.server.name)}: unusual ${escapeForDisplay(describeFinding(finding))}; written as given\n`,
    );
  if (mapped.bundleRoot)
    err(
      `warning: the MCPB bundle was unpacked into ${escapeForDisplay(mapped.bundleRoot)} on this computer; ${escapeForDisplay(configPath)} runs it from there, so the entry works for you only (keep it out of a shared mcp.json)\n`,
    );
  const updated = writeMappedServer(text, key, mapped);
  // Write a sibling file and rename it over the config, so an interrupted write never leaves half a file.
  const temporary = `${configPath}.${process.pid}.tmp`;
  await fs.mkdir(path.dirname(configPath), { recursive: true });
  await fs.writeFile(temporary, updated, 'utf8');
  await fs.rename(temporary, configPath);
  out(
    `${toJsonText({ name: key, server: entry.server.name, version: entry.server.version, config: configPath, entry: mapped.entry, inputs: mapped.inputs }, 2)}\n`,
  );
  return 0;
}

function chooseOption(server: ServerJson, via: string | undefined): RunOption | undefined {
  if (!via) return undefined;
  const options = runOptions(server);
  const found = options.find((option) =>
    via === 'remote' ? option.kind === 'remote' : option.kind === 'package' && option.pkg.registryType === via,
  );
  if (!found)
    throw new RegistryError(
      'invalid-entry',
      `${server.name} ${server.version} has no ${via} way to run; it offers: ${options.map(describeRunOption).join('; ') || 'nothing'}`,
    );
  return found;
}

/** `arguments`: each way to run with what the argument policy refuses or shows (English), when there is any. */
function argumentNotes(server: ServerJson): { arguments?: Record<string, string[]> } {
  const notes: Record<string, string[]> = {};
  for (const option of runOptions(server)) {
    const findings = reviewRunOption(server, option)?.findings ?? [];
    if (findings.length > 0)
      notes[describeRunOption(option)] = findings.map((finding) => `${finding.verdict}: ${describeFinding(finding)}`);
  }
  return Object.keys(notes).length > 0 ? { arguments: notes } : {};
}

function summary(entry: RegistryEntry): Record<string, unknown> {
  const { server, official } = entry;
  return {
    name: server.name,
    ...(server.title ? { title: server.title } : {}),
    description: server.description,
    version: server.version,
    status: official?.status ?? 'active',
    runsOn: runsWhere(server),
    ...(server.repository ? { repository: server.repository.url } : {}),
    ...(official?.publishedAt ? { publishedAt: official.publishedAt } : {}),
  };
}

function single(rest: readonly string[], message: string): string {
  if (rest.length !== 1 || !rest[0]) throw new UsageError(message);
  return rest[0];
}

async function readIfExists(file: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

/** Bundles live next to the OAuth cache: ~/.config/mcp-workbench/mcpb/<name>@<version>/. */
export function nodeBundleFolder(
  server: ServerJson,
  base = path.join(path.dirname(defaultAuthDir()), 'mcpb'),
): BundleFolder {
  const root = path.join(base, bundleFolderName(server));
  return {
    root,
    separator: path.sep,
    async write(relativePath, data) {
      const target = path.resolve(root, relativePath);
      if (!target.startsWith(root + path.sep)) throw new Error(`the bundle path ${relativePath} leaves ${root}`);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, data);
    },
  };
}
