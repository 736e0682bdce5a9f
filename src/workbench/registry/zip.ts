/**
 * Reads the files of a ZIP archive (an MCPB bundle) held in memory: stored and deflated entries, no encryption, no
 * ZIP64. Host-neutral: inflating uses the web `DecompressionStream`. Every name is checked before it is returned
 * (no absolute paths, no "..", no backslashes), and the entry count and the unpacked size are bounded, so a
 * hostile archive can neither write outside its folder nor fill the disk.
 */
import { readBytesCapped } from '../../protocol/limits/inputLimits';

export class ZipError extends Error {
  override readonly name = 'ZipError';
}

interface ZipFile {
  path: string;
  data: Uint8Array;
}

interface ZipLimits {
  maxEntries: number;
  maxTotalBytes: number;
}

const DEFAULT_ZIP_LIMITS: ZipLimits = { maxEntries: 10_000, maxTotalBytes: 512 * 1024 * 1024 };

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

export async function readZip(bytes: Uint8Array, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<ZipFile[]> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEndOfCentralDirectory(view);
  const count = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  if (count > limits.maxEntries) throw new ZipError(`the archive has ${count} entries, more than ${limits.maxEntries}`);
  const files: ZipFile[] = [];
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (offset + 46 > view.byteLength || view.getUint32(offset, true) !== CENTRAL_SIGNATURE)
      throw new ZipError('the central directory is damaged');
    const flags = view.getUint16(offset + 8, true);
    const method = view.getUint16(offset + 10, true);
    const compressedSize = view.getUint32(offset + 20, true);
    const size = view.getUint32(offset + 24, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const localOffset = view.getUint32(offset + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue; // a folder
    checkPath(name);
    if (flags & 1) throw new ZipError(`${name} is encrypted`);
    total += size;
    if (total > limits.maxTotalBytes)
      throw new ZipError(`the archive unpacks to more than ${limits.maxTotalBytes} bytes`);
    if (localOffset + 30 > view.byteLength || view.getUint32(localOffset, true) !== LOCAL_SIGNATURE)
      throw new ZipError(`the entry ${name} is damaged`);
    const dataStart =
      localOffset + 30 + view.getUint16(localOffset + 26, true) + view.getUint16(localOffset + 28, true);
    if (dataStart + compressedSize > bytes.byteLength)
      throw new ZipError(`the entry ${name} runs past the end of the archive`);
    const raw = bytes.subarray(dataStart, dataStart + compressedSize);
    const data = method === 0 ? raw.slice() : method === 8 ? await inflate(raw, size, name) : unsupported(name, method);
    if (data.byteLength !== size)
      throw new ZipError(`the entry ${name} unpacks to ${data.byteLength} bytes, not the ${size} its header says`);
    files.push({ path: name, data });
  }
  return files;
}

function unsupported(name: string, method: number): never {
  throw new ZipError(`the entry ${name} uses compression method ${method} (only stored and deflate are read)`);
}

function findEndOfCentralDirectory(view: DataView): number {
  // The record is 22 bytes plus a comment of at most 65535.
  for (let at = view.byteLength - 22; at >= Math.max(0, view.byteLength - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === EOCD_SIGNATURE) return at;
  }
  throw new ZipError('not a ZIP archive (no end of central directory)');
}

/** A relative path with no way out of the folder it is unpacked into. */
function checkPath(name: string): void {
  const parts = name.split('/');
  if (
    name.startsWith('/') ||
    name.includes('\\') ||
    /^[A-Za-z]:/.test(name) ||
    parts.some((part) => part === '..' || part === '') ||
    /[\u0000-\u001f]/.test(name)
  ) {
    throw new ZipError(`the archive holds an unsafe path ${JSON.stringify(name)}`);
  }
}

async function inflate(raw: Uint8Array, expected: number, name: string): Promise<Uint8Array> {
  const stream = new Blob([raw.slice()]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  // Stop at once when the data outgrows its declared size (a zip bomb lies about it).
  return readBytesCapped(
    stream,
    expected,
    () => new ZipError(`the entry ${name} unpacks to more than the ${expected} bytes its header says`),
  );
}
