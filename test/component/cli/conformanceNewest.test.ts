/**
 * The conformance repository's newest transport-level client scenarios, which no released suite carries yet
 * (0.2.0-alpha.12 is the newest), played by peers of ours against `dist/cli.js conformance` started as the suite
 * starts a client (MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION, the URL appended). Each peer serves
 * as its scenario's server does and grades the same checks; written from their checks, none of their code is copied:
 *
 * - session-renegotiation-404: modelcontextprotocol/conformance `src/scenarios/client/session-renegotiation.ts` at
 *   db00c5bd57715ab34689fdf6a92e929bf15aa5df;
 * - legacy-extensions: `src/scenarios/client/legacy-extensions.ts` at 415be5264f444f91c4d9cfd27cf05a0bd9dd9d0b, its
 *   fixture `src/scenarios/legacy-extensions.ts` at 9c138c2a90f2ed4a0e5d2ba1a0fa9a0af62e30d1;
 * - checker-2026-07-28 (the stateless gauntlet's strict endpoint): `src/scenarios/client/stateless-gauntlet.ts` at
 *   071ce4e9ecda2171a3e59354c07647d360e78e81.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import { describe, test } from 'node:test';
import { runCli, type CliRun } from '../../support/cliRun';
import { GAUNTLET_TOOL_SCHEMA } from '../../fixtures/conformance/gauntletTool';

type Json = Record<string, unknown>;
type Status = 'SUCCESS' | 'FAILURE' | 'WARNING';
interface Check {
  id: string;
  status: Status;
  detail?: string;
}
/** One POST as the peer saw it: its headers and its parsed body. */
type Handler = (req: http.IncomingMessage, body: Json, res: http.ServerResponse) => void;

async function serve(handler: Handler): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') {
      // Neither scenario offers a standalone stream worth holding open.
      res.writeHead(req.method === 'DELETE' ? 200 : 405).end();
      return;
    }
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      let body: Json;
      try {
        body = JSON.parse(text) as Json;
      } catch {
        res.writeHead(400).end();
        return;
      }
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function reply(res: http.ServerResponse, id: unknown, result: Json, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
}

function runScenario(url: string, scenario: string, version = '2025-11-25'): Promise<CliRun> {
  return runCli(['conformance', url], {
    timeoutMs: 30_000,
    env: { ...process.env, MCP_CONFORMANCE_SCENARIO: scenario, MCP_CONFORMANCE_PROTOCOL_VERSION: version },
  });
}

function assertAllPassed(checks: readonly Check[], run: CliRun): void {
  const failed = checks.filter((check) => check.status !== 'SUCCESS');
  assert.deepEqual(failed, [], `checks that did not pass; the client said:\n${run.stderr}`);
}

describe('the conformance repository’s newest transport scenarios, played by our peers', { concurrency: 1 }, () => {
  test('session-renegotiation-404: a 404 for the session starts a new one without the old id, and work goes on', async () => {
    const sessions = { first: `session-A-${Date.now()}`, second: `session-B-${Date.now()}` };
    let initializes = 0;
    let terminated = false;
    let renegotiatedCleanly = false;
    let renegotiatedWithStaleId = false;
    let continued = false;
    const peer = await serve((req, body, res) => {
      const sessionId = req.headers['mcp-session-id'];
      const hadSessionId = typeof sessionId === 'string' && sessionId.length > 0;
      if (body.method === 'initialize') {
        initializes++;
        if (initializes > 1 && terminated) {
          if (hadSessionId) renegotiatedWithStaleId = true;
          else renegotiatedCleanly = true;
        }
        reply(
          res,
          body.id,
          {
            protocolVersion: '2025-11-25',
            serverInfo: { name: 'renegotiation-peer', version: '1.0.0' },
            capabilities: { tools: {} },
          },
          { 'mcp-session-id': initializes === 1 ? sessions.first : sessions.second },
        );
        return;
      }
      if (body.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      if (!terminated) {
        // The mid-trajectory loss: the first request after the handshake finds its session gone.
        terminated = true;
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code: -32001, message: 'Session not found' } }));
        return;
      }
      continued = true;
      reply(res, body.id, body.method === 'tools/list' ? { tools: [] } : {}, { 'mcp-session-id': sessions.second });
    });
    try {
      const run = await runScenario(peer.url, 'session-renegotiation-404');
      const checks: Check[] = [
        { id: 'client-session-renegotiate-on-404', status: renegotiatedCleanly ? 'SUCCESS' : 'FAILURE' },
        { id: 'client-session-continues-after-renegotiation', status: continued ? 'SUCCESS' : 'FAILURE' },
      ];
      assertAllPassed(checks, run);
      assert.equal(renegotiatedWithStaleId, false, 'the new initialize carried the terminated session id');
      assert.equal(initializes, 2);
      assert.equal(run.code, 0, run.stderr);
    } finally {
      await peer.stop();
    }
  });

  test('legacy-extensions: the configured extensions are declared as set, and the server’s are reported as received', async () => {
    // The scenario's fixture: what SDK_INTEGRATION.md tells a client to configure, and what its server declares.
    const clientExtensions: Json = {
      'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
      'com.example/conformance': { nested: { enabled: false, limit: 0 }, values: ['a', 2, null] },
      'com.example/empty': {},
    };
    const serverExtensions: Json = {
      'io.modelcontextprotocol/ui': {},
      'com.example/conformance': { nested: { enabled: true, limit: 3 }, values: [null, 'b', 4] },
      'com.example/empty': {},
    };
    const echoTool = 'test_legacy_extension_capabilities';
    let advertised: unknown;
    let version: unknown;
    let initialized = false;
    let observed: unknown;
    let reported = false;
    const peer = await serve((_req, body, res) => {
      const params = (body.params ?? {}) as Json;
      if (body.method === 'initialize') {
        advertised = (params.capabilities as Json | undefined)?.extensions;
        version = params.protocolVersion;
        reply(res, body.id, {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {}, extensions: serverExtensions },
          serverInfo: { name: 'legacy-extension-peer', version: '1.0.0' },
        });
      } else if (body.method === 'notifications/initialized') {
        initialized = true;
        res.writeHead(202).end();
      } else if (body.method === 'tools/list') {
        reply(res, body.id, {
          tools: [
            {
              name: echoTool,
              inputSchema: {
                type: 'object',
                properties: { extensions: { type: 'object' } },
                required: ['extensions'],
              },
            },
          ],
        });
      } else if (body.method === 'tools/call' && params.name === echoTool) {
        reported = true;
        observed = (params.arguments as Json | undefined)?.extensions;
        reply(res, body.id, { content: [{ type: 'text', text: 'recorded' }] });
      } else {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'Method not found' } }));
      }
    });
    const preserved = (direction: string, actual: unknown, expected: Json): Check[] =>
      Object.entries(expected).map(([key, value]) => ({
        id: `legacy-extensions-${direction}-${key.split('/')[1]}`,
        status: isDeepStrictEqual((actual as Json | undefined)?.[key], value) ? 'SUCCESS' : 'FAILURE',
        detail: JSON.stringify((actual as Json | undefined)?.[key]),
      }));
    try {
      const run = await runScenario(`${peer.url}/mcp`, 'legacy-extensions');
      const checks: Check[] = [
        {
          id: 'legacy-extensions-client-handshake',
          status: initialized && version === '2025-11-25' ? 'SUCCESS' : 'FAILURE',
        },
        ...preserved('client-advertisement', advertised, clientExtensions),
        ...(reported
          ? preserved('client-reception', observed, serverExtensions)
          : [{ id: 'legacy-extensions-client-report', status: 'FAILURE' as const }]),
      ];
      assertAllPassed(checks, run);
      assert.equal(checks.length, 7);
      assert.equal(run.code, 0, run.stderr);
    } finally {
      await peer.stop();
    }
  });

  test('checker-2026-07-28: every stateless request carries the draft obligations; every listed tool is called validly, MRTR included', async () => {
    const META = 'io.modelcontextprotocol/';
    const known = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28', 'DRAFT-2026-v1'];
    const state = Buffer.from(JSON.stringify({ tool: 'mrtr_confirm', nonce: 'peer-v1' })).toString('base64url');
    const checks: Check[] = [];
    const methods: string[] = [];
    const toolSchema = GAUNTLET_TOOL_SCHEMA;

    /** The per-request obligations the gauntlet enforces before it dispatches anything. */
    function problemsOf(req: http.IncomingMessage, body: Json): string[] {
      const problems: string[] = [];
      const accept = String(req.headers.accept ?? '');
      if (!accept.includes('application/json') || !accept.includes('text/event-stream')) problems.push('Accept');
      if (!String(req.headers['content-type'] ?? '').includes('application/json')) problems.push('Content-Type');
      const version = req.headers['mcp-protocol-version'];
      if (!version || !known.includes(String(version))) problems.push(`MCP-Protocol-Version ${String(version)}`);
      const meta = (((body.params ?? {}) as Json)._meta ?? {}) as Json;
      for (const field of ['protocolVersion', 'clientInfo', 'clientCapabilities'])
        if (meta[`${META}${field}`] === undefined) problems.push(`_meta ${field}`);
      if (version !== undefined && meta[`${META}protocolVersion`] !== undefined) {
        if (String(meta[`${META}protocolVersion`]) !== String(version)) problems.push('version header ≠ _meta');
      }
      if (req.headers['mcp-method'] !== body.method) problems.push(`Mcp-Method ${String(req.headers['mcp-method'])}`);
      if (body.method === 'tools/call' && req.headers['mcp-name'] !== ((body.params ?? {}) as Json).name)
        problems.push(`Mcp-Name ${String(req.headers['mcp-name'])}`);
      return problems;
    }

    const peer = await serve((req, body, res) => {
      methods.push(String(body.method));
      const params = (body.params ?? {}) as Json;
      const meta = (params._meta ?? {}) as Json;
      if (body.method === 'initialize') {
        // A classic lead is what the strict endpoint gates; the run must never reach it.
        checks.push({ id: 'gauntlet-transport-headers', status: 'FAILURE', detail: 'led with initialize' });
        res.writeHead(401, { 'WWW-Authenticate': 'Bearer' }).end();
        return;
      }
      const problems = problemsOf(req, body);
      checks.push({
        id: 'gauntlet-transport-headers',
        status: problems.length ? 'FAILURE' : 'SUCCESS',
        detail: `${String(body.method)}: ${problems.join('; ')}`,
      });
      if (problems.length) {
        res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ problems }));
        return;
      }
      const complete = (result: Json) => reply(res, body.id ?? null, { resultType: 'complete', ...result });
      if (body.method === 'server/discover') {
        complete({
          ttlMs: 0,
          cacheScope: 'public',
          supportedVersions: ['DRAFT-2026-v1', '2026-07-28'],
          capabilities: { tools: {} },
          serverInfo: { name: 'gauntlet-peer', version: '1.0.0' },
        });
        return;
      }
      if (body.method === 'tools/list') {
        const caps = meta[`${META}clientCapabilities`] as Json | undefined;
        const mrtr = caps?.elicitation !== undefined;
        complete({
          ttlMs: 0,
          cacheScope: 'public',
          tools: [
            { name: 'validate_arguments', inputSchema: toolSchema },
            { name: mrtr ? 'mrtr_confirm' : 'elicitation_missing', inputSchema: { type: 'object', properties: {} } },
          ],
        });
        return;
      }
      if (body.method === 'tools/call') {
        const args = (params.arguments ?? {}) as Json;
        if (params.name === 'mrtr_confirm') {
          if (params.inputResponses === undefined) {
            complete({
              resultType: 'input_required',
              inputRequests: {
                confirm: {
                  method: 'elicitation/create',
                  params: {
                    message: 'Confirm the round trip.',
                    requestedSchema: {
                      type: 'object',
                      properties: { confirmed: { type: 'boolean' } },
                      required: ['confirmed'],
                    },
                  },
                },
              },
              requestState: state,
            });
            return;
          }
          const confirm = (params.inputResponses as Json).confirm as Json | undefined;
          const ok =
            params.requestState === state &&
            confirm !== undefined &&
            ['accept', 'decline', 'cancel'].includes(String(confirm.action)) &&
            (confirm.action !== 'accept' || typeof (confirm.content as Json | undefined)?.confirmed === 'boolean');
          checks.push({
            id: 'gauntlet-mrtr_confirm',
            status: ok ? 'SUCCESS' : 'FAILURE',
            detail: JSON.stringify(params),
          });
          complete({ content: [{ type: 'text', text: ok ? 'OK' : 'FAIL' }], ...(ok ? {} : { isError: true }) });
          return;
        }
        if (params.inputResponses !== undefined || params.requestState !== undefined) {
          checks.push({ id: 'gauntlet-mrtr-leak', status: 'FAILURE', detail: String(params.name) });
          complete({ content: [{ type: 'text', text: 'leak' }], isError: true });
          return;
        }
        if (params.name === 'validate_arguments') {
          const payload = args.payload as Json | undefined;
          const ok =
            typeof args.message === 'string' &&
            typeof args.count === 'number' &&
            (payload?.kind === 'solid' || payload?.kind === 'liquid');
          checks.push({
            id: 'gauntlet-validate_arguments',
            status: ok ? 'SUCCESS' : 'FAILURE',
            detail: JSON.stringify(args),
          });
          complete({ content: [{ type: 'text', text: ok ? 'OK' : 'FAIL' }], ...(ok ? {} : { isError: true }) });
          return;
        }
        complete({ content: [{ type: 'text', text: 'elicitation not declared' }] });
        return;
      }
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({ jsonrpc: '2.0', id: body.id ?? null, error: { code: -32601, message: 'Method not found' } }),
      );
    });
    try {
      const run = await runScenario(peer.url, 'checker-2026-07-28');
      assertAllPassed(checks, run);
      const graded = new Set(checks.map((check) => check.id));
      assert.ok(graded.has('gauntlet-validate_arguments'), `validate_arguments was not called: ${methods.join(', ')}`);
      assert.ok(graded.has('gauntlet-mrtr_confirm'), 'the MRTR tool was not listed or not answered');
      assert.ok(!methods.includes('initialize'));
      assert.equal(run.code, 0, run.stderr);
    } finally {
      await peer.stop();
    }
  });
});
