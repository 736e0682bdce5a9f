import { readFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { staticHeaders, withStaticHeaders, type HttpAuthorizer } from '../../protocol/auth/authorizer';
import type { Transport } from '../../protocol/transports/transport';
import { createHttpTransport } from '../../protocol/transports/http';
import { buildEnvironment, StdioTransport } from '../../protocol/node/stdio';
import { resolveCommand, stdioLaunch, type CommandResolution, type StdioLaunch } from './commandResolution';
import type { ServerDefinition } from '../config/mcpConfig';
import { parseEnvFile, resolveVariables, type VariableContext } from '../config/variables';

export type ResolvedServer = ServerDefinition;

/** Substitutes variables everywhere a definition can hold them and merges `envFile` under `env`. */
export async function resolveServerDefinition(definition: ServerDefinition, context: VariableContext): Promise<ResolvedServer> {
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
        Object.assign(env, parseEnvFile(text));
      }
      for (const [key, value] of Object.entries(definition.env)) env[key] = value === null ? null : await resolve(value);
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
        ...(definition.oauth.clientSecret !== undefined ? { clientSecret: await resolve(definition.oauth.clientSecret) } : {}),
      };
      return { ...definition, url: await resolve(definition.url), headers, ...(oauth ? { oauth } : {}) };
    }
    default: {
      const exhaustive: never = definition;
      throw new Error(`unknown server kind ${JSON.stringify(exhaustive)}`);
    }
  }
}

export interface TransportTuning {
  maxMessageBytes?: number;
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

export type StdioLaunchPlan = { kind: 'ready'; launch: StdioLaunch } | Extract<CommandResolution, { kind: 'not-found' }>;

/**
 * Finds a stdio server's command with the environment and cwd it will run with, and says what to spawn: on Windows a
 * `.cmd`/`.bat` shim (`npx`) goes through cmd.exe with safe quoting (throws when an argument cannot be quoted safely).
 */
export async function planStdioLaunch(
  server: Extract<ResolvedServer, { kind: 'stdio' }>,
  host: LaunchHost = { platform: process.platform, env: process.env },
): Promise<StdioLaunchPlan> {
  const env = buildEnvironment(host.env, server.env, host.platform);
  const resolution = await resolveCommand(server.command, { env, cwd: server.cwd, platform: host.platform, isHostFolder: host.isHostFolder });
  if (resolution.kind === 'not-found') return resolution;
  const comSpec = Object.entries(host.env).find(([key]) => key.toUpperCase() === 'COMSPEC')?.[1];
  return { kind: 'ready', launch: stdioLaunch(resolution, server.command, server.args, comSpec) };
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
        shutdownGraceMs: tuning.shutdownGraceMs,
      });
    case 'http':
      // The configured headers are the default authorizer; an OAuth authorizer adds its credentials over them.
      return createHttpTransport({
        url: server.url,
        authorizer: tuning.authorizer ? withStaticHeaders(tuning.authorizer, server.headers) : staticHeaders(server.headers),
        mode: server.transport === 'sse' ? 'sse' : 'auto',
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
