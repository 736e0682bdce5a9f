import * as path from 'node:path';
import type { DevDebug } from '../../workbench/config/devMode';
import type { ResolvedServer } from '../../workbench/node/launch';

type StdioServer = Extract<ResolvedServer, { kind: 'stdio' }>;

/** What `dev.debug` makes of a stdio server: the command line to run and the debugger to attach. */
export type DebugPlan =
  | { kind: 'debug'; resolved: StdioServer; attach: DebugAttach }
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
    case 'node':
      if (!NODE_COMMAND.test(command) && server.command !== process.execPath) {
        return { kind: 'not-possible', reason: `"dev.debug" {"type": "node"} needs "command": "node" (got ${JSON.stringify(server.command)})` };
      }
      return {
        kind: 'debug',
        resolved: { ...server, args: [`--inspect-brk=127.0.0.1:${port}`, ...server.args] },
        attach: { type: 'node', request: 'attach', name, address: '127.0.0.1', port, continueOnAttach: true, timeout: 20_000, skipFiles: ['<node_internals>/**'] },
      };
    case 'debugpy':
      if (!PYTHON_COMMAND.test(command)) {
        return { kind: 'not-possible', reason: `"dev.debug" {"type": "debugpy"} needs a python command (got ${JSON.stringify(server.command)})` };
      }
      return {
        kind: 'debug',
        resolved: { ...server, args: [...(debug.debugpyPath ? [debug.debugpyPath] : ['-m', 'debugpy']), '--listen', `127.0.0.1:${port}`, '--wait-for-client', ...server.args] },
        attach: { type: 'debugpy', request: 'attach', name, connect: { host: '127.0.0.1', port }, justMyCode: false },
      };
    default: {
      const exhaustive: never = debug;
      throw new Error(`unknown debugger ${JSON.stringify(exhaustive)}`);
    }
  }
}
