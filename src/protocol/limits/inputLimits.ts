import { LocalError } from '../errors';

/**
 * How much of what a server (or an authorization server) sends this client is willing to hold. Every reader of
 * untrusted bytes takes its cap from here, stops reading at the cap, and names the limit and its setting in the
 * error, so a 2 GB document or an endless SSE line costs at most the cap, never the host's memory.
 */
export interface InputLimits {
  /** One JSON-RPC message: a stdio line, an HTTP JSON body, one SSE event's data. Setting `maxMessageBytes`. */
  maxMessageBytes: number;
  /** One line of an SSE stream (a field line; an event's data is bounded by maxMessageBytes). Setting `maxSseLineBytes`. */
  maxSseLineBytes: number;
  /**
   * One metadata document: protected-resource and authorization-server metadata, client registration and token
   * responses, a Client ID Metadata Document. Setting `maxDocumentBytes`.
   */
  maxDocumentBytes: number;
  /** What the verbose trace keeps of one message before it cuts it with a note. Setting `maxTraceBytes`. */
  maxTraceBytes: number;
}

export const DEFAULT_INPUT_LIMITS: Readonly<InputLimits> = Object.freeze({
  maxMessageBytes: 256 * 1024 * 1024,
  maxSseLineBytes: 256 * 1024 * 1024,
  maxDocumentBytes: 1024 * 1024,
  maxTraceBytes: 64 * 1024,
});

/** The defaults with the given overrides; a value that is not a positive finite number keeps the default. */
export function inputLimits(overrides: Partial<InputLimits> = {}): InputLimits {
  const limits = { ...DEFAULT_INPUT_LIMITS };
  for (const key of Object.keys(limits) as (keyof InputLimits)[]) {
    const value = overrides[key];
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) limits[key] = Math.floor(value);
  }
  return limits;
}

/** Raised when a reader stopped at a cap. `setting` names the option that raises the cap. */
export class InputLimitError extends LocalError {
  override readonly name = 'InputLimitError';
  constructor(
    readonly what: string,
    readonly limitBytes: number,
    readonly setting: keyof InputLimits,
  ) {
    super('message-too-large', `${what} exceeds the limit of ${limitBytes} bytes (setting ${setting}); reading stopped`);
  }
}

/**
 * Reads a fetch Response body as text, at most `limitBytes` bytes: past them the body is cancelled (the
 * connection released) and InputLimitError names `what` and the setting. A Content-Length above the cap fails
 * before a byte is read. Chunks are kept as a list and decoded once, so a body near the cap costs one copy.
 */
export async function readTextCapped(response: Response, limitBytes: number, what: string, setting: keyof InputLimits): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limitBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new InputLimitError(what, limitBytes, setting);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limitBytes) {
        reader.cancel().catch(() => undefined);
        throw new InputLimitError(what, limitBytes, setting);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock?.();
  }
  if (chunks.length === 1) return new TextDecoder().decode(chunks[0]);
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(joined);
}

/** readTextCapped, then JSON.parse; a body that is not JSON is reported naming `what`. */
export async function readJsonCapped(response: Response, limitBytes: number, what: string, setting: keyof InputLimits): Promise<unknown> {
  const text = await readTextCapped(response, limitBytes, what, setting);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new LocalError('protocol-violation', `${what} is not JSON: ${(error as Error).message}`);
  }
}
