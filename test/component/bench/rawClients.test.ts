/**
 * The bench's raw floors (bench/rawClients.ts) beside which `npm run bench` puts this client's CPU per call: each
 * starts against its fixture (the 2026-07-28 one over stdio and HTTP, the handshake HTTP one) and answers an echo,
 * sequentially and concurrently, then stops its server. The modern fixture rejects a request without the era's
 * `_meta`, so an answer also says the loop sends what the era requires. No timings: that is `npm run bench`'s job.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import type { BenchClient } from '../../../bench/clients';
import { RawHttpClient, RawModernStdioClient } from '../../../bench/rawClients';
import { REPO_ROOT } from '../../support/testSupport';

const MODERN = path.join(REPO_ROOT, 'bench', 'fixtures', 'modern-server.mjs');
const HANDSHAKE_HTTP = { script: path.join(REPO_ROOT, 'bench', 'fixtures', 'handshake-http-server.mjs') };

const columns: Record<string, () => BenchClient> = {
  '2026-07-28 stdio': () => new RawModernStdioClient(MODERN),
  '2026-07-28 HTTP': () => new RawHttpClient('modern', { script: MODERN, args: ['--transport', 'http'] }),
  'handshake HTTP': () => new RawHttpClient('handshake', HANDSHAKE_HTTP),
};

for (const [name, make] of Object.entries(columns)) {
  test(`raw column ${name}: starts and echoes`, async () => {
    const client = make();
    try {
      await client.start();
      assert.equal(await client.echo('hello'), 'hello');
      const texts = Array.from({ length: 20 }, (_, i) => `concurrent ${i}`);
      assert.deepEqual(await Promise.all(texts.map((text) => client.echo(text))), texts);
    } finally {
      await client.close();
    }
  });
}
