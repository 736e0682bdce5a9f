/**
 * Evals (`*.mcpeval.json`) in VS Code's Test Explorer, issue 41: the file is listed with a child per request, runs
 * through "Test: Run All Tests" on the server and with the model the person picks (the fake OpenAI-compatible server,
 * configured as sampling's endpoint with its key in SecretStorage), and a failed request shows the expected and the
 * actual call as the TestMessage's diff. A run that may make more than 20 model calls asks first, and a "no" sends
 * nothing to the model.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { McpWorkbenchApi } from '../../../src/extension/extension';
import type { EvalTestReport } from '../../../src/extension/features/testing/evalTests';
import { startOpenAiServer, type OpenAiTestServer } from '../../fixtures/openai/openaiServer';
import { Suite, assert, assertEqual, waitUntil, type VscodeApi } from './framework';
import { leaveCleanState, startFromCleanState, workbenchAccess } from './workbench';

/** A stdio MCP server with one tool, `echo`, which answers its `text`. */
const ECHO_SERVER = `'use strict';
const readline = require('node:readline');
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let message;
  try { message = JSON.parse(line); } catch { return; }
  if (message.id === undefined || !message.method) return;
  const params = message.params || {};
  switch (message.method) {
    case 'initialize':
      return send({ id: message.id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'echo', version: '1.0.0' } } });
    case 'ping':
      return send({ id: message.id, result: {} });
    case 'tools/list':
      return send({ id: message.id, result: { tools: [
        { name: 'echo', description: 'Says the text back', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
      ] } });
    case 'tools/call':
      return send({ id: message.id, result: { content: [{ type: 'text', text: String((params.arguments || {}).text || '') }] } });
    default:
      return send({ id: message.id, error: { code: -32601, message: 'method not found' } });
  }
});
process.stdin.on('end', () => process.exit(0));
`;

const SERVER = 'eval-echo';
const ENDPOINT = 'eval-test-model';
const MODEL = 'scripted-model';
const API_KEY = 'sk-eval-suite-key-0123456789';

export function evalsSuite(vscode: VscodeApi): Suite {
  const suite = new Suite('evals');
  let api: McpWorkbenchApi | undefined;
  let model: OpenAiTestServer | undefined;
  const { folder, requireApi } = workbenchAccess(vscode, () => api);
  const work = () => path.join(folder().uri.fsPath, '.fixtures', 'evals');
  const evals = () => path.join(folder().uri.fsPath, 'evals');
  const confirmations: { file: string; maxModelCalls: number }[] = [];

  const writeEval = (name: string, value: object): string => {
    fs.rmSync(evals(), { recursive: true, force: true });
    fs.mkdirSync(evals(), { recursive: true });
    const file = path.join(evals(), `${name}.mcpeval.json`);
    fs.writeFileSync(file, JSON.stringify({ mcpeval: 1, ...value }, null, 2));
    return file;
  };

  /** Runs every test through "Test: Run All Tests" until this eval's run begins; resolves when its file has a verdict. */
  const runEvalFile = async (file: string) => {
    const id = vscode.Uri.file(file).toString();
    const reports: EvalTestReport[] = [];
    const subscription = requireApi().testing.onDidReportEval((report) => {
      if (report.file === id) reports.push(report);
    });
    try {
      // As in recordings.suite.ts: the Test Explorer learns of a new controller's items asynchronously.
      const deadline = Date.now() + 30_000;
      while (reports.length === 0) {
        if (Date.now() > deadline)
          throw new Error(`timed out after 30000 ms waiting for the run of ${path.basename(file)} to begin`);
        await vscode.commands.executeCommand('testing.runAll');
        const attemptEnds = Date.now() + 5_000;
        while (reports.length === 0 && Date.now() < attemptEnds)
          await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await waitUntil(
        `a verdict on ${path.basename(file)}`,
        () => reports.find((report) => report.kind !== 'output' && report.item === id),
        60_000,
      );
      return reports;
    } finally {
      subscription.dispose();
    }
  };

  suite.before(async () => {
    api = await startFromCleanState(vscode);
    fs.mkdirSync(work(), { recursive: true });
    const script = path.join(work(), 'echo-server.cjs');
    fs.writeFileSync(script, ECHO_SERVER);
    await vscode.workspace
      .getConfiguration('mcpWorkbench')
      .update(
        'servers',
        { servers: { [SERVER]: { type: 'stdio', command: process.execPath, args: [script] } } },
        vscode.ConfigurationTarget.Global,
      );
    await requireApi().reload();
    await waitUntil(`${SERVER} configured`, () => requireApi().manager.byName(SERVER)[0]);
    // The model always calls echo with "bye" until it reads a tool result, then answers.
    model = await startOpenAiServer();
    model.respond = (body) =>
      body.messages.at(-1)?.role === 'tool'
        ? { kind: 'text', text: 'done' }
        : { kind: 'tool-call', name: 'echo', arguments: { text: 'bye' } };
    await vscode.workspace
      .getConfiguration('mcpWorkbench.sampling')
      .update(
        'endpoints',
        [{ name: ENDPOINT, baseUrl: model.baseUrl, model: MODEL }],
        vscode.ConfigurationTarget.Global,
      );
    await requireApi().sampling.setApiKey(ENDPOINT, API_KEY);
    requireApi().testing.setEvalPrompts({
      pickServer: async (_file, servers) => servers.find((name) => name === SERVER),
      pickModel: async (_file, models) => models.find((info) => info.name === MODEL)?.id,
      confirmModelCalls: async (file, maxModelCalls) => (confirmations.push({ file, maxModelCalls }), false),
    });
  });

  suite.test(
    'an eval file is listed with its requests, and a failed request shows the expected and actual call',
    async () => {
      const file = writeEval('greeting', {
        requests: [{ name: 'says hi', request: 'Say hi', expect: { calls: [{ tool: 'echo', args: { text: 'hi' } }] } }],
      });
      const listed = await requireApi().testing.addEval(vscode.Uri.file(file));
      assertEqual(
        JSON.stringify(listed.children),
        JSON.stringify(['1. says hi']),
        'the requests listed under the file',
      );

      const reports = await runEvalFile(file);
      const child = reports.find((report) => report.kind !== 'output' && report.item === `${listed.id}#request-0`);
      assert(child && child.kind === 'failed', `the request's verdict: ${JSON.stringify(child)}`);
      assert(
        child.message?.includes('expected call: echo {"text":"hi"}') &&
          child.message.includes('actual call:   echo {"text":"bye"}') &&
          child.message.includes('$.text'),
        `the message names both calls and the path that differs: ${child.message}`,
      );
      assert(child.expected?.includes('"hi"') && !child.expected.includes('"bye"'), `expected: ${child.expected}`);
      assert(child.actual?.includes('"bye"') && !child.actual.includes('"hi"'), `actual: ${child.actual}`);
      const output = reports.flatMap((report) => (report.kind === 'output' ? [report.message] : []));
      assert(
        output.some((line) => line.includes('pass rate: 0% over 1 runs')),
        `the output has the pass rate: ${output.join(' | ')}`,
      );
      assert(!JSON.stringify(reports).includes(API_KEY), 'the model key appears in no report');
      assert((model?.requests.length ?? 0) >= 1, 'the model was asked');
      assertEqual(model?.authorizations[0], `Bearer ${API_KEY}`, "the key sent to sampling's endpoint");
      assertEqual(confirmations.length, 0, 'confirmations asked for 6 model calls at most');
    },
  );

  suite.test('more than 20 model calls are announced with their count; a "no" sends nothing', async () => {
    const file = writeEval('many-runs', {
      runs: 4,
      requests: [{ request: 'Say hi', expect: { calls: [{ tool: 'echo' }] } }],
    });
    await requireApi().testing.addEval(vscode.Uri.file(file));
    const asked = model?.requests.length ?? 0;
    const reports = await runEvalFile(file);
    assertEqual(confirmations.at(-1)?.maxModelCalls, 24, 'the model calls announced (4 runs × 6 steps)');
    const verdict = reports.find(
      (report) => report.kind !== 'output' && report.item === vscode.Uri.file(file).toString(),
    );
    assert(verdict && verdict.kind === 'skipped', `the file's verdict after a "no": ${JSON.stringify(verdict)}`);
    assertEqual(model?.requests.length, asked, 'requests the model got after a "no"');
  });

  suite.test('stopping the test run stops the eval: no more model calls, and the request is not judged', async () => {
    const file = writeEval('stopped', {
      runs: 3,
      requests: [{ request: 'Say hi', expect: { calls: [{ tool: 'echo' }] } }],
    });
    const { id } = await requireApi().testing.addEval(vscode.Uri.file(file));
    const server = model as OpenAiTestServer;
    const before = server.requests.length;
    const respond = server.respond as NonNullable<OpenAiTestServer['respond']>;
    let stopped = false;
    // The person presses Stop while the model is answering the first request.
    server.respond = (body, index) => {
      if (!stopped) {
        stopped = true;
        void vscode.commands.executeCommand('testing.cancelRun');
      }
      return respond(body, index);
    };
    let reports: EvalTestReport[];
    try {
      reports = await runEvalFile(file);
    } finally {
      server.respond = respond;
    }
    const made = server.requests.length - before;
    // Unstopped, the 3 runs make 6 model calls (a tool call, then the answer).
    assert(made >= 1 && made < 6, `model calls made after the stop: ${made}`);
    const verdicts = reports.flatMap((report) => (report.kind === 'output' ? [] : [[report.item, report.kind]]));
    assertEqual(
      JSON.stringify(verdicts),
      JSON.stringify([
        [`${id}#request-0`, 'skipped'],
        [id, 'skipped'],
      ]),
      'the verdicts of a stopped eval',
    );
  });

  suite.after(async () => {
    requireApi().testing.setEvalPrompts(undefined);
    await requireApi().sampling.setApiKey(ENDPOINT, undefined);
    await vscode.workspace
      .getConfiguration('mcpWorkbench.sampling')
      .update('endpoints', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace
      .getConfiguration('mcpWorkbench')
      .update('servers', undefined, vscode.ConfigurationTarget.Global);
    await requireApi().reload();
    await model?.close();
    fs.rmSync(evals(), { recursive: true, force: true });
    fs.rmSync(work(), { recursive: true, force: true });
    await leaveCleanState(vscode, api);
  });

  return suite;
}
