/**
 * How the CLI prints a result: indented JSON on stdout, written a chunk at a time. A 50 MiB resource read as one
 * string would be held three more times beside the parsed result (the escaped text, its joined copy and the
 * UTF-8 Buffer the stream makes of it); in chunks, the output path holds one chunk at a time.
 */
import { jsonTextChunks } from '../workbench/display';

/** Characters per write: large enough that a small result is one write, small enough to be noise beside 50 MiB. */
const OUTPUT_CHUNK_CHARS = 256 * 1024;

/**
 * Writes `JSON.stringify(value, null, indent)` (as `toJsonText` words it, deep values included) and a newline to
 * `stream`, waiting for 'drain' whenever the stream says its buffer is full. Rejects if the stream fails or closes
 * before everything is written (a reader that went away), instead of waiting forever.
 */
export async function writeJsonOutput(
  stream: NodeJS.WritableStream,
  value: unknown,
  indent = 2,
  chunkChars = OUTPUT_CHUNK_CHARS,
): Promise<void> {
  let wroteAny = false;
  for (const chunk of jsonTextChunks(value, indent, chunkChars)) {
    wroteAny = true;
    if (!stream.write(chunk)) await drained(stream);
  }
  // What `${toJsonText(undefined)}\n` printed; no command answers undefined, but the text stays what it was.
  if (!stream.write(wroteAny ? '\n' : 'undefined\n')) await drained(stream);
}

function drained(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error): void => {
      stream.off('drain', onDrain);
      stream.off('error', onError);
      stream.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = (): void => settle();
    const onError = (error: Error): void => settle(error);
    const onClose = (): void => settle(new Error('stdout closed before the output was written'));
    stream.on('drain', onDrain);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}
