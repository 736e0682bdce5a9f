/** The -32042 flow: a tool needs an out-of-band URL step; the person consents, the server completes, the call is retried. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { McpClient } from '../../../src/protocol/client';
import { McpError } from '../../../src/protocol/errors';
import type { ElicitRequest } from '../../../src/protocol/types';
import { HOSTILE_SERVER, assertProcessGone, textOf, trackedStdio } from '../../support/testSupport';

function start(action: 'accept' | 'decline') {
  const asked: ElicitRequest[] = [];
  const completed: string[] = [];
  const { transport, pid } = trackedStdio({
    command: process.execPath,
    args: [HOSTILE_SERVER, 'url-elicitation-required'],
    shutdownGraceMs: 500,
  });
  const client = new McpClient({
    serverName: 'needs-auth',
    transport,
    host: {
      elicitation: {
        modes: ['url'],
        elicit: async (request) => {
          asked.push(request);
          return { action };
        },
        completed: (id) => completed.push(id),
      },
    },
  });
  return { client, asked, completed, pid };
}

test(
  '-32042: consent to the URL, wait for elicitation/complete, then the retried call succeeds',
  { timeout: 20_000 },
  async () => {
    const { client, asked, completed, pid } = start('accept');
    try {
      await client.connect();
      await client.listTools();
      const { result } = await client.callTool('trigger');
      assert.equal(textOf(result.content), 'authorized call succeeded');
      assert.equal(asked.length, 1);
      assert.equal(asked[0].mode, 'url');
      assert.equal(asked[0].url, 'https://example.com/connect?state=abc&next=%2Fhome%20page&q=a+b&name=%C3%A9');
      assert.equal(asked[0].elicitationId, 'auth-1');
      assert.deepEqual(completed, ['auth-1']);
    } finally {
      await client.close();
      await assertProcessGone(pid() as number, 'needs-auth');
    }
  },
);

test('-32042: when the person declines, the server error stands', { timeout: 20_000 }, async () => {
  const { client, asked, pid } = start('decline');
  try {
    await client.connect();
    await assert.rejects(
      client.callTool('trigger'),
      (error: unknown) => error instanceof McpError && error.code === -32042 && error.message.includes('needs-auth'),
    );
    assert.equal(asked.length, 1);
  } finally {
    await client.close();
    await assertProcessGone(pid() as number, 'needs-auth');
  }
});
