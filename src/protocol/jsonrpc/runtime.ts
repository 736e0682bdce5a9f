import { RAL, type Disposable as RpcDisposable, type Message } from 'vscode-jsonrpc';

/**
 * vscode-jsonrpc's common API needs a "runtime abstraction layer" (timers, console, a JSON codec, stream framing)
 * that its `/node` and `/browser` entry points install. The protocol core is common code, so it must not import
 * either: it installs this one, built from what every runtime has, unless one is installed already. MCP frames its
 * own messages (McpMessageReader/Writer), so the engine's stream framing is never used and says so if asked.
 */
export function ensureJsonRpcRuntime(): void {
  try {
    RAL();
    return;
  } catch {
    RAL.install(portableRuntime());
  }
}

function disposable(dispose: () => void): RpcDisposable {
  return { dispose };
}

type Callback = (...args: unknown[]) => void;

/** Node's setImmediate when present (the engine's queue then runs exactly as with vscode-jsonrpc/node), else a macrotask. */
function immediate(callback: Callback, args: unknown[]): RpcDisposable {
  const runtime = globalThis as {
    setImmediate?: (cb: Callback, ...a: unknown[]) => unknown;
    clearImmediate?: (handle: unknown) => void;
  };
  if (runtime.setImmediate && runtime.clearImmediate) {
    const handle = runtime.setImmediate(callback, ...args);
    const clear = runtime.clearImmediate;
    return disposable(() => clear(handle));
  }
  const handle = setTimeout(callback, 0, ...args);
  return disposable(() => clearTimeout(handle));
}

function unsupported(what: string): never {
  throw new Error(`vscode-jsonrpc ${what} is not used by the MCP client: it frames its own messages`);
}

function portableRuntime(): RAL {
  const encoder = new TextEncoder();
  return {
    crypto: { randomUUID: () => globalThis.crypto.randomUUID() },
    applicationJson: {
      encoder: {
        name: 'application/json',
        encode: (message) => Promise.resolve(encoder.encode(JSON.stringify(message))),
      },
      decoder: {
        name: 'application/json',
        decode: (buffer, options) =>
          Promise.resolve(JSON.parse(new TextDecoder(options.charset).decode(buffer)) as Message),
      },
    },
    messageBuffer: { create: () => unsupported('message buffers') },
    console,
    timer: {
      setTimeout: (callback, ms, ...args) => {
        const handle = setTimeout(callback, ms, ...args);
        return disposable(() => clearTimeout(handle));
      },
      setImmediate: (callback, ...args) => immediate(callback, args),
      setInterval: (callback, ms, ...args) => {
        const handle = setInterval(callback, ms, ...args);
        return disposable(() => clearInterval(handle));
      },
    },
  };
}
