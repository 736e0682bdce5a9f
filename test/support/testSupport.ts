/** Shared helpers for the unit tests that drive real server processes. */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { McpClient } from '../../src/protocol/client';
import type { EraPreference } from '../../src/protocol/eras/select';
import { errorMessage } from '../../src/protocol/errors';
import type { Logger } from '../../src/protocol/jsonrpc/rpcConnection';
import { StdioTransport, type StdioServerOptions } from '../../src/protocol/node/stdio';
import { createTransport, type ResolvedServer } from '../../src/workbench/node/launch';
import { freePort } from './net';
import { repoRoot } from './paths';

export const REPO_ROOT = repoRoot;
export const EVERYTHING_SERVER = path.join(
  REPO_ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);
export const FILESYSTEM_SERVER = path.join(
  REPO_ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'server-filesystem',
  'dist',
  'index.js',
);
export const HOSTILE_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'hostile', 'hostile-server.mjs');

export interface CollectingLogger extends Logger {
  readonly lines: { level: string; message: string }[];
  readonly warns: string[];
  readonly errors: string[];
}

export function collectingLogger(): CollectingLogger {
  const lines: { level: string; message: string }[] = [];
  const warns: string[] = [];
  const errors: string[] = [];
  return {
    lines,
    warns,
    errors,
    debug: (message) => lines.push({ level: 'debug', message }),
    info: (message) => lines.push({ level: 'info', message }),
    warn: (message) => {
      lines.push({ level: 'warn', message });
      warns.push(message);
    },
    error: (message) => {
      lines.push({ level: 'error', message });
      errors.push(message);
    },
  };
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `condition` holds; throws an error naming `what` after `timeoutMs`. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}

/** True while `pid` names a live process (a zombie waiting to be reaped counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
  // process.kill(pid, 0) also succeeds for a zombie: an orphaned grandchild that was killed but not yet reaped
  // by PID 1 (in containers PID 1 is not always a reaping init).
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Asserts the process is gone (ESRCH), waiting briefly for the kernel to finish tearing it down. */
export async function assertProcessGone(pid: number, label: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (isAlive(pid)) {
    if (Date.now() > deadline) throw new Error(`${label} (pid ${pid}) is still running`);
    await delay(25);
  }
}

/** A stdio transport that remembers its pid and every diagnostic line (pid is announced in one of them). */
export function trackedStdio(options: StdioServerOptions): {
  transport: StdioTransport;
  diagnostics: string[];
  pid(): number | undefined;
} {
  const transport = new StdioTransport(options);
  const diagnostics: string[] = [];
  let pid: number | undefined;
  transport.onDiagnostic((line) => {
    diagnostics.push(line);
    const match = /\(pid (\d+)\)$/.exec(line);
    if (match && pid === undefined) pid = Number(match[1]);
  });
  return { transport, diagnostics, pid: () => pid };
}

export function textOf(content: readonly unknown[]): string {
  return content
    .map((block) =>
      typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text'
        ? String((block as { text?: unknown }).text)
        : '',
    )
    .join('\n');
}

/** Starts server-everything in its Streamable HTTP mode on a free port; resolves once it listens. */
export async function startEverythingHttp(): Promise<{ server: ChildProcess; url: string }> {
  const port = await freePort();
  const server = spawn(process.execPath, [EVERYTHING_SERVER, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server-everything (streamableHttp) did not start')), 15_000);
    server.stderr?.on('data', (chunk: Buffer) => {
      if (/listening on port/i.test(chunk.toString())) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { server, url: `http://127.0.0.1:${port}/mcp` };
}

/** The error a real start fails with: a real process or a real socket, through the real client. */
export async function startError(server: ResolvedServer, era?: EraPreference): Promise<Error> {
  const client = new McpClient({ serverName: 'probe', transport: createTransport(server), ...(era ? { era } : {}) });
  try {
    await client.connect();
  } catch (error) {
    return error instanceof Error ? error : new Error(errorMessage(error));
  } finally {
    await client.close().catch(() => undefined);
  }
  throw new Error('the server started');
}

/** A deterministic pseudo-random generator (mulberry32) in [0, 1), so a generated case that fails can be reproduced. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
