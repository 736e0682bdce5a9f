import * as path from 'node:path';
import type { DevDebug } from '../../workbench/config/devMode';
import type { ResolvedServer } from '../../workbench/node/launch';

type StdioServer = Extract<ResolvedServer, { kind: 'stdio' }>;

/**
 * What `dev.debug` makes of a stdio server: the arguments put before its own (with the port chosen for this start),
 * the same arguments with the port written as `<free port>` (what the remembered consent hashes: the port changes at
 * every start, the command line does not), and the debugger to attach.
 */
export type DebugPlan =
  | { kind: 'debug'; debuggerArgs: string[]; fingerprintArgs: string[]; attach: DebugAttach }
  | { kind: 'not-possible'; reason: string };

/** The attach configuration handed to vscode.debug.startDebugging. */
export interface DebugAttach {
  type: 'node' | 'debugpy';
  request: 'attach';
  name: string;
  [key: string]: unknown;
}

const NODE_COMMAND = /^node(?:\.exe)?$/i;
const PYTHON_COMMAND = /^(?:python(?:\d+(?:\.\d+)?)?|py)(?:\.exe)?$/i;
/** Stands for the port in the remembered fingerprint of a consent. */
export const FREE_PORT_PLACEHOLDER = '<free port>';

/**
 * node: `--inspect-brk=127.0.0.1:<port>` before the script (the server waits on its first line until the debugger
 * attaches, so a breakpoint in startup code is hit too; the attach continues it). python: `-m debugpy --listen
 * 127.0.0.1:<port> --wait-for-client` before the script. Loopback only: the inspector executes whatever it is told.
 * Other commands (npx, uv, a shell script) cannot be wrapped safely and are started without the debugger.
 */
export function planDebugLaunch(server: StdioServer, debug: DevDebug, port: number, serverName: string): DebugPlan {
  const command = path.basename(server.command);
  const name = `MCP server: ${serverName}`;
  switch (debug.type) {
    case 'node': {
      if (!NODE_COMMAND.test(command) && server.command !== process.execPath) {
        return { kind: 'not-possible', reason: `"dev.debug" {"type": "node"} needs "command": "node" (got ${JSON.stringify(server.command)})` };
      }
      const args = (listen: string) => [`--inspect-brk=${listen}`];
      return {
        kind: 'debug',
        debuggerArgs: args(`127.0.0.1:${port}`),
        fingerprintArgs: args(`127.0.0.1:${FREE_PORT_PLACEHOLDER}`),
        attach: { type: 'node', request: 'attach', name, address: '127.0.0.1', port, continueOnAttach: true, timeout: 20_000, skipFiles: ['<node_internals>/**'] },
      };
    }
    case 'debugpy': {
      if (!PYTHON_COMMAND.test(command)) {
        return { kind: 'not-possible', reason: `"dev.debug" {"type": "debugpy"} needs a python command (got ${JSON.stringify(server.command)})` };
      }
      const args = (listen: string) => [...(debug.debugpyPath ? [debug.debugpyPath] : ['-m', 'debugpy']), '--listen', listen, '--wait-for-client'];
      return {
        kind: 'debug',
        debuggerArgs: args(`127.0.0.1:${port}`),
        fingerprintArgs: args(`127.0.0.1:${FREE_PORT_PLACEHOLDER}`),
        attach: { type: 'debugpy', request: 'attach', name, connect: { host: '127.0.0.1', port }, justMyCode: false },
      };
    }
    default: {
      const exhaustive: never = debug;
      throw new Error(`unknown debugger ${JSON.stringify(exhaustive)}`);
    }
  }
}

/**
 * The server as it runs under the plan (`run`) or as its consent is remembered (`fingerprint`). The launcher applies
 * the same plan to the preview the person is asked about and to the resolved definition that is spawned, so the
 * debugger's flags are part of what the person approved.
 */
export function withDebugger<T extends ResolvedServer>(server: T, plan: Extract<DebugPlan, { kind: 'debug' }>, use: 'run' | 'fingerprint'): T {
  if (server.kind !== 'stdio') return server;
  const prefix = use === 'run' ? plan.debuggerArgs : plan.fingerprintArgs;
  return { ...server, args: [...prefix, ...server.args] };
}
