/** A hostile (or just very large) list page must not break the client: 200,000 tools in one tools/list page. */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { McpClient } from '../../../src/protocol/client';
import { REPO_ROOT, assertProcessGone, trackedStdio } from '../../support/testSupport';

const LARGE_PAGE_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'hostile', 'large-page-server.mjs');

test(
  'a tools/list page of 200,000 tools is collected without overflowing the stack, and paging goes on',
  { timeout: 60_000 },
  async () => {
    const { transport, pid } = trackedStdio({
      command: process.execPath,
      args: [LARGE_PAGE_SERVER, '200000'],
      shutdownGraceMs: 500,
    });
    const client = new McpClient({ serverName: 'large-page', transport, requestTimeoutMs: 30_000 });
    try {
      await client.connect();
      const tools = await client.listTools();
      assert.equal(tools.length, 200_001);
      assert.equal(tools[0].name, 't0');
      assert.equal(tools[199_999].name, 't199999');
      assert.equal(tools[200_000].name, 'last');
    } finally {
      await client.close();
      await assertProcessGone(pid() as number, 'large-page server');
    }
  },
);
