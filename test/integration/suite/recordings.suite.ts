/**
 * Recorded tests (`*.mcptest.json`) run through VS Code's own Test Explorer ("Test: Run All Tests"), issue 39: a
 * recording of the workspace binds without asking only to a server the workspace defines; one that names a server of
 * the person's user settings replays there only after a confirmation naming the server and listing its calls (and a
 * "no" starts nothing and calls nothing); a recording's own command line gets the workspace servers' first-start
 * consent (a "no" spawns nothing). And Save as Test says when chosen answers came before the server last started.
 *
 * The server is a small stdio script that appends a line to a file when it starts and when its destructive tool is
 * called, so what ran is read from that file.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { McpWorkbenchApi } from '../../../src/extension/extension';
import type { BindingConfirmationRequest } from '../../../src/extension/features/testing/recordedServer';
import type { RecordingTestReport } from '../../../src/extension/features/testing/recordingTests';
import type { EarlierAnswersQuestion } from '../../../src/extension/features/history/saveAsTest';
import { Suite, assert, assertEqual, waitUntil, type VscodeApi } from './framework';
import { leaveCleanState, startFromCleanState, workbenchAccess, writeWorkspaceFile } from './workbench';

/** A stdio MCP server: `delete_notes` (annotated destructive) and `echo`; argv[2] is the file it logs to. */
const NOTES_SERVER = `'use strict';
const fs = require('node:fs');
const readline = require('node:readline');
const log = process.argv[2];
fs.appendFileSync(log, 'started\\n');
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
const text = (value) => ({ content: [{ type: 'text', text: value }] });
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let message;
  try { message = JSON.parse(line); } catch { return; }
  if (message.id === undefined || !message.method) return;
  const params = message.params || {};
  switch (message.method) {
    case 'initialize':
      return send({ id: message.id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'notes', version: '1.0.0' } } });
    case 'ping':
      return send({ id: message.id, result: {} });
    case 'tools/list':
      return send({ id: message.id, result: { tools: [
        { name: 'delete_notes', inputSchema: { type: 'object' }, annotations: { destructiveHint: true } },
        { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, annotations: { readOnlyHint: true } },
      ] } });
    case 'tools/call':
      if (params.name === 'delete_notes') { fs.appendFileSync(log, 'delete_notes\\n'); return send({ id: message.id, result: text('deleted') }); }
      return send({ id: message.id, result: text(String((params.arguments || {}).text || '')) });
    default:
      return send({ id: message.id, error: { code: -32601, message: 'method not found' } });
  }
});
process.stdin.on('end', () => process.exit(0));
`;

const USER_SERVER = 'rec-notes';
const OWN_SERVER = 'rec-own';

export function recordingsSuite(vscode: VscodeApi): Suite {
  const suite = new Suite('recordings');
  let api: McpWorkbenchApi | undefined;
  const { folder, configFile, requireApi, controllerOf } = workbenchAccess(vscode, () => api);
  let originalConfig = '';
  const work = () => path.join(folder().uri.fsPath, '.fixtures', 'recordings');
  const script = () => path.join(work(), 'notes-server.cjs');
  const userLog = () => path.join(work(), 'user-server.log');
  const workspaceLog = () => path.join(work(), 'workspace-server.log');
  const ownLog = () => path.join(work(), 'own-command.log');
  const tests = () => path.join(folder().uri.fsPath, 'tests');
  const readLog = (file: string): string[] =>
    fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  const deleteStep = {
    request: { method: 'tools/call', params: { name: 'delete_notes', arguments: {} } },
    answer: { result: { content: [{ type: 'text', text: 'deleted' }] } },
  };
  /** Each test runs only its own recordings ("Run All Tests" runs every file in the folder). */
  const clearRecordings = () => fs.rmSync(tests(), { recursive: true, force: true });
  const writeRecording = (name: string, server: object): string => {
    const file = path.join(tests(), `${name}.mcptest.json`);
    fs.mkdirSync(tests(), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ mcptest: 1, server, steps: [deleteStep, deleteStep] }, null, 2));
    return file;
  };

  /** Runs the recording through "Test: Run All Tests" and resolves with its file's verdict and output lines. */
  const runRecording = async (file: string) => {
    const id = vscode.Uri.file(file).toString();
    const reports: RecordingTestReport[] = [];
    const subscription = requireApi().testing.onDidReport((report) => {
      if (report.file === id) reports.push(report);
    });
    try {
      await requireApi().testing.add(vscode.Uri.file(file));
      // The Test Explorer learns of a new controller's items asynchronously (VS Code 1.139 later than 1.100): a run
      // asked for before it has them runs nothing, so it is asked again every 5 s until this file's run has begun (its
      // first report), for at most 30 s. (waitUntil's own 30 s floor would make each 5 s attempt one of 30 s.)
      const deadline = Date.now() + 30_000;
      while (reports.length === 0) {
        if (Date.now() > deadline)
          throw new Error(`timed out after 30000 ms waiting for the run of ${path.basename(file)} to begin`);
        await vscode.commands.executeCommand('testing.runAll');
        const attemptEnds = Date.now() + 5_000;
        while (reports.length === 0 && Date.now() < attemptEnds)
          await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const verdict = await waitUntil(
        `a verdict on ${path.basename(file)}`,
        () => reports.find((report) => report.kind !== 'output' && report.item === id),
        30_000,
      );
      return {
        verdict,
        output: reports.flatMap((report) => (report.kind === 'output' ? [report.message] : [])),
      };
    } finally {
      subscription.dispose();
    }
  };

  const setUserServer = async (servers: Record<string, object> | undefined) => {
    await vscode.workspace
      .getConfiguration('mcpWorkbench')
      .update('servers', servers && { servers }, vscode.ConfigurationTarget.Global);
    await requireApi().reload();
  };

  suite.before(async () => {
    api = await startFromCleanState(vscode);
    originalConfig = fs.readFileSync(configFile(), 'utf8');
    fs.mkdirSync(work(), { recursive: true });
    fs.writeFileSync(script(), NOTES_SERVER);
    await setUserServer({ [USER_SERVER]: { type: 'stdio', command: process.execPath, args: [script(), userLog()] } });
    await waitUntil(`${USER_SERVER} configured`, () => requireApi().manager.byName(USER_SERVER)[0]);
  });

  suite.test(
    'a recording naming a user server by `config` asks first, listing the calls; a "no" calls nothing',
    async () => {
      clearRecordings();
      const file = writeRecording('user-by-config', {
        kind: 'config',
        config: '../.vscode/mcp.json',
        server: USER_SERVER,
      });
      const asked: BindingConfirmationRequest[] = [];
      requireApi().testing.setBindingConfirmer(async (request) => (asked.push(request), false));
      // Running, so its tools' annotations are known and the list says which call is destructive.
      await controllerOf(USER_SERVER).start();
      const declined = await runRecording(file);
      assertEqual(declined.verdict.kind, 'errored', 'verdict when the person said no');
      assert(
        declined.verdict.kind !== 'output' &&
          declined.verdict.message?.includes('user-by-config.mcptest.json') &&
          declined.verdict.message.includes(USER_SERVER) &&
          declined.verdict.message.includes('not allowed'),
        `the message names the recording and the server: ${JSON.stringify(declined.verdict)}`,
      );
      assertEqual(asked.length, 1, 'confirmations asked');
      assertEqual(asked[0].serverName, USER_SERVER, 'the server the confirmation names');
      assertEqual(
        JSON.stringify(asked[0].calls),
        JSON.stringify([
          { method: 'tools/call', subject: 'delete_notes', effect: 'destructive' },
          { method: 'tools/call', subject: 'delete_notes', effect: 'destructive' },
        ]),
        'the calls listed',
      );
      assert(asked[0].detail.includes('delete_notes (destructive)'), `detail: ${asked[0].detail}`);
      assert(
        asked[0].detail.includes('mcpWorkbench.servers'),
        `the detail says where the server is defined: ${asked[0].detail}`,
      );
      assert(
        declined.output.some((line) => line.includes(USER_SERVER) && line.includes('mcpWorkbench.servers')),
        `the output says which server: ${declined.output.join(' | ')}`,
      );
      assertEqual(readLog(userLog()).filter((line) => line === 'delete_notes').length, 0, 'destructive calls made');

      // Stopped: a "no" does not start it either.
      await controllerOf(USER_SERVER).stop();
      const startsBefore = readLog(userLog()).length;
      const again = await runRecording(file);
      assertEqual(again.verdict.kind, 'errored', 'verdict of the second "no"');
      assertEqual(asked.length, 2, 'asked again after a "no"');
      assertEqual(asked[1].calls[0]?.effect, 'unknown', 'effect of a call to a server that is not running');
      assertEqual(controllerOf(USER_SERVER).state.kind, 'stopped', 'the user server after a "no"');
      assertEqual(readLog(userLog()).length, startsBefore, 'lines the user server wrote after a "no"');
    },
  );

  suite.test('a "yes" replays on the user server and is remembered for the window; `name` alone asks too', async () => {
    clearRecordings();
    const file = writeRecording('user-by-config', {
      kind: 'config',
      config: '../.vscode/mcp.json',
      server: USER_SERVER,
    });
    const asked: BindingConfirmationRequest[] = [];
    requireApi().testing.setBindingConfirmer(async (request) => (asked.push(request), true));
    const first = await runRecording(file);
    assertEqual(first.verdict.kind, 'passed', `verdict after a "yes" (${JSON.stringify(first.verdict)})`);
    const second = await runRecording(file);
    assertEqual(second.verdict.kind, 'passed', 'verdict of the second run');
    assertEqual(asked.length, 1, 'confirmations asked for two runs of one recording');
    assertEqual(readLog(userLog()).filter((line) => line === 'delete_notes').length, 4, 'calls made by two runs');

    const byName = writeRecording('user-by-name', {
      kind: 'stdio',
      name: USER_SERVER,
      command: process.execPath,
      args: [script(), ownLog()],
    });
    const third = await runRecording(byName);
    assertEqual(third.verdict.kind, 'passed', 'verdict of the recording naming the server by `name`');
    assertEqual(asked.length, 2, 'another recording is asked for on its own');
    assertEqual(
      readLog(ownLog()).length,
      0,
      "lines written by the recording's own command (it ran on the user server)",
    );
  });

  suite.test('a workspace server of the same name is chosen over the user server, without asking', async () => {
    clearRecordings();
    const file = writeRecording('user-by-config', {
      kind: 'config',
      config: '../.vscode/mcp.json',
      server: USER_SERVER,
    });
    const original = JSON.parse(originalConfig) as { servers: Record<string, object> };
    await writeWorkspaceFile(
      vscode,
      configFile(),
      `${JSON.stringify(
        {
          servers: {
            ...original.servers,
            [USER_SERVER]: { type: 'stdio', command: process.execPath, args: [script(), workspaceLog()] },
          },
        },
        null,
        2,
      )}\n`,
    );
    try {
      await requireApi().reload();
      await waitUntil('two servers of the name', () =>
        requireApi().manager.byName(USER_SERVER).length === 2 ? true : undefined,
      );
      const asked: BindingConfirmationRequest[] = [];
      requireApi().testing.setBindingConfirmer(async (request) => (asked.push(request), false));
      const userCalls = readLog(userLog()).length;
      const run = await runRecording(file);
      assertEqual(run.verdict.kind, 'passed', `verdict (${JSON.stringify(run.verdict)})`);
      assertEqual(asked.length, 0, 'confirmations asked');
      assertEqual(readLog(workspaceLog()).filter((line) => line === 'delete_notes').length, 2, 'workspace calls');
      assertEqual(readLog(userLog()).length, userCalls, 'lines the user server wrote');
      assert(
        run.output.some((line) => line.includes(USER_SERVER) && line.includes('.vscode/mcp.json')),
        `the output says which server: ${run.output.join(' | ')}`,
      );
    } finally {
      for (const controller of requireApi().manager.byName(USER_SERVER)) await controller.stop();
      await writeWorkspaceFile(vscode, configFile(), originalConfig);
      await requireApi().reload();
    }
  });

  suite.test('a recording\'s own command line gets the first-start consent; a "no" spawns nothing', async () => {
    const marker = path.join(work(), 'own-started.log');
    clearRecordings();
    const file = writeRecording('own-command', {
      kind: 'stdio',
      name: OWN_SERVER,
      command: process.execPath,
      args: [script(), marker],
    });
    const asked: { serverName: string; kind: string; commandLine: string; trigger: string }[] = [];
    requireApi().config.setLaunchConfirmer(async (request) => (asked.push(request), false));
    const declined = await runRecording(file);
    assertEqual(declined.verdict.kind, 'errored', 'verdict when the consent was declined');
    assert(
      declined.verdict.kind !== 'output' &&
        declined.verdict.message?.includes('own-command.mcptest.json') &&
        declined.verdict.message.includes(OWN_SERVER),
      `the message names the recording and the server: ${JSON.stringify(declined.verdict)}`,
    );
    assertEqual(asked.length, 1, 'consents asked');
    assertEqual(asked[0].serverName, OWN_SERVER, 'the server the consent names');
    assertEqual(asked[0].kind, 'stdio', 'kind of the consent');
    assertEqual(asked[0].trigger, 'person', 'a test run is the person starting it');
    assert(asked[0].commandLine.includes(script()), `the consent shows the command line: ${asked[0].commandLine}`);
    assert(!fs.existsSync(marker), 'the recorded command ran although the consent was declined');

    requireApi().config.setLaunchConfirmer(async (request) => (asked.push(request), true));
    const allowed = await runRecording(file);
    assertEqual(allowed.verdict.kind, 'passed', `verdict after the consent (${JSON.stringify(allowed.verdict)})`);
    const again = await runRecording(file);
    assertEqual(again.verdict.kind, 'passed', 'verdict of the next run');
    assertEqual(asked.length, 2, 'consents asked (the yes is remembered by its fingerprint)');
  });

  suite.test(
    'Save as Test says when chosen answers came before the server last started, and keeps the later',
    async () => {
      const controller = controllerOf(USER_SERVER);
      await controller.start();
      const history = requireApi().history;
      const record = (text: string) =>
        history.record({
          server: { id: controller.id, name: controller.name },
          startedAt: Date.now(),
          durationMs: 1,
          operation: { kind: 'tool', toolName: 'echo', arguments: { text } },
          outcome: { kind: 'succeeded' },
          result: { result: { content: [{ type: 'text', text }] } },
        });
      const before = record('before the restart');
      await controller.restart();
      const after = record('after the restart');
      const questions: EarlierAnswersQuestion[] = [];
      requireApi().testing.answerEarlierAnswers((question) => {
        questions.push(question);
        return question.buttons.find((button) => button.startsWith('Save Only'));
      });
      const target = path.join(tests(), 'saved-across-restart.mcptest.json');
      const saved = await vscode.commands.executeCommand<{ fsPath: string } | undefined>(
        'mcpWorkbench.saveHistoryAsTest',
        { kind: 'server', serverName: USER_SERVER },
        { entryIds: [before.id, after.id], file: target },
      );
      assertEqual(saved?.fsPath, target, 'the file saved');
      assertEqual(questions.length, 1, 'questions asked');
      assert(
        questions[0].message.includes('1 of the 2') && questions[0].message.includes(USER_SERVER),
        `the question: ${questions[0].message}`,
      );
      const steps = (JSON.parse(fs.readFileSync(target, 'utf8')) as { steps: { request: { params: object } }[] }).steps;
      assertEqual(
        JSON.stringify(steps.map((step) => step.request.params)),
        JSON.stringify([{ name: 'echo', arguments: { text: 'after the restart' } }]),
        'the steps saved',
      );
    },
  );

  suite.after(async () => {
    requireApi().testing.setBindingConfirmer(undefined);
    requireApi().testing.answerEarlierAnswers(undefined);
    await setUserServer(undefined);
    fs.rmSync(tests(), { recursive: true, force: true });
    fs.rmSync(work(), { recursive: true, force: true });
    await leaveCleanState(vscode, api);
  });

  return suite;
}
