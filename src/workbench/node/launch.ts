import { readFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { staticHeaders, withStaticHeaders, type HttpAuthorizer } from '../../protocol/auth/authorizer';
import type { Transport } from '../../protocol/transports/transport';
import type { InputLimits } from '../../protocol/limits/inputLimits';
import { createHttpTransport } from '../../protocol/transports/http';
import { buildEnvironment, StdioTransport } from '../../protocol/node/stdio';
import { resolveCommand, stdioLaunch, type CommandResolution, type StdioLaunch } from './commandResolution';
import type { ServerDefinition } from '../config/mcpConfig';
import { parseEnvFile, resolveVariables, type VariableContext } from '../config/variables';
import { isSecretKey } from '../secrets';

export type ResolvedServer = ServerDefinition;

/** A resolved definition and the values that must never appear in a log (see `resolveServerWithSecrets`). */
export interface ResolvedWithSecrets {
  resolved: ResolvedServer;
  secrets: string[];
}

/**
 * Resolves a definition and collects, at resolution time, every value that came from the person's data: values read
 * from `envFile`, substituted from `${env:...}` or `${input:...}`, every header value, and env values under names that
 * say they are secret. Logs, traces, errors and history mask these by value, whatever the variable or header is
 * called (`COLOR=<token>` included).
 */
export async function resolveServerWithSecrets(
  definition: ServerDefinition,
  context: VariableContext,
): Promise<ResolvedWithSecrets> {
  const secrets = new Set<string>();
  const collect = (value: string) => {
    if (value !== '') secrets.add(value);
  };
  const resolved = await resolveServerDefinition(
    definition,
    {
      ...context,
      revealed: (value) => {
        collect(value);
        context.revealed?.(value);
      },
    },
    collect,
  );
  if (resolved.kind === 'http') for (const value of Object.values(resolved.headers)) collect(value);
  // A value written literally in the file under a name that says it is secret (`GITHUB_TOKEN: "ghp_..."`).
  if (resolved.kind === 'stdio')
    for (const [key, value] of Object.entries(resolved.env)) if (value !== null && isSecretKey(key)) collect(value);
  return { resolved, secrets: [...secrets] };
}

/**
 * What a definition will run, resolved without asking the person anything and without reading any file: `${input:...}`
 * stays as written and `envFile` is named, not read. A consent dialog shows this before any prompt or file read, so a
 * workspace cannot make VS Code open input boxes or read files on its behalf before the person agreed. The values
 * substituted from `${env:...}` are returned as secrets, for the dialog (and its remembered fingerprint) to mask.
 */
export async function previewServerDefinition(
  definition: ServerDefinition,
  context: Omit<VariableContext, 'input'>,
): Promise<ResolvedWithSecrets> {
  const secrets = new Set<string>();
  const placeholder = (id: string) => `\${input:${id}}`;
  const previewContext: VariableContext = {
    ...context,
    input: async (id) => placeholder(id),
    revealed: (value) => {
      if (/^\$\{input:[^}]*\}$/.test(value) || value === '') return;
      secrets.add(value);
      context.revealed?.(value);
    },
  };
  const withoutFile = definition.kind === 'stdio' ? { ...definition, envFile: undefined } : definition;
  let preview = await resolveServerDefinition(withoutFile, previewContext);
  if (definition.kind === 'stdio' && preview.kind === 'stdio' && definition.envFile) {
    preview = { ...preview, envFile: await resolveVariables(definition.envFile, previewContext) };
  }
  return { resolved: preview, secrets: [...secrets] };
}

/** Substitutes variables everywhere a definition can hold them and merges `envFile` under `env`. */
export async function resolveServerDefinition(
  definition: ServerDefinition,
  context: VariableContext,
  fromEnvFile?: (value: string) => void,
): Promise<ResolvedServer> {
  const resolve = (text: string) => resolveVariables(text, context);
  switch (definition.kind) {
    case 'stdio': {
      const env: Record<string, string | null> = {};
      if (definition.envFile) {
        const file = await resolve(definition.envFile);
        let text: string;
        try {
          text = await readFile(file, 'utf8');
        } catch (error) {
          throw new Error(`cannot read envFile ${file}: ${(error as Error).message}`);
        }
        const values = parseEnvFile(text);
        if (fromEnvFile) for (const value of Object.values(values)) fromEnvFile(value);
        Object.assign(env, values);
      }
      for (const [key, value] of Object.entries(definition.env))
        env[key] = value === null ? null : await resolve(value);
      const cwd = definition.cwd ? untildify(await resolve(definition.cwd)) : context.workspaceFolder;
      return {
        ...definition,
        command: untildify(await resolve(definition.command)),
        args: await Promise.all(definition.args.map(resolve)),
        env,
        cwd,
        envFile: undefined,
      };
    }
    case 'http': {
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(definition.headers)) headers[key] = await resolve(value);
      const oauth = definition.oauth && {
        ...definition.oauth,
        ...(definition.oauth.clientId !== undefined ? { clientId: await resolve(definition.oauth.clientId) } : {}),
        ...(definition.oauth.clientSecret !== undefined
          ? { clientSecret: await resolve(definition.oauth.clientSecret) }
          : {}),
      };
      return { ...definition, url: await resolve(definition.url), headers, ...(oauth ? { oauth } : {}) };
    }
    default: {
      const exhaustive: never = definition;
      throw new Error(`unknown server kind ${JSON.stringify(exhaustive)}`);
    }
  }
}

interface TransportTuning {
  maxMessageBytes?: number;
  /** The input limits of this host (CLI flags, VS Code settings): stdio lines, HTTP bodies, SSE lines. */
  limits?: Partial<InputLimits>;
  /** For an HTTP server: the fetch of this host (see chooseHttpFetch), observed while the Protocol view is open; the global fetch when absent. */
  fetch?: typeof fetch;
  shutdownGraceMs?: number;
  /** What to spawn for a stdio server instead of its command and args as written (see `planStdioLaunch`). */
  launch?: StdioLaunch;
  /** For an HTTP server: who signs in (OAuth); the configured headers go out beneath its credentials. */
  authorizer?: HttpAuthorizer;
}

export interface LaunchHost {
  platform: NodeJS.Platform;
  /** The environment the host runs in; the server's own `env` is applied over it. */
  env: Readonly<Record<string, string | undefined>>;
  /** PATH folders of the host application itself, left out of "not found" messages (see CommandResolutionOptions). */
  isHostFolder?: (directory: string) => boolean;
}

type StdioLaunchPlan = { kind: 'ready'; launch: StdioLaunch } | Extract<CommandResolution, { kind: 'not-found' }>;

/**
 * Finds a stdio server's command with the environment and cwd it will run with, and says what to spawn: on Windows a
 * `.cmd`/`.bat` shim (`npx`) goes through cmd.exe with safe quoting (throws when an argument cannot be quoted safely).
 */
export async function planStdioLaunch(
  server: Extract<ResolvedServer, { kind: 'stdio' }>,
  host: LaunchHost = { platform: process.platform, env: process.env },
): Promise<StdioLaunchPlan> {
  const env = buildEnvironment(host.env, server.env, host.platform);
  const resolution = await resolveCommand(server.command, {
    env,
    cwd: server.cwd,
    platform: host.platform,
    isHostFolder: host.isHostFolder,
  });
  if (resolution.kind === 'not-found') return resolution;
  const hostVariable = (name: string) => Object.entries(host.env).find(([key]) => key.toUpperCase() === name)?.[1];
  // Without ComSpec, cmd.exe by its full path: a bare "cmd.exe" would be searched for in the current directory first.
  const systemRoot = hostVariable('SYSTEMROOT');
  const comSpec = hostVariable('COMSPEC') || (systemRoot ? `${systemRoot}\\System32\\cmd.exe` : undefined);
  return { kind: 'ready', launch: stdioLaunch(resolution, server.args, comSpec) };
}

/** The executable a stdio server's command resolves to, with the env and cwd it will run with (for consent dialogs). */
export async function findExecutable(
  server: Extract<ResolvedServer, { kind: 'stdio' }>,
  host: LaunchHost = { platform: process.platform, env: process.env },
): Promise<CommandResolution> {
  const env = buildEnvironment(host.env, server.env, host.platform);
  return resolveCommand(server.command, { env, cwd: server.cwd, platform: host.platform });
}

export function createTransport(server: ResolvedServer, tuning: TransportTuning = {}): Transport {
  switch (server.kind) {
    case 'stdio':
      return new StdioTransport({
        command: tuning.launch?.command ?? server.command,
        args: tuning.launch?.args ?? server.args,
        windowsVerbatimArguments: tuning.launch?.windowsVerbatimArguments,
        env: server.env,
        cwd: server.cwd,
        maxMessageBytes: tuning.maxMessageBytes,
        limits: tuning.limits,
        shutdownGraceMs: tuning.shutdownGraceMs,
      });
    case 'http':
      // The configured headers are the default authorizer; an OAuth authorizer adds its credentials over them.
      return createHttpTransport({
        url: server.url,
        authorizer: tuning.authorizer
          ? withStaticHeaders(tuning.authorizer, server.headers)
          : staticHeaders(server.headers),
        mode: server.transport === 'sse' ? 'sse' : 'auto',
        fetch: tuning.fetch,
        limits: tuning.limits,
      });
    default: {
      const exhaustive: never = server;
      throw new Error(`unknown server kind ${JSON.stringify(exhaustive)}`);
    }
  }
}

function untildify(value: string): string {
  if (value === '~') return os.homedir();
  if (value.startsWith('~/')) return path.join(os.homedir(), value.slice(2));
  return value;
}
