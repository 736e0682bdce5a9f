/**
 * Every message the client SENDS during real sessions is validated against the official 2025-11-25 JSON
 * schema: the JSON-RPC envelope, plus the method-specific request/notification definition, plus the specific
 * result definition for responses to server requests. Ids must be integers or strings and never reused;
 * every `_meta` key must obey the naming rules.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { afterEach, describe, test } from 'node:test';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { McpClient } from '../../../src/protocol/client';
import { Emitter } from '../../../src/protocol/disposable';
import { LocalError } from '../../../src/protocol/errors';
import type { ClientHost } from '../../../src/protocol/host';
import { checkMetaKey } from '../../../src/protocol/jsonrpc/messages';
import {
  EVERYTHING_SERVER,
  HOSTILE_SERVER,
  assertProcessGone,
  textOf,
  trackedStdio,
  waitFor,
} from '../../support/testSupport';

const SCHEMA_PATH = '/work/shared/mcp-schema/2025-11-25/schema.json';

interface SchemaFile {
  $schema: string;
  $defs: Record<string, { properties?: { method?: { const?: string } } }>;
}

const schema = JSON.parse(fs.readFileSync(SCHEMA_PATH, 'utf8')) as SchemaFile;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(schema, 'mcp');

const validators = new Map<string, ValidateFunction>();
function validatorFor(definition: string): ValidateFunction {
  let validate = validators.get(definition);
  if (!validate) {
    validate = ajv.getSchema(`mcp#/$defs/${definition}`);
    assert.ok(validate, `the schema defines ${definition}`);
    validators.set(definition, validate);
  }
  return validate;
}

/** method → the schema definition whose `method` is that constant (CallToolRequest, InitializedNotification, ...). */
const definitionByMethod = new Map<string, string>();
for (const [name, definition] of Object.entries(schema.$defs)) {
  const method = definition.properties?.method?.const;
  if (method) definitionByMethod.set(method, name);
}

/** The result definition a client response must match, by the server request's method. */
const RESULT_DEFINITION: Record<string, string> = {
  ping: 'EmptyResult',
  'roots/list': 'ListRootsResult',
  'sampling/createMessage': 'CreateMessageResult',
  'elicitation/create': 'ElicitResult',
};

type Json = Record<string, unknown>;

interface Session {
  label: string;
  sent: Json[];
  received: Json[];
}

/** What a test started, ended after it whatever happened (each test opens and checks its own sessions). */
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function open(label: string, args: string[], host?: ClientHost): { client: McpClient; session: Session } {
  const session: Session = { label, sent: [], received: [] };
  const tracked = trackedStdio({ command: process.execPath, args, shutdownGraceMs: 1000 });
  const client = new McpClient({
    serverName: label,
    transport: tracked.transport,
    host,
    requestTimeoutMs: 20_000,
    // What goes on the wire is the JSON serialisation; undefined members vanish there.
    trace: (direction, message) =>
      (direction === 'send' ? session.sent : session.received).push(JSON.parse(JSON.stringify(message)) as Json),
  });
  cleanups.push(async () => {
    await client.close();
    const pid = tracked.pid();
    if (pid !== undefined) await assertProcessGone(pid, label);
  });
  return { client, session };
}

function validate(definition: string, value: unknown, where: string): void {
  const check = validatorFor(definition);
  assert.ok(
    check(value),
    `${where} does not match ${definition}: ${ajv.errorsText(check.errors)}\n${JSON.stringify(value).slice(0, 500)}`,
  );
}

function collectMetaKeys(value: unknown, keys: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const item of value) collectMetaKeys(item, keys);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '_meta' && typeof inner === 'object' && inner !== null) keys.push(...Object.keys(inner));
      collectMetaKeys(inner, keys);
    }
  }
  return keys;
}

interface Tally {
  requests: number;
  notifications: number;
  results: number;
  errors: number;
  /** The schema definitions the results of the client's answers to server requests matched. */
  resultDefinitions: string[];
}

/**
 * Validates every message the sessions sent against the schema (envelope, method definition, result definition
 * of answers to server requests, id rules, `_meta` keys) and counts what was seen, so a caller can check the
 * sessions exercised what it meant them to.
 */
function assertSentValid(sessions: readonly Session[]): Tally {
  const seen = { requests: 0, notifications: 0, results: 0, errors: 0 };
  const resultDefinitions = new Set<string>();
  for (const session of sessions) {
    const serverRequests = new Map<unknown, string>();
    for (const message of session.received) {
      if (typeof message.method === 'string' && 'id' in message) serverRequests.set(message.id, message.method);
    }
    const usedIds = new Set<unknown>();
    session.sent.forEach((message, index) => {
      const where = `${session.label} message #${index} (${String(message.method ?? `response to ${String(message.id)}`)})`;
      validate('JSONRPCMessage', message, where);
      for (const key of collectMetaKeys(message)) {
        const check = checkMetaKey(key);
        assert.ok(check.ok, `${where}: ${check.ok ? '' : check.reason}`);
      }
      if (typeof message.method === 'string') {
        const definition = definitionByMethod.get(message.method);
        assert.ok(definition, `${where}: ${message.method} is a method of the 2025-11-25 schema`);
        if ('id' in message) {
          seen.requests++;
          validate('JSONRPCRequest', message, where);
          assert.ok(
            typeof message.id === 'string' || Number.isSafeInteger(message.id),
            `${where}: id ${JSON.stringify(message.id)} is an integer or a string`,
          );
          assert.ok(
            !usedIds.has(message.id),
            `${where}: id ${JSON.stringify(message.id)} was already used in this session`,
          );
          usedIds.add(message.id);
          assert.match(definition, /Request$/, where);
        } else {
          seen.notifications++;
          validate('JSONRPCNotification', message, where);
          assert.match(definition, /Notification$/, where);
        }
        validate(definition, message, where);
        if (message.method === 'notifications/cancelled') {
          const requestId = (message.params as { requestId: unknown }).requestId;
          assert.ok(usedIds.has(requestId), `${where}: cancels a request this client sent`);
          assert.notEqual(
            session.sent.find((m) => m.id === requestId)?.method,
            'initialize',
            'initialize is never cancelled',
          );
        }
        return;
      }
      // A response to a server request.
      validate('JSONRPCResponse', message, where);
      const method = serverRequests.get(message.id);
      assert.ok(method, `${where}: answers a request the server sent`);
      if ('error' in message) {
        seen.errors++;
        validate('JSONRPCErrorResponse', message, where);
        assert.equal((message.error as { code: number }).code, -32601, `${where}: unsupported ${method} gets -32601`);
      } else {
        seen.results++;
        validate('JSONRPCResultResponse', message, where);
        const definition = RESULT_DEFINITION[method];
        assert.ok(definition, `${where}: a known result type for ${method}`);
        validate(definition, message.result, `${where} result`);
        resultDefinitions.add(definition);
        if (method === 'ping') assert.deepEqual(message.result, {});
      }
    });
  }
  return { ...seen, resultDefinitions: [...resultDefinitions].sort() };
}

describe('outgoing messages match the 2025-11-25 schema', { timeout: 90_000 }, () => {
  test('the schema file declares JSON Schema 2020-12', { timeout: 5_000 }, () => {
    assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  });

  test('a full session with server-everything sends only valid messages', { timeout: 45_000 }, async () => {
    const rootsChanged = new Emitter<void>();
    cleanups.push(async () => rootsChanged.dispose());
    const host: ClientHost = {
      roots: {
        listRoots: () => [{ uri: 'file:///tmp/outgoing', name: 'outgoing' }],
        onDidChangeRoots: rootsChanged.event,
      },
      sampling: {
        createMessage: async () => ({
          role: 'assistant',
          content: { type: 'text', text: 'ok' },
          model: 'm',
          stopReason: 'endTurn',
        }),
      },
      elicitation: { modes: ['form'], elicit: async () => ({ action: 'accept', content: { name: 'Ada' } }) },
    };
    const { client, session } = open('everything-outgoing', [EVERYTHING_SERVER, 'stdio'], host);
    await client.connect();
    await client.listTools();
    await client.callTool('echo', { message: 'schema' });
    await client.callTool('get-structured-content', { location: 'New York' });
    await client.callTool(
      'trigger-long-running-operation',
      { duration: 0.2, steps: 2 },
      { onProgress: () => undefined },
    );
    const controller = new AbortController();
    await assert.rejects(
      client.callTool(
        'trigger-long-running-operation',
        { duration: 10, steps: 20 },
        { signal: controller.signal, onProgress: () => controller.abort() },
      ),
      (error) => error instanceof LocalError && error.kind === 'cancelled',
    );
    await client.listResources();
    await client.listResourceTemplates();
    await client.readResource('demo://resource/dynamic/text/1');
    await client.subscribeResource('demo://resource/dynamic/text/1');
    await client.unsubscribeResource('demo://resource/dynamic/text/1');
    await client.listPrompts();
    await client.getPrompt('args-prompt', { city: 'Oslo' });
    await client.complete({ type: 'ref/prompt', name: 'completable-prompt' }, { name: 'department', value: 'E' });
    await client.complete(
      { type: 'ref/prompt', name: 'completable-prompt' },
      { name: 'name', value: 'A' },
      { department: 'Engineering' },
    );
    await client.setLoggingLevel('warning');
    await client.ping();
    await client.callTool('get-roots-list');
    await client.callTool('trigger-sampling-request', { prompt: 'p', maxTokens: 5 });
    await client.callTool('trigger-elicitation-request');
    rootsChanged.fire();
    // The server asks for the roots again after list_changed; wait until that answer went out.
    await waitFor(
      () => session.received.filter((m) => m.method === 'roots/list').length >= 2,
      'a second roots/list from the server',
    );
    await waitFor(
      () =>
        session.sent.filter(
          (m) => m.method === undefined && session.received.some((r) => r.method === 'roots/list' && r.id === m.id),
        ).length >= 2,
      'the answers to both roots/list requests',
    );
    const methods = new Set(session.sent.map((m) => m.method).filter(Boolean));
    for (const method of [
      'initialize',
      'notifications/initialized',
      'tools/list',
      'tools/call',
      'notifications/cancelled',
      'resources/list',
      'resources/templates/list',
      'resources/read',
      'resources/subscribe',
      'resources/unsubscribe',
      'prompts/list',
      'prompts/get',
      'completion/complete',
      'logging/setLevel',
      'ping',
      'notifications/roots/list_changed',
    ]) {
      assert.ok(methods.has(method), `the session sent ${method}`);
    }
    // Closed first, so what the client sends while closing is checked too.
    await client.close();
    const tally = assertSentValid([session]);
    for (const definition of ['CreateMessageResult', 'ElicitResult', 'ListRootsResult']) {
      assert.ok(
        tally.resultDefinitions.includes(definition),
        `an answer matched ${definition}: ${JSON.stringify(tally)}`,
      );
    }
    assert.ok(tally.notifications >= 3 && tally.requests >= 15, JSON.stringify(tally));
  });

  test(
    'sessions with hand-written servers: the answers to a server ping and to an unsupported request are valid',
    { timeout: 20_000 },
    async () => {
      const ping = open('hostile-ping', [HOSTILE_SERVER, 'ping-check']);
      await ping.client.connect();
      await ping.client.callTool('trigger');
      await waitFor(() => ping.session.sent.some((m) => m.id === 'srv-ping'), 'the answer to the server ping');

      const elicit = open('hostile-elicit', [HOSTILE_SERVER, 'elicit-without-capability']);
      await elicit.client.connect();
      const outcome = await elicit.client.callTool('trigger');
      assert.equal(textOf(outcome.result.content), 'sent elicitation');
      await waitFor(
        () => elicit.session.sent.some((m) => m.id === 'srv-elicit'),
        'the error answer to elicitation/create',
      );

      await ping.client.close();
      await elicit.client.close();
      const tally = assertSentValid([ping.session, elicit.session]);
      assert.deepEqual(tally.resultDefinitions, ['EmptyResult'], JSON.stringify(tally));
      assert.ok(tally.errors >= 1, JSON.stringify(tally));
    },
  );
});
