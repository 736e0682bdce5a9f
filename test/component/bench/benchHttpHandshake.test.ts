/**
 * The bench's http-handshake section (bench/handshakeHttpClients.ts): every column starts against its own
 * bench/fixtures/handshake-http-server.mjs, settles on 2025-11-25 (each column checks that at start) and answers
 * an echo, sequentially and concurrently, then stops its server. No timings: that is `npm run bench`'s job.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import type { BenchClient } from '../../../bench/clients';
import {
  OursHandshakeHttpClient,
  SdkHandshakeHttpClient,
  SdkV2HandshakeHttpClient,
} from '../../../bench/handshakeHttpClients';
import * as ours from '../../../bench/oursEntry';
import { REPO_ROOT } from '../../support/testSupport';

const SERVER = { script: path.join(REPO_ROOT, 'bench', 'fixtures', 'handshake-http-server.mjs') };

const columns: Record<string, () => BenchClient> = {
  ours: () => new OursHandshakeHttpClient(ours, SERVER),
  'SDK 1.x': () => new SdkHandshakeHttpClient(SERVER),
  'SDK 2.x': () => new SdkV2HandshakeHttpClient(SERVER),
};

for (const [name, make] of Object.entries(columns)) {
  test(`http-handshake column ${name}: starts in the handshake era over Streamable HTTP and echoes`, async () => {
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
