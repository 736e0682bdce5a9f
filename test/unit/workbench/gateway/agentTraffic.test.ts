import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JsonObject } from '../../../../src/protocol/types';
import type { AgentIdentity } from '../../../../src/workbench/gateway/agents';
import {
  agentCallRecord,
  agentLabel,
  observedUpstream,
  type AgentRequestEnd,
} from '../../../../src/workbench/gateway/agentTraffic';
import { ToolPolicy, policedUpstream } from '../../../../src/workbench/gateway/toolPolicy';
import type { GatewayUpstream } from '../../../../src/workbench/gateway/upstream';
import { HistoryLog } from '../../../../src/workbench/history/historyLog';
import { parseHistory, serializeHistory } from '../../../../src/workbench/history/historySnapshot';
import { ProtocolLog } from '../../../../src/workbench/protocolLog/protocolLog';
import { historyStep } from '../../../../src/workbench/recordings/fromHistory';

const AGENT: AgentIdentity = { key: 'session:1', name: 'evil\u202Eagent', version: '1.0' };

function upstreamAnswering(answer: (method: string, params: JsonObject | undefined) => JsonObject): GatewayUpstream {
  const none = () => ({ dispose: () => undefined });
  return {
    name: 'everything',
    session: () => ({}) as never,
    request: async (method, params) => answer(method, params),
    ping: async () => undefined,
    subscribe: async () => undefined,
    unsubscribe: async () => undefined,
    setLogLevel: async () => undefined,
    onToolsChanged: none,
    onResourcesChanged: none,
    onPromptsChanged: none,
    onResourceUpdated: none,
    onLogMessage: none,
  };
}

describe('agent traffic (labelled in the Protocol view and History)', () => {
  test('every agent request reaches the observer with the agent, and its end as the agent was answered', async () => {
    const heard: { agent?: AgentIdentity; method: string; end?: AgentRequestEnd }[] = [];
    const upstream = observedUpstream(
      upstreamAnswering(() => ({ tools: [] })),
      {
        request: (agent, method) => {
          const entry: (typeof heard)[number] = { agent, method };
          heard.push(entry);
          return (end) => (entry.end = end);
        },
      },
    );
    await upstream.request('tools/list', {}, { signal: new AbortController().signal, agent: AGENT });
    await upstream.ping({ signal: new AbortController().signal, agent: AGENT });
    assert.deepEqual(heard, [
      { agent: AGENT, method: 'tools/list', end: { kind: 'answered', result: { tools: [] } } },
      { agent: AGENT, method: 'ping', end: { kind: 'answered', result: {} } },
    ]);
  });

  test("an observer's failure changes nothing the agent gets", async () => {
    const upstream = observedUpstream(
      upstreamAnswering(() => ({ ok: true })),
      {
        request: () => {
          throw new Error('observer broke');
        },
      },
    );
    assert.deepEqual(await upstream.request('ping', undefined, { signal: new AbortController().signal }), { ok: true });
  });

  test('an agent tool call is a History entry whose source names the agent, kept across a reload, and Save as Test makes a step of it', () => {
    const record = agentCallRecord({
      server: { id: 's1', name: 'everything' },
      agent: AGENT,
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'hi' } },
      startedAt: 1000,
      endedAt: 1012,
      end: { kind: 'answered', result: { content: [{ type: 'text', text: 'Echo: hi' }] } },
    });
    assert.ok(record);
    const history = new HistoryLog();
    const entry = history.record(record);
    assert.deepEqual(entry.source, { kind: 'agent', name: 'evil\u202Eagent', version: '1.0' });
    assert.deepEqual(entry.operation, { kind: 'tool', toolName: 'echo', arguments: { message: 'hi' } });
    const restored = parseHistory(serializeHistory(history.entries()));
    assert.deepEqual(restored.entries[0]?.source, entry.source, 'the source survives the History file');
    const step = historyStep(entry);
    assert.equal(step.kind, 'step');
    assert.deepEqual(step.kind === 'step' ? step.step.request : undefined, {
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'hi' } },
    });
  });

  test("a call the policy refused is History's declined, with the refusal as its note; lists are not History's", async () => {
    const policed = policedUpstream(
      upstreamAnswering(() => ({})),
      new ToolPolicy({ tools: { echo: { enabled: false } } }),
      {},
    );
    const error = await policed
      .request('tools/call', { name: 'echo', arguments: {} }, { signal: new AbortController().signal })
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    const record = agentCallRecord({
      server: { id: 's1', name: 'everything' },
      agent: AGENT,
      method: 'tools/call',
      params: { name: 'echo', arguments: {} },
      startedAt: 0,
      endedAt: 1,
      end: { kind: 'threw', error },
    });
    assert.equal(record?.outcome.kind, 'declined');
    assert.match(record?.outcome.kind === 'declined' ? (record.outcome.note ?? '') : '', /disabled for agents/);
    // The host words it in the person's language.
    const worded = agentCallRecord({
      server: { id: 's1', name: 'everything' },
      agent: AGENT,
      method: 'tools/call',
      params: { name: 'echo', arguments: {} },
      startedAt: 0,
      endedAt: 1,
      end: { kind: 'threw', error },
      describeRefusal: (reason) => `refused: ${reason}`,
    });
    assert.deepEqual(worded?.outcome, { kind: 'declined', note: 'refused: disabled' });
    const list = agentCallRecord({
      server: { id: 's1', name: 'everything' },
      agent: AGENT,
      method: 'tools/list',
      params: {},
      startedAt: 0,
      endedAt: 1,
      end: { kind: 'answered', result: { tools: [] } },
    });
    assert.equal(list, undefined);
  });

  test("the Protocol log shows the agent's request and the gateway's answer labelled with the agent, escaped, paired", () => {
    const log = new ProtocolLog(() => ['s3cret']);
    const agent = { key: AGENT.key, label: agentLabel(AGENT) };
    log.agentMessage(agent, 'receive', {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'echo', arguments: { token: 's3cret' } },
    });
    log.agentMessage(agent, 'send', {
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32602, message: 'Tool "echo" is disabled' },
    });
    const [request, reply] = log.events();
    assert.equal(request.kind === 'message' && request.agent, 'evil\\u202Eagent 1.0');
    assert.equal(request.kind === 'message' && request.direction, 'receive');
    assert.equal(request.kind === 'message' && request.method, 'tools/call');
    assert.doesNotMatch(request.kind === 'message' ? request.text : '', /s3cret/, 'masked like the wire');
    assert.equal(reply.kind === 'message' && reply.relatedSeq, request.seq);
    assert.equal(reply.kind === 'message' && reply.messageKind, 'error');
    assert.equal(reply.kind === 'message' && reply.agent, request.kind === 'message' ? request.agent : undefined);
  });
});
