import * as fs from 'node:fs';
import { MAX_CONFIG_BYTES } from '../config/dialects/types';

/**
 * Reads a config file that may be hostile or half-written: a symlink loop, a directory, a named pipe (which would
 * block a read forever), a file too large to be a config, one that cannot be read. Each is a clear outcome; nothing
 * waits on the file and nothing reads more than `maxBytes` + 1 bytes.
 */

export type ConfigFileRead =
  | { kind: 'missing' }
  | { kind: 'text'; text: string }
  /** The file is there but is not read: the reason, in words for a problem row. */
  | { kind: 'refused'; reason: string };

export async function readConfigFile(filePath: string, maxBytes = MAX_CONFIG_BYTES): Promise<ConfigFileRead> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer; a regular file ignores it.
    const flags = process.platform === 'win32' ? 'r' : fs.constants.O_RDONLY | fs.constants.O_NONBLOCK;
    handle = await fs.promises.open(filePath, flags);
    const stat = await handle.stat();
    if (!stat.isFile()) return { kind: 'refused', reason: 'not a regular file: not read' };
    if (stat.size > maxBytes) return { kind: 'refused', reason: tooLarge(stat.size, maxBytes) };
    // Read at most one byte past the cap: a file growing while it is read cannot make this read more.
    const buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === buffer.length) break;
    }
    if (length > maxBytes) return { kind: 'refused', reason: tooLarge(length, maxBytes) };
    // TextDecoder drops a byte order mark, which the JSONC parser would reject.
    return { kind: 'text', text: new TextDecoder('utf-8').decode(buffer.subarray(0, length)) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    switch (code) {
      case 'ENOENT':
      case 'ENOTDIR':
        return { kind: 'missing' };
      case 'ELOOP':
        return { kind: 'refused', reason: 'a symbolic link loop: not read' };
      case 'EISDIR':
        return { kind: 'refused', reason: 'a folder, not a file: not read' };
      case 'EACCES':
      case 'EPERM':
        return { kind: 'refused', reason: 'permission denied: not read' };
      default:
        return { kind: 'refused', reason: `cannot read the file: ${(error as Error).message}` };
    }
  } finally {
    await handle?.close();
  }
}

function tooLarge(bytes: number, maxBytes: number): string {
  return `the file is larger than the ${Math.round(maxBytes / 1024)} KB a config file may have (${Math.round(bytes / 1024)} KB or more): not read`;
}
