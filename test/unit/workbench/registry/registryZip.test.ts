/** The MCPB bundle reader: real archives from the fixture's writer, and hostile ones it must refuse. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { counterBundle } from '../../../fixtures/registry/registry';
import { writeZip } from '../../../fixtures/registry/zipWriter';
import { ZipError, readZip } from '../../../../src/workbench/registry/zip';

test('reads the files of a deflated archive byte for byte', async () => {
  const files = await readZip(counterBundle());
  assert.deepEqual(
    files.map((file) => file.path),
    ['manifest.json', 'server/index.mjs'],
  );
  assert.equal((JSON.parse(new TextDecoder().decode(files[0].data)) as { name: string }).name, 'counter');
});

test('refuses paths that leave the bundle folder', async () => {
  for (const name of ['../evil.js', '/etc/passwd', 'a/../../b', 'dir\\..\\x', 'C:/windows/x']) {
    await assert.rejects(
      readZip(writeZip([{ path: name, data: Buffer.from('x') }])),
      (error: Error) => error instanceof ZipError && error.message.includes('unsafe path'),
      name,
    );
  }
});

test('refuses an entry that unpacks to more than its header says, and an archive over the size bound', async () => {
  const archive = writeZip([{ path: 'big.txt', data: Buffer.alloc(100_000, 97) }]);
  const lying = Buffer.from(archive);
  // The central directory's uncompressed size (offset 24 of the entry that follows the local data).
  const central = lying.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  lying.writeUInt32LE(10, central + 24);
  await assert.rejects(readZip(lying), /unpacks to more than the 10 bytes/);
  await assert.rejects(readZip(archive, { maxEntries: 10, maxTotalBytes: 1000 }), /unpacks to more than 1000 bytes/);
  await assert.rejects(readZip(Buffer.from('not a zip')), /not a ZIP archive/);
});
