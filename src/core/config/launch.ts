import { readFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Transport } from '../transport';
import { createHttpTransport } from '../transports/http';
import { StdioTransport } from '../transports/stdio';
import type { ServerDefinition } from './mcpConfig';
import { parseEnvFile, resolveVariables, type VariableContext } from './variables';

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
      return { ...definition, url: await resolve(definition.url), headers };
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
}

export function createTransport(server: ResolvedServer, tuning: TransportTuning = {}): Transport {
  switch (server.kind) {
    case 'stdio':
      return new StdioTransport({
        command: server.command,
        args: server.args,
        env: server.env,
        cwd: server.cwd,
        maxMessageBytes: tuning.maxMessageBytes,
        shutdownGraceMs: tuning.shutdownGraceMs,
      });
    case 'http':
      return createHttpTransport({ url: server.url, headers: server.headers, mode: server.transport === 'sse' ? 'sse' : 'auto' });
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
