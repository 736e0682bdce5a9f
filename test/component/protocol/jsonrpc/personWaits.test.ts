import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { McpClient } from '../../../../src/protocol/client';
import type { EraPreference } from '../../../../src/protocol/eras/select';
import type { ElicitResult } from '../../../../src/protocol/types';
import { StdioTransport } from '../../../../src/protocol/node/stdio';
import { REPO_ROOT, collectingLogger, textOf, waitFor } from '../../../support/testSupport';

const CORE_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'core', 'coreServer.mjs');
/** The call's own deadline; the person answers after several times as long. */
const REQUEST_TIMEOUT_MS = 400;

const clients: McpClient[] = [];
after(async () => {
  for (const client of clients) await client.close();
});

/** A person who answers once `release` is called; the test releases only after the call's deadline has passed. */
function slowPerson(): { elicit: () => Promise<ElicitResult>; asked: () => boolean; release: () => void } {
  let answer: (() => void) | undefined;
  let asked = false;
  return {
    elicit: () =>
      new Promise<ElicitResult>((resolve) => {
        asked = true;
        answer = () => resolve({ action: 'accept', content: { name: 'Ada' } });
      }),
    asked: () => asked,
    release: () => answer?.(),
  };
}

function client(era: EraPreference, elicit: () => Promise<ElicitResult>, logger = collectingLogger()): McpClient {
  const created = new McpClient({
    serverName: 'core-fixture',
    transport: new StdioTransport({
      command: process.execPath,
      args: [CORE_SERVER, ...(era === 'legacy' ? [] : ['--modern'])],
      shutdownGraceMs: 1000,
    }),
    era,
    logger,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    initializeTimeoutMs: 10_000,
    host: { elicitation: { modes: ['form'], elicit } },
  });
  clients.push(created);
  return created;
}

for (const era of ['legacy', '2026-07-28'] as const) {
  describe(`a call waiting on a person (${era})`, () => {
    test('never dies of its own deadline while the person answers an elicitation', { timeout: 30_000 }, async () => {
      const person = slowPerson();
      const subject = client(era, person.elicit);
      await subject.connect();
      const calling = subject.callTool('ask');
      await waitFor(person.asked, 'the elicitation reached the person');
      // The person reads for three of the call's deadlines (the control test below shows one deadline does expire
      // when no person is acting).
      const waitedSince = Date.now();
      await waitFor(() => Date.now() - waitedSince > REQUEST_TIMEOUT_MS * 3, 'three deadlines passed', 10_000);
      assert.equal(subject.personWaits.waiting, true, 'the person is still acting');
      person.release();
      const { result } = await calling;
      assert.equal(textOf(result.content), 'hello Ada');
      assert.equal(subject.personWaits.waiting, false);
    });
  });
}

test(
  'without a person the same short deadline does expire (the control for the test above)',
  { timeout: 30_000 },
  async () => {
    // The fixture's 'ask' waits for an elicitation answer; a handler that never opens a PersonWaits wait (a script,
    // not a person) leaves the deadline running, so the call times out.
    let asked = false;
    const subject = new McpClient({
      serverName: 'core-fixture',
      transport: new StdioTransport({ command: process.execPath, args: [CORE_SERVER], shutdownGraceMs: 1000 }),
      era: 'legacy',
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      initializeTimeoutMs: 10_000,
    });
    clients.push(subject);
    await subject.connect();
    // Answer the server's elicitation/create by hand, without the host's handler (so no person wait opens).
    (
      subject as unknown as { rpc: { setRequestHandler(m: string, h: () => Promise<object>): void } }
    ).rpc.setRequestHandler('elicitation/create', () => {
      asked = true;
      return new Promise(() => undefined);
    });
    await assert.rejects(subject.callTool('ask'), /timed out/);
    assert.ok(asked, 'the server did ask');
  },
);

test('an answer that arrives after its request ended says so, naming the server', { timeout: 30_000 }, async () => {
  const person = slowPerson();
  const logger = collectingLogger();
  const subject = client('legacy', person.elicit, logger);
  await subject.connect();
  const calling = subject.callTool('ask_then_cancel');
  await waitFor(person.asked, 'the elicitation reached the person');
  // The fixture cancels its elicitation and answers the call without it.
  assert.equal(textOf((await calling).result.content), 'gave up');
  person.release();
  await waitFor(
    () =>
      logger.warns.some((line) =>
        /core-fixture: the answer to its elicitation\/create came after the request had already ended/.test(line),
      ),
    'the late answer is reported',
  );
});
