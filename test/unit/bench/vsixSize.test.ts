/**
 * bench/vsixSize.ts, the VSIX row of `npm run bench:ui`: the ZIP's entries are read from its central directory, each
 * entry's compressed bytes go to its part (a code file's split by where its minified bytes come from), the ZIP's own
 * structure is the rest, and the verdict is issue 42's cap. On a ZIP written here (stored entries).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  PARTS,
  VSIX_CAP_BYTES,
  codePart,
  vsixReport,
  vsixShares,
  zipEntries,
  type CodeOrigins,
  type Part,
} from '../../../bench/vsixSize';

/** A ZIP of stored entries, with `comment` in its end record (a real VSIX has none; it checks the end is found). */
/** A stored (uncompressed) ZIP; an entry is its size (filled with 'a') or its text. */
function zip(files: Record<string, number | string>, comment = ''): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const data = typeof content === 'string' ? Buffer.from(content) : Buffer.alloc(content, 0x61);
    const size = data.length;
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt32LE(size, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt32LE(size, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    const entry = Buffer.concat([local, nameBytes, data]);
    locals.push(entry);
    centrals.push(central, nameBytes);
    offset += entry.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(Buffer.byteLength(comment), 20);
  return Buffer.concat([...locals, directory, end, Buffer.from(comment)]);
}

const FILES = {
  '[Content_Types].xml': 10,
  'extension/package.json': 40,
  'extension/dist/extension.js': 100,
  'extension/dist/chunk-GATEWAY.js': 60,
  'extension/dist/chunk-FACADE.js': 5,
  'extension/dist/chunk-GONE.js': 7,
  'extension/dist/media/forms/toolForm.js': 20,
  'extension/media/icon.png': 30,
  'extension/l10n/bundle.l10n.zh-cn.json': 50,
  'extension/package.nls.json': 25,
  'extension/readme.md': 70,
  'extension/changelog.md': 15,
  'extension/LICENSE.txt': 3,
  'extension/schemas/mcp.schema.json': 12,
};
const ORIGINS: CodeOrigins = new Map<string, Map<Part, number>>([
  [
    'extension.js',
    new Map<Part, number>([
      ['our code', 3000],
      ['other libraries', 1000],
    ]),
  ],
  [
    'chunk-GATEWAY.js',
    new Map<Part, number>([
      ['gateway SDK + zod', 2000],
      ['our code', 1000],
    ]),
  ],
  ['chunk-FACADE.js', new Map<Part, number>()],
]);

test('reads each entry and its compressed size from the central directory', () => {
  assert.deepEqual(
    zipEntries(zip(FILES, 'a comment')),
    Object.entries(FILES).reduce<{ at: number; entries: object[] }>(
      ({ at, entries }, [name, compressedBytes]) => ({
        at: at + 30 + name.length + compressedBytes,
        entries: [...entries, { name, compressedBytes, localHeaderAt: at, method: 0 }],
      }),
      { at: 0, entries: [] },
    ).entries,
  );
  assert.throws(() => zipEntries(Buffer.from('not a zip')), /not a ZIP file/);
});

test('sums each part, splits a code file by the origin of its bytes, and the ZIP structure is the rest', () => {
  const file = zip(FILES);
  const { totalBytes, bytes, unmatched } = vsixShares(file, ORIGINS);
  assert.equal(totalBytes, file.length);
  assert.deepEqual(Object.fromEntries(bytes), {
    // extension.js's 3/4, the gateway chunk's 1/3, the facade (imports and exports only), an unknown file
    'our code': 75 + 20 + 5 + 7,
    'gateway SDK + zod': 40,
    'other libraries': 25,
    l10n: 50 + 25,
    docs: 70 + 15 + 3,
    media: 20 + 30,
    'manifest + schemas': 10 + 40 + 12,
    'ZIP structure': file.length - Object.values(FILES).reduce((sum, size) => sum + size, 0),
  });
  assert.deepEqual([...bytes.keys()], [...PARTS]);
  assert.deepEqual(unmatched, ['extension/dist/chunk-GONE.js']);
});

test("a module's part follows its path in the metafile", () => {
  assert.equal(codePart('src/workbench/gateway/gateway.ts'), 'our code');
  assert.equal(codePart('../main/node_modules/@modelcontextprotocol/server/dist/index.mjs'), 'gateway SDK + zod');
  assert.equal(codePart('node_modules/@modelcontextprotocol/core/dist/auth-UMQCo-ad.mjs'), 'gateway SDK + zod');
  assert.equal(codePart('node_modules/zod/v4/core/schemas.js'), 'gateway SDK + zod');
  assert.equal(codePart('node_modules/vscode-jsonrpc/lib/common/api.js'), 'other libraries');
});

test('the row says MET under the cap and how far over it otherwise', () => {
  const shares = (totalBytes: number) => ({
    totalBytes,
    bytes: new Map<Part, number>([
      ['our code', totalBytes - 80_000],
      ['gateway SDK + zod', 80_000],
    ]),
    unmatched: [],
  });
  assert.match(vsixReport('x.vsix', shares(VSIX_CAP_BYTES - 1)), /cap 400\.0 KB: MET\)/);
  const over = vsixReport('x.vsix', shares(600_692));
  assert.match(over, /^VSIX: 600\.7 KB \(x\.vsix, 600,692 bytes; issue 42's cap 400\.0 KB: NOT MET, 200\.7 KB over\)/);
  assert.match(over, /\| gateway SDK \+ zod \| 80,000 \| 13\.3% \|/);
  assert.match(over, /Without the gateway SDK \+ zod: about 520\.7 KB \(still over the cap\)\./);
});

test("a pack's bytes are split by the chunks in it (the runtime's table, scripts/pack-chunks.js)", () => {
  const runtime = 'var x=1;var __mcpwbPackOf={"chunk-GATEWAY.js":"chunk-later.js","chunk-FACADE.js":"chunk-later.js"};';
  const file = zip({
    'extension/dist/chunk-runtime.js': runtime,
    'extension/dist/chunk-later.js': 90,
    'extension/dist/extension.js': 100,
  });
  const { bytes, unmatched } = vsixShares(file, ORIGINS);
  assert.deepEqual(unmatched, []);
  // The pack holds the gateway chunk (2000 SDK, 1000 ours) and the facade (nothing): 60 and 30 of its 90 bytes.
  assert.equal(bytes.get('gateway SDK + zod'), 60);
  assert.equal(bytes.get('our code'), runtime.length + 30 + 75);
});
