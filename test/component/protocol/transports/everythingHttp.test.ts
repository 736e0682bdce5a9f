/**
 * The client against the real @modelcontextprotocol/server-everything in its Streamable HTTP mode on
 * 127.0.0.1: the same features as over stdio, with server→client requests and notifications arriving on
 * SSE streams, a session id, the protocol version header, and DELETE on close.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../../../src/protocol/client';
import { LocalError } from '../../../../src/protocol/errors';
import type { ProgressUpdate } from '../../../../src/protocol/jsonrpc/rpcConnection';
import type { LogMessage } from '../../../../src/protocol/types';
import { StreamableHttpTransport } from '../../../../src/protocol/transports/streamableHttp';
import { assertProcessGone, startEverythingHttp, textOf, waitFor } from '../../../support/testSupport';

let server: ChildProcess;
let url: string;
let client: McpClient;
const sent: Record<string, unknown>[] = [];
const sampled: string[] = [];

before(async () => {
  ({ server, url } = await startEverythingHttp());
  client = new McpClient({
    serverName: 'everything-http',
    transport: new StreamableHttpTransport({ url }),
    trace: (direction, message) => {
      if (direction === 'send') sent.push(message as Record<string, unknown>);
    },
    host: {
      roots: { listRoots: () => [{ uri: 'file:///tmp/http-root', name: 'http-root' }] },
      sampling: {
        createMessage: async (request) => {
          sampled.push(JSON.stringify(request.messages));
          return { role: 'assistant', content: { type: 'text', text: 'sampled over HTTP' }, model: 'http-model' };
        },
      },
      elicitation: {
        modes: ['form'],
        elicit: async () => ({
          action: 'accept',
          content: { name: 'Grace Hopper', check: true, email: 'grace@example.com', integer: 3 },
        }),
      },
    },
  });
  await client.connect();
});

after(async () => {
  await client?.close();
  const pid = server.pid;
  server.kill();
  if (pid !== undefined) await assertProcessGone(pid, 'server-everything (streamableHttp)');
});

describe('server-everything over Streamable HTTP', () => {
  test('initialize negotiates the latest revision over Streamable HTTP', () => {
    assert.equal(client.transport.kind, 'streamable-http');
    assert.equal(client.session.protocolVersion, '2025-11-25');
    assert.match(client.session.serverInfo.name, /everything/);
  });

  test('tools: list, call, structured content validated, progress', { timeout: 20_000 }, async () => {
    const tools = await client.listTools();
    assert.ok(
      tools.some((t) => t.name === 'trigger-sampling-request'),
      'sampling tools are offered because sampling was declared',
    );
    assert.equal(textOf((await client.callTool('get-sum', { a: 2, b: 3 })).result.content), 'The sum of 2 and 3 is 5.');
    const structured = await client.callTool('get-structured-content', { location: 'Chicago' });
    assert.equal(structured.outputValidation?.kind, 'valid');
    const updates: ProgressUpdate[] = [];
    await client.callTool(
      'trigger-long-running-operation',
      { duration: 0.6, steps: 3 },
      { onProgress: (u) => updates.push(u) },
    );
    assert.deepEqual(
      updates.map((u) => u.progress),
      [1, 2, 3],
    );
  });

  test('server→client requests on the SSE stream: sampling, elicitation, roots', { timeout: 20_000 }, async () => {
    assert.match(
      textOf(
        (await client.callTool('trigger-sampling-request', { prompt: 'over http', maxTokens: 20 })).result.content,
      ),
      /sampled over HTTP/,
    );
    assert.match(sampled.at(-1) ?? '', /over http/);
    assert.match(textOf((await client.callTool('trigger-elicitation-request')).result.content), /Grace Hopper/);
    assert.match(textOf((await client.callTool('get-roots-list')).result.content), /http-root/);
  });

  test('cancellation: the call rejects at once and the session stays usable', { timeout: 20_000 }, async () => {
    const controller = new AbortController();
    const call = client.callTool(
      'trigger-long-running-operation',
      { duration: 20, steps: 40 },
      { signal: controller.signal, onProgress: () => controller.abort() },
    );
    await assert.rejects(call, (error: unknown) => error instanceof LocalError && error.kind === 'cancelled');
    assert.ok(sent.some((m) => m.method === 'notifications/cancelled'));
    await client.ping();
  });

  test('resources, templates, prompts and completion', { timeout: 20_000 }, async () => {
    const resources = await client.listResources();
    assert.ok(resources.length > 0);
    const blob = await client.readResource('demo://resource/dynamic/blob/2');
    assert.match(Buffer.from((blob.contents[0] as { blob: string }).blob, 'base64').toString(), /^Resource 2/);
    assert.equal((await client.listResourceTemplates()).length, 2);
    const prompt = await client.getPrompt('args-prompt', { city: 'Lisbon' });
    assert.match(JSON.stringify(prompt.messages), /Lisbon/);
    const completion = await client.complete(
      { type: 'ref/prompt', name: 'completable-prompt' },
      { name: 'department', value: 'E' },
    );
    assert.ok(completion.values.includes('Engineering'), JSON.stringify(completion));
  });

  test('logging notifications arrive (on the GET stream or the POST stream)', { timeout: 20_000 }, async () => {
    const messages: LogMessage[] = [];
    const subscription = client.onLogMessage((m) => messages.push(m));
    try {
      await client.setLoggingLevel('debug');
      await client.callTool('toggle-simulated-logging');
      await waitFor(() => messages.length > 0, 'a log message over HTTP', 15_000);
      await client.callTool('toggle-simulated-logging');
    } finally {
      subscription.dispose();
    }
  });

  test('the server assigned a session, which the transport keeps for every later request', () => {
    const transport = client.transport;
    assert.ok(transport instanceof StreamableHttpTransport);
    assert.match(transport.currentSessionId ?? '', /^\S+$/);
  });
});
