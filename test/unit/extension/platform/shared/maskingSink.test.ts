/**
 * Masking at the sink: every server's log channel is the masking writer of src/extension/platform/shared/maskingChannel.ts,
 * so a write that forgets to mask is masked anyway. Here a real HTTP server answers every request with an error
 * body that echoes the request's headers (the Authorization header and a header carrying a password input); the
 * real client's error, the trace and the diagnostics are written the way the extension writes them, unmasked, to
 * a masking channel: the secrets never reach the channel's text (a channel that records what it is given).
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { McpClient } from '../../../../../src/protocol/client';
import { errorMessage } from '../../../../../src/protocol/errors';
import { maskingChannel, type LogSink } from '../../../../../src/extension/platform/shared/maskingChannel';
import { createTransport, resolveServerWithSecrets } from '../../../../../src/workbench/node/launch';
import type { ServerDefinition } from '../../../../../src/workbench/config/mcpConfig';

const TOKEN = 'tok-9f8e7d6c5b4a';
const PASSWORD = 'db-pa55word-1234';
const URL_KEY = 'sk-live-in-the-query';

/** A channel that keeps every line it is given, in order. */
function recordingChannel(): LogSink & { lines: string[] } {
  const lines: string[] = [];
  const write = (level: string) => (text: unknown) => void lines.push(`${level} ${String(text)}`);
  return {
    lines,
    trace: write('trace'),
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    append: write('append'),
    appendLine: write('line'),
    replace: write('replace'),
  };
}

test(
  'an HTTP error body that echoes the Authorization header and a password input reaches the channel masked',
  { timeout: 30_000 },
  async () => {
    const server = http.createServer((request, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`internal error; you sent ${JSON.stringify(request.headers)} to ${request.url}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const definition: ServerDefinition = {
        kind: 'http',
        name: 'echoing',
        url: `http://127.0.0.1:${port}/mcp?api_key=${URL_KEY}`,
        headers: { Authorization: 'Bearer ${input:token}', 'X-Db': '${input:db-password}' },
        transport: 'auto',
      };
      const inputs: Record<string, string> = { token: TOKEN, 'db-password': PASSWORD };
      const { resolved, secrets } = await resolveServerWithSecrets(definition, {
        env: {},
        userHome: '/home/nobody',
        input: async (id) => inputs[id],
      });
      assert.equal(resolved.kind, 'http');
      const sink = recordingChannel();
      // The server's secrets as the controller knows them: the resolved inputs and header values.
      const log = maskingChannel(sink, () => secrets);
      const unmasked: string[] = [];
      const transport = createTransport(resolved);
      transport.onDiagnostic((line) => {
        unmasked.push(line);
        log.info(line);
      });
      const client = new McpClient({
        serverName: 'echoing',
        transport,
        trace: (direction, message) => log.info(`[trace] ${direction} ${JSON.stringify(message)}`),
        logger: {
          debug: (m) => log.debug(m),
          info: (m) => log.info(m),
          warn: (m) => log.warn(m),
          error: (m) => log.error(m),
        },
      });
      const failure = await client.connect().then(
        () => assert.fail('the echoing server cannot be connected to'),
        (error: unknown) => error,
      );
      await client.close().catch(() => undefined);
      const message = errorMessage(failure);
      unmasked.push(message);
      // The five call sites of the issue wrote exactly this, unmasked: now the channel masks it.
      log.error(`Failed to start: ${message}`);
      log.warn(`Could not list resources and prompts: ${message}`);
      log.error(failure instanceof Error ? failure : new Error(message));
      log.info(`Starting echoing: ${definition.url}`);

      assert.ok(
        unmasked.join('\n').includes(TOKEN) && unmasked.join('\n').includes(PASSWORD),
        `the server echoed the secrets (positive control): ${message}`,
      );
      const written = sink.lines.join('\n');
      assert.ok(written.includes('internal error'), `the error reached the channel: ${written}`);
      for (const secret of [TOKEN, PASSWORD, URL_KEY])
        assert.ok(!written.includes(secret), `${secret} reached the channel:\n${written}`);
    } finally {
      server.close();
    }
  },
);

test('a channel that throws (closed on reload) does not throw into the writer', () => {
  const sink = recordingChannel();
  sink.info = () => {
    throw new Error('channel closed');
  };
  const log = maskingChannel(sink, () => []);
  assert.doesNotThrow(() => log.info('Stopped'));
});
