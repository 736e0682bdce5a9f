/**
 * The gateway's `Server`s validate with this project's JSON Schema validator (sdkSchemaValidator.ts), not the SDK's
 * ajv, which the bundle leaves out (esbuild.js, `sdkShims`). The SDK asks its validator in one place a gateway can
 * reach: `Server.elicitInput` checks a form's accepted content against its `requestedSchema`. These tests drive that
 * on the server the gateway builds (createAgentServer) and compare the adapter's verdicts with the SDK's ajv provider
 * (the oracle, as in test/unit/protocol/validation/schemaValidator.test.ts).
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import {
  InMemoryTransport,
  ProtocolError,
  ProtocolErrorCode,
  type JSONRPCMessage,
  type JsonSchemaType,
} from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import type { ServerSession } from '../../../../src/protocol/eras/era';
import { createAgentServer, type AgentServerContext } from '../../../../src/workbench/gateway/agentServer';
import { RequestLimiter } from '../../../../src/workbench/gateway/limiter';
import { SdkSchemaValidator } from '../../../../src/workbench/gateway/sdkSchemaValidator';
import type { GatewayUpstream } from '../../../../src/workbench/gateway/upstream';

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

/** The agent server's context: only what createAgentServer reads while it is built and while it asks an agent. */
function agentContext(): AgentServerContext {
  const session: ServerSession = {
    kind: 'handshake',
    protocolVersion: '2025-11-25',
    capabilities: { tools: {} },
    serverInfo: { name: 'upstream', version: '1.0.0' },
  };
  const limiter = new RequestLimiter(4, 4);
  return {
    upstream: { session: () => session } as unknown as GatewayUpstream,
    relay: {} as AgentServerContext['relay'],
    mask: (text) => text,
    maskData: (data) => data,
    agentOf: () => ({ key: 'agent', limiter }),
    subscribe: async () => undefined,
    unsubscribe: async () => undefined,
    setLevel: async () => undefined,
  };
}

/**
 * The gateway's server for one 2025 agent, connected in memory to an agent written by hand that declares form
 * elicitation and answers each `elicitation/create` with `answer`.
 */
async function connectedAgentServer(answer: Record<string, unknown>) {
  const server = createAgentServer(agentContext());
  const [agentSide, serverSide] = InMemoryTransport.createLinkedPair();
  const answered = new Map<string | number, (message: JSONRPCMessage) => void>();
  agentSide.onmessage = (message: JSONRPCMessage) => {
    const request = message as { id?: string | number; method?: string };
    if (request.method === 'elicitation/create' && request.id !== undefined)
      void agentSide.send({ jsonrpc: '2.0', id: request.id, result: answer } as JSONRPCMessage);
    else if (request.id !== undefined && request.method === undefined) answered.get(request.id)?.(message);
  };
  await server.connect(serverSide);
  await agentSide.start();
  const initialized = new Promise<JSONRPCMessage>((resolve) => answered.set(1, resolve));
  await agentSide.send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: { form: {} } },
      clientInfo: { name: 'agent', version: '1.0.0' },
    },
  } as JSONRPCMessage);
  await initialized;
  await agentSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage);
  cleanups.push(() => server.close());
  return server;
}

const FORM = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    age: { type: 'integer', minimum: 0 },
    code: { type: 'string', pattern: '^[A-Z]{3}$' },
  },
  required: ['name'],
} as const;

describe("the gateway's Server validates an agent's form answer with this project's validator", () => {
  test('an answer that fails the requested schema is refused with our validator’s message', async () => {
    const server = await connectedAgentServer({ action: 'accept', content: { name: 'Ada', age: 1.5 } });
    await assert.rejects(
      server.elicitInput({ mode: 'form', message: 'Who?', requestedSchema: FORM as never }),
      (error: unknown) => {
        assert.ok(error instanceof ProtocolError, String(error));
        assert.equal(error.code, ProtocolErrorCode.InvalidParams);
        // ajv would say "data/age must be integer": this is the wording of src/protocol/validation.
        assert.match(error.message, /does not match requested schema: \/age must be integer$/);
        return true;
      },
    );
  });

  test('a pattern and a missing required property are checked too', async () => {
    const server = await connectedAgentServer({ action: 'accept', content: { code: 'abc' } });
    await assert.rejects(
      server.elicitInput({ mode: 'form', message: 'Who?', requestedSchema: FORM as never }),
      /\(root\) must have required property 'name'; \/code must match pattern/,
    );
  });

  test('an answer that matches passes as the agent sent it', async () => {
    const content = { name: 'Ada', age: 36, code: 'ADA' };
    const server = await connectedAgentServer({ action: 'accept', content });
    const result = await server.elicitInput({ mode: 'form', message: 'Who?', requestedSchema: FORM as never });
    assert.deepEqual(result, { action: 'accept', content });
  });
});

describe('SdkSchemaValidator answers as the SDK’s ajv provider does', () => {
  const ajv = new AjvJsonSchemaValidator();
  const ours = new SdkSchemaValidator();
  const cases: { schema: Record<string, unknown>; values: unknown[] }[] = [
    { schema: FORM, values: [{ name: 'a' }, { name: '' }, { name: 'a', age: -1 }, { name: 'a', code: 'ABCD' }, {}, 3] },
    {
      schema: {
        type: 'object',
        properties: {
          email: { type: 'string', format: 'email' },
          when: { type: 'string', format: 'date' },
          color: { type: 'string', enum: ['red', 'green'] },
          tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 2, uniqueItems: true },
          ok: { type: 'boolean', default: false },
        },
        additionalProperties: false,
      },
      values: [
        { email: 'a@example.com', when: '2026-12-07', color: 'red', tags: ['a'], ok: true },
        { email: 'not an address' },
        { when: '2026-13-40' },
        { color: 'blue' },
        { tags: ['a', 'a'] },
        { tags: ['a', 'b', 'a'] },
        { extra: 1 },
      ],
    },
    {
      schema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        definitions: { positive: { type: 'number', exclusiveMinimum: 0 } },
        type: 'object',
        properties: { size: { $ref: '#/definitions/positive' } },
      },
      values: [{ size: 1 }, { size: 0 }, { size: 'big' }],
    },
  ];
  for (const { schema, values } of cases)
    for (const value of values)
      test(`${JSON.stringify(value)} against ${JSON.stringify(schema).slice(0, 60)}…`, () => {
        const expected = ajv.getValidator(schema as JsonSchemaType)(value);
        const actual = ours.getValidator(schema as JsonSchemaType)(value);
        assert.equal(actual.valid, expected.valid);
        if (actual.valid) assert.equal(actual.data, value);
        else assert.ok(actual.errorMessage.length > 0);
      });

  test('a schema it cannot judge (a remote $ref, never fetched) refuses the value and says why', () => {
    const verdict = ours.getValidator({ $ref: 'https://example.com/schema.json' } as JsonSchemaType)({ a: 1 });
    assert.equal(verdict.valid, false);
    assert.match(verdict.errorMessage ?? '', /^could not be checked: schema could not be compiled/);
  });
});
