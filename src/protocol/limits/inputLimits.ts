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
    super(
      'message-too-large',
      `${what} exceeds the limit of ${limitBytes} bytes (setting ${setting}); reading stopped`,
    );
  }

  /** The same limit, with where it was hit in front ("the SSE stream of https://…: an SSE line exceeds …"). */
  within(context: string): InputLimitError {
    return new InputLimitError(`${context}: ${this.what}`, this.limitBytes, this.setting);
  }
}

/**
 * The reason a transport hands to `TransportSink.onUnparsable` for a message it stopped reading at a cap. It starts
 * like the stdio line splitter's reason ("message too large: "), which the reader recognises: the request the
 * message answered fails at once with a 'message-too-large' error instead of waiting for its deadline.
 */
export function tooLargeReason(error: InputLimitError): string {
  return `message too large: ${error.message}`;
}

/**
 * The UTF-8 length of `text`, counted without encoding it. Callers that only need to know whether a text fits under
 * a cap first compare `text.length` (never more than the byte length) and `3 * text.length` (never less).
 */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a surrogate pair: 2 code units, 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * Counts the UTF-8 bytes of texts added one by one against a cap, cheaply: the exact count is only computed once the
 * texts could be over it (three bytes per UTF-16 code unit at most), so small messages pay one addition per text.
 */
export class ByteBudget {
  private chars = 0;
  /** The exact byte count of the texts added since it became worth knowing; undefined before. */
  private exactBytes: number | undefined;
  private readonly pendingTexts: string[] = [];

  constructor(readonly limitBytes: number) {}

  /** Adds `text`; false when the texts added so far exceed the cap. */
  add(text: string): boolean {
    if (this.limitBytes === Number.POSITIVE_INFINITY) return true;
    this.chars += text.length;
    if (this.exactBytes === undefined) {
      if (this.chars * 3 <= this.limitBytes) {
        this.pendingTexts.push(text);
        return true;
      }
      this.exactBytes = 0;
      for (const earlier of this.pendingTexts) this.exactBytes += utf8Length(earlier);
      this.pendingTexts.length = 0;
    }
    if (this.chars > this.limitBytes) return false;
    this.exactBytes += utf8Length(text);
    return this.exactBytes <= this.limitBytes;
  }

  reset(): void {
    this.chars = 0;
    this.exactBytes = undefined;
    this.pendingTexts.length = 0;
  }
}

/**
 * Reads a fetch Response body as text, at most `limitBytes` bytes: past them the body is cancelled (the
 * connection released) and InputLimitError names `what` and the setting. A Content-Length above the cap fails
 * before a byte is read. Chunks are kept as a list and decoded once, so a body near the cap costs one copy.
 */
export async function readTextCapped(
  response: Response,
  limitBytes: number,
  what: string,
  setting: keyof InputLimits,
): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limitBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new InputLimitError(what, limitBytes, setting);
  }
  if (!response.body) return '';
  return new TextDecoder().decode(
    await readBytesCapped(response.body, limitBytes, () => new InputLimitError(what, limitBytes, setting)),
  );
}

/**
 * Reads a byte stream whole, at most `limitBytes` bytes: past them the stream is cancelled and `tooLarge()` is
 * thrown. The one bounded reader of bodies, downloads and inflated archive entries.
 */
export async function readBytesCapped(
  stream: ReadableStream<Uint8Array>,
  limitBytes: number,
  tooLarge: () => Error,
): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limitBytes) {
        reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock?.();
  }
  return joinChunks(chunks, total);
}

/** readTextCapped, then JSON.parse; a body that is not JSON is reported naming `what`. */
export async function readJsonCapped(
  response: Response,
  limitBytes: number,
  what: string,
  setting: keyof InputLimits,
): Promise<unknown> {
  const text = await readTextCapped(response, limitBytes, what, setting);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new LocalError('protocol-violation', `${what} is not JSON: ${(error as Error).message}`);
  }
}

/** The chunks of a capped read as one array (one copy; none when there is a single chunk). */
function joinChunks(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return joined;
}
