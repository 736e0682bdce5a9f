/**
 * Copilot's `tools` allow-list on the gateway's upstream (src/workbench/gateway/upstream.ts `withToolAllowList`): an
 * agent (VS Code's chat through the gateway) lists only the allowed tools and a call to another is refused before it
 * reaches the server, as in the Servers view. The upstream is a fake: the server is not the thing under test.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Emitter } from '../../../../src/protocol/disposable';
import { McpError } from '../../../../src/protocol/errors';
import type { JsonObject } from '../../../../src/protocol/types';
import { withToolAllowList, type GatewayUpstream } from '../../../../src/workbench/gateway/upstream';

function fakeUpstream() {
  const sent: string[] = [];
  const changed = new Emitter<void>();
  const upstream: GatewayUpstream = {
    name: 'gh',
    session: () => ({
      kind: 'handshake',
      protocolVersion: '2025-11-25',
      capabilities: { tools: {} },
      serverInfo: { name: 'gh', version: '1' },
    }),
    request: async (method, params) => {
      sent.push(`${method} ${String(params?.name ?? '')}`.trim());
      if (method === 'tools/list')
        return {
          tools: ['get_issue', 'list_issues', 'delete_repo'].map((name) => ({ name, inputSchema: { type: 'object' } })),
          nextCursor: 'c2',
        } as JsonObject;
      return { content: [] } as JsonObject;
    },
    callToolUnwaited: async (name) => (sent.push(`unwaited ${name}`), { content: [] }),
    ping: async () => undefined,
    subscribe: async () => undefined,
    unsubscribe: async () => undefined,
    setLogLevel: async () => undefined,
    onToolsChanged: changed.event,
    onResourcesChanged: changed.event,
    onPromptsChanged: changed.event,
    onResourceUpdated: () => ({ dispose: () => undefined }),
    onLogMessage: () => ({ dispose: () => undefined }),
  };
  return { upstream, sent, changed };
}

const options = { signal: new AbortController().signal };

test('with an allow-list: tools/list offers only the listed tools (cursor kept); a call to another never reaches the server', async () => {
  const { upstream, sent, changed } = fakeUpstream();
  const allowed = withToolAllowList(upstream, ['get_issue', 'list_issues']);
  const listed = await allowed.request('tools/list', {}, options);
  assert.deepEqual(
    (listed.tools as { name: string }[]).map((tool) => tool.name),
    ['get_issue', 'list_issues'],
  );
  assert.equal(listed.nextCursor, 'c2');
  await assert.rejects(allowed.request('tools/call', { name: 'delete_repo', arguments: {} }, options), (error) => {
    assert.ok(error instanceof McpError);
    assert.equal(error.code, -32602);
    assert.match(error.message, /"delete_repo" is not offered: .* allows only get_issue, list_issues/);
    return true;
  });
  await assert.rejects(allowed.callToolUnwaited!('delete_repo', {}, options), /not offered/);
  await allowed.request('tools/call', { name: 'get_issue', arguments: {} }, options);
  await allowed.callToolUnwaited!('list_issues', {}, options);
  assert.deepEqual(sent, ['tools/list', 'tools/call get_issue', 'unwaited list_issues']);
  let heard = 0;
  allowed.onToolsChanged(() => heard++);
  changed.fire();
  assert.equal(heard, 1, 'notifications still pass');
});

test('without an allow-list the upstream is served as it is', () => {
  const { upstream } = fakeUpstream();
  assert.equal(withToolAllowList(upstream, undefined), upstream);
});
