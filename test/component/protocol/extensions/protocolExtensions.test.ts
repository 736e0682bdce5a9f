import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { McpClient } from '../../../../src/protocol/client';
import type { EraPreference } from '../../../../src/protocol/eras/select';
import {
  authExtensionsFor,
  enterpriseManagedAuthorization,
  oauthClientCredentials,
} from '../../../../src/protocol/extensions/auth';
import {
  enableExtension,
  type ExtensionContext,
  type ExtensionDefinition,
} from '../../../../src/protocol/extensions/protocolExtension';
import type { CallToolResult } from '../../../../src/protocol/types';
import { StdioTransport } from '../../../../src/protocol/node/stdio';
import { REPO_ROOT, textOf } from '../../../support/testSupport';

const CORE_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'core', 'coreServer.mjs');

// The test extension's method, in the typed method table by declaration merging (as an extension's folder does).
declare module '../../../../src/protocol/methods' {
  interface ExtensionClientRequests {
    'tickets/redeem': { params: { ticket: string }; result: CallToolResult };
  }
}

interface TicketServices {
  /** A host service: told of each ticket the extension redeems. */
  redeemed(ticket: string): void;
}

interface TicketApi {
  redeem(ticket: string): Promise<CallToolResult>;
}

/** A tiny extension: declares a capability with settings, adds tickets/redeem and owns resultType "ticket". */
const tickets: ExtensionDefinition<TicketServices, TicketApi> = {
  id: 'test.example/tickets',
  settings: () => ({ version: 1 }),
  methods: ['tickets/redeem'],
  resultTypes: {
    ticket: async (result, context, services) => {
      const ticket = String(result.ticket);
      services.redeemed(ticket);
      return context.request('tickets/redeem', { ticket }, { signal: context.signal });
    },
  },
  activate: (context: ExtensionContext) => ({ redeem: (ticket) => context.request('tickets/redeem', { ticket }) }),
};

const clients: McpClient[] = [];
after(async () => {
  for (const client of clients) await client.close();
});

function client(flags: string[], era: EraPreference, enabled: ReturnType<typeof enableExtension>[]): McpClient {
  const created = new McpClient({
    serverName: 'core-fixture',
    transport: new StdioTransport({ command: process.execPath, args: [CORE_SERVER, ...flags], shutdownGraceMs: 1000 }),
    era,
    requestTimeoutMs: 10_000,
    extensions: enabled,
  });
  clients.push(created);
  return created;
}

for (const era of ['legacy', '2026-07-28'] as const) {
  describe(`protocol extensions (${era})`, () => {
    const flags = era === 'legacy' ? [] : ['--modern'];

    test('an enabled extension declares its capability, adds its method and owns its resultType', async () => {
      const redeemed: string[] = [];
      const subject = client(flags, era, [enableExtension(tickets, { redeemed: (ticket) => redeemed.push(ticket) })]);
      await subject.connect();
      // Declared where the era declares capabilities: initialize, or every request's _meta in 2026-07-28.
      const seen = await subject.callTool('seen_extensions');
      assert.deepEqual(JSON.parse(textOf(seen.result.content)), { 'test.example/tickets': { version: 1 } });
      // A result of type "ticket" is handed to the extension, whose answer is the call's result.
      const ticketed = await subject.callTool('ticketed');
      assert.equal(textOf(ticketed.result.content), 'redeemed T-1');
      assert.deepEqual(redeemed, ['T-1']);
      // The host reaches the extension's own method through its API.
      const api = subject.extension(tickets);
      assert.ok(api, 'the enabled extension has an API');
      assert.equal(textOf((await api.redeem('T-2')).content), 'redeemed T-2');
    });

    test('an extension the host did not enable is not declared, and its resultType stays unknown', async () => {
      const subject = client(flags, era, []);
      await subject.connect();
      const seen = await subject.callTool('seen_extensions');
      assert.equal(JSON.parse(textOf(seen.result.content)), null);
      assert.equal(subject.extension(tickets), undefined);
      if (era === '2026-07-28') {
        // The modern era refuses a resultType nobody reads, naming it.
        await assert.rejects(subject.callTool('ticketed'), /resultType "ticket"/);
      } else {
        // The handshake era knows no resultType: without the extension the result is read as a plain tool result.
        await assert.rejects(subject.callTool('ticketed'), /no content array/);
      }
    });

    test('the auth extensions declare their capability only for the grant they name', async () => {
      assert.deepEqual(authExtensionsFor({ kind: 'authorization-code' }), []);
      assert.deepEqual(authExtensionsFor(undefined), []);
      const subject = client(flags, era, authExtensionsFor({ kind: 'client-credentials' }));
      await subject.connect();
      const seen = await subject.callTool('seen_extensions');
      assert.deepEqual(JSON.parse(textOf(seen.result.content)), { [oauthClientCredentials.id]: {} });
      assert.equal(
        authExtensionsFor({
          kind: 'enterprise',
          idpTokenEndpoint: 'https://idp.example/token',
          idpClientId: 'c',
          idToken: () => 't',
        })[0]?.id,
        enterpriseManagedAuthorization.id,
      );
      assert.equal(oauthClientCredentials.grant, 'client-credentials');
      assert.equal(enterpriseManagedAuthorization.grant, 'enterprise');
    });
  });
}
