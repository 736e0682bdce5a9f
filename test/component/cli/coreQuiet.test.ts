import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { McpClient } from '../../../src/protocol/client';
import { StdioTransport } from '../../../src/protocol/node/stdio';
import { REPO_ROOT, textOf, waitFor } from '../../support/testSupport';

const CORE_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'core', 'coreServer.mjs');
const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');

const clients: McpClient[] = [];
after(async () => {
  for (const client of clients) await client.close();
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { timeout: 60_000, env: { ...process.env, XDG_CACHE_HOME: path.join(REPO_ROOT, 'test-results', 'cache') } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const fixture = (...flags: string[]) =>
  [JSON.stringify(process.execPath), JSON.stringify(CORE_SERVER), ...flags].join(' ');

for (const era of ['legacy', '2026-07-28'] as const) {
  test(
    `a flood of tools/list_changed is N events and no request from the client (${era}, issue 17)`,
    { timeout: 60_000 },
    async () => {
      const sent: string[] = [];
      const client = new McpClient({
        serverName: 'flood',
        transport: new StdioTransport({
          command: process.execPath,
          args: [CORE_SERVER, ...(era === 'legacy' ? [] : ['--modern'])],
          shutdownGraceMs: 1000,
        }),
        era,
        trace: (direction, message) =>
          direction === 'send' && sent.push(String((message as { method?: unknown }).method)),
      });
      clients.push(client);
      await client.connect();
      let changes = 0;
      client.onToolsChanged(() => changes++);
      const before = sent.length;
      assert.equal(textOf((await client.callTool('flood')).result.content), 'flooded');
      if (era === 'legacy') {
        // The positive control: every notification reached the listener.
        await waitFor(() => changes === 1000, `1000 change events (got ${changes})`);
        assert.deepEqual(sent.slice(before), ['tools/call'], 'the client itself sent nothing because of them');
      } else {
        // 2026-07-28: notifications count only on our subscription stream; the flood outside it is ignored, and the
        // stream the listener opened is the only extra request.
        assert.deepEqual(
          sent.slice(before).filter((method) => method !== 'subscriptions/listen'),
          ['tools/call'],
        );
      }
    },
  );
}

test(
  'a one-shot CLI command against a 2026-07-28 server opens no subscriptions/listen (issue 23)',
  { timeout: 90_000 },
  async () => {
    const run = await cli(['tools', '--verbose', '--era', '2026-07-28', '--stdio', fixture('--modern')]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /request tools\/list/, 'the trace is on (positive control)');
    assert.doesNotMatch(run.stderr, /subscriptions\/listen/);
    assert.doesNotMatch(run.stderr, /notifications\/cancelled/);
  },
);

test(
  '--verbose at shutdown: one response at most per roots/list id, and no "Processing message queue failed" (issue 23)',
  { timeout: 90_000 },
  async () => {
    const run = await cli(['tools', '--verbose', '--era', 'legacy', '--stdio', fixture('--roots-at-exit')]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /request roots\/list/, 'the server did ask at exit (positive control)');
    const responses = [...run.stderr.matchAll(/→ (?:error )?response (#\S+)/g)].map((match) => match[1]);
    assert.equal(new Set(responses).size, responses.length, `two responses to one id: ${responses.join(', ')}`);
    assert.doesNotMatch(run.stderr, /Processing message queue failed/);
  },
);
