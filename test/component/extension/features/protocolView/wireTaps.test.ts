/**
 * The Protocol view costs nothing while closed: a server's WireTap sits on every connection (as the launcher attaches
 * it), but until a Protocol view (or dev mode) holds it, a message is neither masked, serialized nor kept. On a real
 * server: the greeter fixture over stdio, its messages observed through McpClientOptions.trace as in serverLauncher.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../../../../src/protocol/client';
import { StdioTransport } from '../../../../../src/protocol/node/stdio';
import { WireTaps, type WireTap } from '../../../../../src/extension/features/protocolView/wireTaps';
import type { MessageEvent } from '../../../../../src/workbench/protocolLog/wireEvent';
import { assertProcessGone } from '../../../../support/testSupport';
import { repoRoot } from '../../../../support/paths';

const GREETER = path.join(repoRoot, 'test', 'fixtures', 'recordings', 'greeter.mjs');
const SECRET = 'sk-live-wiretap-secret';

describe('Protocol view taps: nothing is recorded while no view is open', () => {
  let tap: WireTap;
  let client: McpClient;
  let transport: StdioTransport;
  /** Every masking of a message asks for the known secrets first, so this counts the messages that were processed. */
  let secretsAsked = 0;

  const greet = async (name: string) => {
    const { result } = await client.callTool('greet', { name });
    assert.deepEqual(result.content, [{ type: 'text', text: `Hello, ${name}!` }]);
  };
  const methodsIn = (events: readonly unknown[]) =>
    (events as MessageEvent[])
      .filter((event) => event.kind === 'message')
      .map((event) => `${event.direction} ${event.method ?? event.messageKind}`);

  before(async () => {
    tap = new WireTaps().tapFor('greeter-id', () => {
      secretsAsked++;
      return [SECRET];
    });
    transport = new StdioTransport({ command: process.execPath, args: [GREETER] });
    client = new McpClient({
      serverName: 'greeter',
      transport,
      trace: (direction, message) => tap.message(direction, message),
    });
    await client.connect();
  });

  after(async () => {
    const pid = transport.pid;
    await client?.close();
    if (pid !== undefined) await assertProcessGone(pid, 'greeter (stdio)');
  });

  test('a connection no view holds passes its messages through without masking or keeping any', async () => {
    // The handshake and a call have both crossed the tap by now: trace runs before each answer settles.
    await greet('Ada');
    assert.equal(tap.log, undefined, 'a log exists with no Protocol view open');
    assert.equal(secretsAsked, 0, 'messages were masked with no Protocol view open');
  });

  test('opening a view keeps what comes from then on, and none of what came before', async () => {
    const hold = tap.hold();
    try {
      assert.equal(hold.log.size, 0, 'the new log holds messages from before it was opened');
      await greet('Grace');
      const methods = methodsIn(hold.log.events());
      assert.ok(methods.includes('send tools/call'), `the call is not in the log: ${methods.join(', ')}`);
      assert.ok(
        !methods.some((method) => method.includes('initialize')),
        `the handshake from before the view opened is in the log: ${methods.join(', ')}`,
      );
      assert.ok(secretsAsked > 0, 'the kept messages were not masked');
    } finally {
      hold.dispose();
    }
  });

  test('closing the last view drops the log and stops the work; a view opened later starts empty', async () => {
    const panel = tap.hold();
    const devMode = tap.hold();
    assert.equal(devMode.log, panel.log, 'two holders keep two logs');
    panel.dispose();
    await greet('Edsger');
    assert.equal(tap.log, devMode.log, 'the log went away while a holder was left');
    const keptWhileHeld = devMode.log.size;
    assert.ok(keptWhileHeld > 0, 'the remaining holder saw nothing');
    devMode.dispose();
    assert.equal(tap.log, undefined, 'the log outlived its last holder');

    const askedWhenClosed = secretsAsked;
    await greet('Barbara');
    assert.equal(tap.log, undefined, 'a log came back with no view open');
    assert.equal(secretsAsked, askedWhenClosed, 'messages were masked after the last view closed');
    const reopened = tap.hold();
    try {
      assert.notEqual(reopened.log, devMode.log, 'the closed log was reused');
      assert.equal(reopened.log.size, 0, 'the reopened view shows messages from while it was closed');
    } finally {
      reopened.dispose();
    }
  });
});
