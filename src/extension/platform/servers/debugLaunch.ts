import * as path from 'node:path';
import type { DevDebug } from '../../../workbench/config/devMode';
import type { ResolvedServer } from '../../../workbench/node/launch';

type StdioServer = Extract<ResolvedServer, { kind: 'stdio' }>;

/**
 * What `dev.debug` makes of a stdio server: the arguments put before its own, the same arguments as its consent is
 * remembered, where the debugger will listen, and the debugger to attach there.
 */
export type DebugPlan =
  | {
      kind: 'debug';
      debuggerArgs: string[];
      fingerprintArgs: string[];
      listen: DebugListen;
      attachTo(port: number): DebugAttach;
    }
  | { kind: 'not-possible'; reason: string };

/**
 * `announced`: the process binds a port the kernel picks and says which on stderr (node's inspector with port 0), so
 * no other process can take it between the choice and the bind. `chosen`: a port found free before the start (debugpy,
 * which announces nothing); if another process takes it first, debugpy cannot listen and exits with its error (the
 * start fails and shows its stderr), and the next start chooses again.
 */
type DebugListen = { kind: 'announced' } | { kind: 'chosen'; port: number };

/** The attach configuration handed to vscode.debug.startDebugging. */
interface DebugAttach {
  type: 'node' | 'debugpy';
  request: 'attach';
  name: string;
  [key: string]: unknown;
}

const NODE_COMMAND = /^node(?:\.exe)?$/i;
const PYTHON_COMMAND = /^(?:python(?:\d+(?:\.\d+)?)?|py)(?:\.exe)?$/i;
/** Stands for the port in the remembered fingerprint of a debugpy consent. */
export const FREE_PORT_PLACEHOLDER = '<free port>';
/** node's inspector on a loopback port of the kernel's choosing (announced on stderr before the script runs). */
const NODE_INSPECTOR_FLAG = '--inspect-brk=127.0.0.1:0';

/**
 * node: `--inspect-brk=127.0.0.1:0` before the script (the server waits on its first line until the debugger
 * attaches, so a breakpoint in startup code is hit too; the attach continues it). python: `-m debugpy --listen
 * 127.0.0.1:<port> --wait-for-client` before the script, on a port from `freePort` (asked only for debugpy). Loopback
 * only: the inspector executes whatever it is told. Other commands (npx, uv, a shell script) cannot be wrapped safely
 * and are started without the debugger.
 */
export async function planDebugLaunch(
  server: StdioServer,
  debug: DevDebug,
  serverName: string,
  freePort: () => Promise<number>,
): Promise<DebugPlan> {
  const command = path.basename(server.command);
  const name = `MCP server: ${serverName}`;
  switch (debug.type) {
    case 'node': {
      if (!NODE_COMMAND.test(command) && server.command !== process.execPath) {
        return {
          kind: 'not-possible',
          reason: `"dev.debug" {"type": "node"} needs "command": "node" (got ${JSON.stringify(server.command)})`,
        };
      }
      return {
        kind: 'debug',
        debuggerArgs: [NODE_INSPECTOR_FLAG],
        fingerprintArgs: [NODE_INSPECTOR_FLAG],
        listen: { kind: 'announced' },
        attachTo: (port) => ({
          type: 'node',
          request: 'attach',
          name,
          address: '127.0.0.1',
          port,
          continueOnAttach: true,
          timeout: 20_000,
          skipFiles: ['<node_internals>/**'],
        }),
      };
    }
    case 'debugpy': {
      if (!PYTHON_COMMAND.test(command)) {
        return {
          kind: 'not-possible',
          reason: `"dev.debug" {"type": "debugpy"} needs a python command (got ${JSON.stringify(server.command)})`,
        };
      }
      const port = await freePort();
      const args = (listen: string) => [
        ...(debug.debugpyPath ? [debug.debugpyPath] : ['-m', 'debugpy']),
        '--listen',
        listen,
        '--wait-for-client',
      ];
      return {
        kind: 'debug',
        debuggerArgs: args(`127.0.0.1:${port}`),
        fingerprintArgs: args(`127.0.0.1:${FREE_PORT_PLACEHOLDER}`),
        listen: { kind: 'chosen', port },
        attachTo: (at) => ({
          type: 'debugpy',
          request: 'attach',
          name,
          connect: { host: '127.0.0.1', port: at },
          justMyCode: false,
        }),
      };
    }
    default: {
      const exhaustive: never = debug;
      throw new Error(`unknown debugger ${JSON.stringify(exhaustive)}`);
    }
  }
}

/** What a line of a node server's stderr says about its inspector, before the script runs. */
type InspectorNews = { kind: 'listening'; port: number } | { kind: 'failed'; line: string } | { kind: 'other' };

const INSPECTOR_LISTENING = /^Debugger listening on ws:\/\/127\.0\.0\.1:(\d{1,5})\//;
const INSPECTOR_FAILED = /^Starting inspector on \S+ failed/;

/**
 * node prints `Debugger listening on ws://127.0.0.1:<port>/<id>` once its inspector is bound, and `Starting
 * inspector on <address> failed: …` when it could not bind (it then runs the script without one). Under
 * `--inspect-brk` nothing of the server's own runs before that line, so the first such line is node's.
 */
export function inspectorNews(line: string): InspectorNews {
  const listening = INSPECTOR_LISTENING.exec(line);
  if (listening) {
    const port = Number(listening[1]);
    if (port > 0 && port < 65_536) return { kind: 'listening', port };
  }
  if (INSPECTOR_FAILED.test(line)) return { kind: 'failed', line };
  return { kind: 'other' };
}

/**
 * The server as it runs under the plan (`run`) or as its consent is remembered (`fingerprint`). The launcher applies
 * the same plan to the preview the person is asked about and to the resolved definition that is spawned, so the
 * debugger's flags are part of what the person approved.
 */
export function withDebugger<T extends ResolvedServer>(
  server: T,
  plan: Extract<DebugPlan, { kind: 'debug' }>,
  use: 'run' | 'fingerprint',
): T {
  if (server.kind !== 'stdio') return server;
  const prefix = use === 'run' ? plan.debuggerArgs : plan.fingerprintArgs;
  return { ...server, args: [...prefix, ...server.args] };
}
