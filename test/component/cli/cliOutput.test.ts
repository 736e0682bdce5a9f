/**
 * The CLI prints results in chunks (src/cli/output.ts) so a 50 MiB read is not held four times over; the text
 * must stay byte for byte what it was: `JSON.stringify(result, null, 2)` and a newline.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { writeJsonOutput } from '../../../src/cli/output';
import { jsonTextChunks, toJsonText } from '../../../src/workbench/display';
import { REPO_ROOT } from '../../support/testSupport';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const RAW_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'bench', 'raw-server.mjs');
const BIG_TEXT = path.join(REPO_ROOT, 'test', 'fixtures', 'bench', 'bigText.mjs');

async function makeBigText(length: number, kind: 'plain' | 'tricky'): Promise<string> {
  const module = (await import(BIG_TEXT)) as { makeBigText(length: number, kind: string): string };
  return module.makeBigText(length, kind);
}

describe('jsonTextChunks', () => {
  const samples: unknown[] = [
    { a: 'x', b: [1, 2, { c: null, d: undefined, e: 'é' }], f: [], g: {} },
    ['🦊'.repeat(5), 'a🦊b🦊', '\ud800 lone', 'lone \udc00', 'quote " back \\ nl \n \u2028 \u0001'],
    'a string at the top 🦊🦊🦊',
    [undefined, () => 1, { toJSON: () => ({ through: 'toJSON' }) }, new Date(0), Number.NaN, -0, 1e21],
  ];

  test('joined, the chunks are JSON.stringify(value, null, indent) for every chunk size', async () => {
    const tricky = await makeBigText(5_000, 'tricky');
    for (const value of [...samples, { contents: [{ uri: 'bench://big', text: tricky }] }]) {
      for (const indent of [2, undefined]) {
        const expected = JSON.stringify(value, null, indent);
        for (const chunkChars of [1, 2, 3, 5, 7, 64, 1000, 1_000_000]) {
          const chunks = [...jsonTextChunks(value, indent, chunkChars)];
          assert.equal(chunks.join(''), expected, `chunk size ${chunkChars}, indent ${indent}`);
          assert.equal(toJsonText(value, indent), expected);
        }
      }
    }
  });

  test('a long string comes out in pieces of about the chunk size, not as one piece', async () => {
    const text = await makeBigText(100_000, 'tricky');
    const chunks = [...jsonTextChunks({ text }, 2, 1000)];
    assert.ok(chunks.length >= 100, `only ${chunks.length} chunks for 100,000 characters in pieces of 1,000`);
    // Escaping can make a piece longer than its slice (a control character becomes six characters), never unbounded.
    assert.ok(Math.max(...chunks.map((chunk) => chunk.length)) <= 6 * 1000 + 16);
  });

  test('undefined yields nothing, as toJsonText answers undefined', () => {
    assert.deepEqual([...jsonTextChunks(undefined, 2, 10)], []);
    assert.equal(toJsonText(undefined, 2), undefined);
  });
});

describe('writeJsonOutput', () => {
  test('waits for drain on a slow stream and writes the same text and a newline', async () => {
    const value = { contents: [{ uri: 'bench://big', text: await makeBigText(300_000, 'tricky') }] };
    const received: Buffer[] = [];
    let refusals = 0;
    const slow = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, callback) {
        received.push(chunk);
        setImmediate(callback);
      },
    });
    const write = slow.write.bind(slow);
    slow.write = ((chunk: string) => {
      const accepted = write(chunk);
      if (!accepted) refusals += 1;
      return accepted;
    }) as typeof slow.write;
    await writeJsonOutput(slow, value, 2, 4096);
    await new Promise<void>((resolve) => slow.end(resolve));
    assert.ok(refusals > 0, 'the stream never asked the writer to wait: the backpressure path was not exercised');
    assert.equal(Buffer.concat(received).toString('utf8'), `${JSON.stringify(value, null, 2)}\n`);
  });

  test('rejects instead of hanging when the stream is destroyed while it waits', async () => {
    const stuck = new Writable({ highWaterMark: 16, write: () => undefined }); // never calls back: never drains
    const writing = writeJsonOutput(stuck, { text: 'x'.repeat(10_000) }, 2, 100);
    setImmediate(() => stuck.destroy());
    await assert.rejects(writing, /closed before the output was written/);
  });
});

describe('CLI read of a large resource', () => {
  test('prints byte-identical JSON to JSON.stringify(result, null, 2)', { timeout: 60_000 }, async () => {
    assert.ok(fs.existsSync(CLI), `${CLI} is missing: run "npm run build" first (npm test does)`);
    const bytes = 3 * 1024 * 1024 + 3; // many chunks; odd, so the last slice ends inside the line
    const server = `${JSON.stringify(process.execPath)} ${JSON.stringify(RAW_SERVER)}`;
    const child = spawn(process.execPath, [CLI, 'read', 'bench://big', '--era', 'legacy', '--stdio', server], {
      env: { ...process.env, BENCH_BIG_BYTES: String(bytes), BENCH_BIG_KIND: 'tricky' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 0, `exit code 0 expected; stderr:\n${stderr}`);
    const expected = {
      contents: [{ uri: 'bench://big', mimeType: 'text/plain', text: await makeBigText(bytes, 'tricky') }],
    };
    const printed = Buffer.concat(stdout);
    const wanted = Buffer.from(`${JSON.stringify(expected, null, 2)}\n`, 'utf8');
    assert.equal(printed.length, wanted.length, 'printed a different number of bytes');
    assert.ok(printed.equals(wanted), `first difference at byte ${printed.findIndex((byte, i) => byte !== wanted[i])}`);
  });
});
