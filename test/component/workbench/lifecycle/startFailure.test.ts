import assert from 'node:assert/strict';
import * as net from 'node:net';
import { test } from 'node:test';
import { errorDetail } from '../../../../src/protocol/errors';
import { describeStartFailure, summarizeStartFailure } from '../../../../src/workbench/lifecycle/startFailure';
import { startError } from '../../../support/testSupport';

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('a process that exits before the handshake: the exit code and its last stderr line, on one line', async () => {
  const script = "console.error('loading config'); console.error('fatal: API_TOKEN is not set'); process.exit(3)";
  const error = await startError({
    kind: 'stdio',
    name: 'probe',
    command: process.execPath,
    args: ['-e', script],
    env: {},
  });
  assert.equal(summarizeStartFailure(error), 'exited with code 3: fatal: API_TOKEN is not set');
  assert.deepEqual(describeStartFailure(error.message, errorDetail(error)), {
    kind: 'detail',
    detail: { kind: 'process-exited', code: 3 },
    lastStderr: 'fatal: API_TOKEN is not set',
  });
});

test('a process that exits silently: the exit code alone', async () => {
  const error = await startError({
    kind: 'stdio',
    name: 'probe',
    command: process.execPath,
    args: ['-e', 'process.exit(2)'],
    env: {},
  });
  assert.equal(summarizeStartFailure(error), 'exited with code 2');
});

test('an HTTP endpoint nobody listens on: "unreachable: connection refused" with the URL', async () => {
  const url = `http://127.0.0.1:${await closedPort()}/mcp`;
  const error = await startError({ kind: 'http', name: 'probe', url, headers: {}, transport: 'auto' });
  assert.equal(summarizeStartFailure(error), `unreachable: connection refused (${url})`);
});

test('anything else: the first line of the message', () => {
  assert.equal(
    summarizeStartFailure(new Error('probe: initialize failed: unsupported protocol version\nsecond line')),
    'probe: initialize failed: unsupported protocol version',
  );
  assert.deepEqual(describeStartFailure('probe: initialize failed\nsecond line', undefined), {
    kind: 'line',
    line: 'probe: initialize failed',
  });
});
