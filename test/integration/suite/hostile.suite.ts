/**
 * Hostile servers against the real VS Code: nothing is approved that a person did not mean (no focus taken, a late
 * decision for another request decides nothing), the URL shown for consent is the URL opened, a user-level server
 * never runs in an untrusted folder, a flood of review requests is refused for its server only while the host stays
 * responsive, and no secret from envFile, `${env:}`, `${input:}` or a header reaches any file of the VS Code profile.
 * Servers: test/fixtures/hostile/hostile-host-server.mjs (stdio) and a minimal Streamable HTTP server started here.
 * The model is the OpenAI-compatible test server. Only the UI's last step (a modal, an input box) is answered by hooks.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { McpWorkbenchApi } from '../../../src/extension/extension';
import type { LaunchConfirmationRequest } from '../../../src/extension/platform/servers/launchConfirmation';
import type { ServerController } from '../../../src/extension/platform/servers/serverController';
import type { CallToolOutcome } from '../../../src/protocol/client';
import { sendJson, startTestServer, type RecordedRequest, type TestServer } from '../../fixtures/http/server';
import { startOpenAiServer, type OpenAiTestServer } from '../../fixtures/openai/openaiServer';
import { Suite, assert, assertEqual, waitUntil, type VscodeApi } from './framework';
import { EVERYTHING_SERVER, leaveCleanState, startFromCleanState, withUrlConsent } from './workbench';

const ENDPOINT = 'hostile-endpoint';
const HOSTILE = 'hostile';
const CALM = 'calm';
const HUGE = 'huge-tools';
const SECRETIVE = 'secretive';
const HEADERS = 'header-secret';
const BIDI = 'bidi\u202Etxt.exe';
/** One per route into the server; named innocuously, so only masking by value can hide them. */
const SECRETS = {
  env: 'envvar-Qx7-secret-9041',
  envFile: 'envfile-Zr2-secret-5517',
  input: 'input-Pk4-secret-2286',
  header: 'header-Wd9-secret-7763',
} as const;

export function hostileSuite(vscode: VscodeApi): Suite {
  const suite = new Suite('hostile');
  let api: McpWorkbenchApi | undefined;
  let model: OpenAiTestServer | undefined;
  let http: TestServer | undefined;
  let mcpJsonPath: string | undefined;
  let originalMcpJson: string | undefined;
  const envFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpw-hostile-env-'));
  const confirmations: LaunchConfirmationRequest[] = [];
  const order: string[] = [];

  const requireApi = (): McpWorkbenchApi => {
    assert(api, 'the extension API is not available');
    return api;
  };
  const server = (name: string): ServerController => {
    const controller = requireApi().manager.byName(name)[0];
    assert(controller, `no server named ${name}`);
    return controller;
  };
  const snapshot = () => requireApi().sampling.snapshot();
  const text = (outcome: CallToolOutcome) => (outcome.result.content as { text?: string }[])[0]?.text ?? '';
  const call = async (name: string, tool: string, args: Record<string, unknown> = {}) =>
    text(await server(name).callTool(tool, args, {}));
  /** The repository root, from the absolute server-everything path the harness wrote into mcp.json. */
  const repoRoot = (): string => {
    const definition = server(EVERYTHING_SERVER).entry.definition;
    assert(definition.kind === 'stdio', 'server-everything is not a stdio server');
    return path.resolve(String(definition.args[0]), '..', '..', '..', '..', '..');
  };
  const fixture = () => path.join(repoRoot(), 'test', 'fixtures', 'hostile', 'hostile-host-server.mjs');
  const stdio = (...args: string[]) => ({ type: 'stdio', command: process.execPath, args: [fixture(), ...args] });
  /** Adds servers (and inputs) to the workspace's mcp.json; the original is restored after the suite. */
  const writeServers = async (servers: Record<string, object>, inputs: object[] = []) => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert(folder, 'no workspace folder');
    mcpJsonPath = path.join(folder.uri.fsPath, '.vscode', 'mcp.json');
    originalMcpJson ??= fs.readFileSync(mcpJsonPath, 'utf8');
    const config = JSON.parse(fs.readFileSync(mcpJsonPath, 'utf8')) as {
      servers: Record<string, unknown>;
      inputs?: object[];
    };
    Object.assign(config.servers, servers);
    config.inputs = [...(config.inputs ?? []), ...inputs];
    fs.writeFileSync(mcpJsonPath, JSON.stringify(config, null, 2));
    await requireApi().reload();
    for (const name of Object.keys(servers))
      await waitUntil(`server ${name} configured`, () => requireApi().manager.byName(name)[0], 15_000);
  };
  const start = async (name: string) => {
    await server(name).start();
    await requireApi().manager.waitForState(name, 'running', 30_000);
  };
  const waitForRequestFrom = (serverName: string, other?: number) =>
    waitUntil(`a sampling request from ${serverName} on the panel`, () => {
      const shown = snapshot();
      return shown.view?.kind === 'sampling-request' &&
        shown.view.serverName === serverName &&
        shown.requestId !== undefined &&
        shown.requestId !== other
        ? shown.requestId
        : undefined;
    });

  // Set-up: model endpoint and hostile servers (confirmed before any input is asked).
  suite.before(
    async () => {
      api = await startFromCleanState(vscode);
      model = await startOpenAiServer([{ kind: 'text', text: 'model says hi' }]);
      await vscode.workspace
        .getConfiguration('mcpWorkbench.sampling')
        .update(
          'endpoints',
          [{ name: ENDPOINT, baseUrl: model.baseUrl, model: 'hostile-model' }],
          vscode.ConfigurationTarget.Global,
        );
      await vscode.workspace
        .getConfiguration('mcpWorkbench')
        .update('trace.server', 'verbose', vscode.ConfigurationTarget.Global);
      api.config.setLaunchConfirmer(async (request) => {
        confirmations.push(request);
        order.push(`confirm ${request.serverName}`);
        return true;
      });
      api.config.setPromptAnswerer(async ({ inputId }) => {
        order.push(`input ${inputId}`);
        if (inputId === 'shade') return SECRETS.input;
        return inputId === 'tint' ? SECRETS.header : undefined;
      });
      await writeServers({ [HOSTILE]: stdio(), [CALM]: stdio() });
      await Promise.all([start(HOSTILE), start(CALM)]);
      await api.sampling.setPolicy(HOSTILE, 'ask');
      await api.sampling.setPolicy(CALM, 'ask');
    },
    { timeoutMs: 90_000 },
  );

  suite.test('a review panel opened by a server never takes focus from the editor', async () => {
    const document = await vscode.workspace.openTextDocument({ content: 'the person is typing here' });
    await vscode.window.showTextDocument(document);
    // Nothing waits, so no panel is open: this request creates it (the case where a new webview could come up active).
    await waitUntil('no review panel before the request', () => (snapshot().open ? undefined : true), 10_000);
    const answer = call(HOSTILE, 'sample', { prompt: 'steal focus' });
    await waitForRequestFrom(HOSTILE);
    // Opening is asynchronous in the workbench: wait until its tabs show the panel, then check who has the keyboard.
    await waitUntil('the review panel to be visible', () => (snapshot().visible ? true : undefined), 10_000);
    assertEqual(snapshot().focused, false, 'the review panel has keyboard focus');
    assertEqual(
      vscode.window.activeTextEditor?.document,
      document,
      'the editor the person was typing in is still the active editor',
    );
    requireApi().sampling.post({ type: 'reject-request', policy: 'ask' });
    assert((await answer).startsWith('error -1'), `the rejected request answered ${await answer}`);
    // The untitled editor is dirty: revert and close it, so no later suite meets a save prompt.
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  suite.test(
    'a decision carrying the id of an earlier request decides nothing (a late click cannot approve the next one)',
    async () => {
      const first = call(HOSTILE, 'sample', { prompt: 'first' });
      const firstId = await waitForRequestFrom(HOSTILE);
      requireApi().sampling.post({ type: 'reject-request', policy: 'ask' });
      assert((await first).startsWith('error -1'), `first answered ${await first}`);
      const second = call(HOSTILE, 'sample', { prompt: 'second' });
      const secondId = await waitForRequestFrom(HOSTILE, firstId);
      const shown = snapshot().view;
      assert(shown?.kind === 'sampling-request', 'the second request is shown');
      const staleBefore = snapshot().staleDecisions;
      const stale = {
        type: 'approve-request',
        systemPrompt: shown.systemPrompt,
        texts: shown.messages.map((message) => message.parts.map((part) => (part.kind === 'text' ? part.text : null))),
        modelId: shown.modelId,
        maxTokens: shown.maxTokens,
        stopSequences: shown.stopSequences,
        policy: 'always',
      } as const;
      requireApi().sampling.post({ ...stale, requestId: firstId });
      // handleMessage is synchronous: an accepted approval would have replaced the request with the streamed answer.
      assertEqual(snapshot().requestId, secondId, 'request shown after a stale approval');
      assertEqual(snapshot().view?.kind, 'sampling-request', 'view after a stale approval');
      assertEqual(snapshot().staleDecisions, staleBefore + 1, 'stale decisions dropped');
      assertEqual(requireApi().sampling.policy(HOSTILE), 'ask', 'policy after a stale "always"');
      requireApi().sampling.post({ type: 'reject-request', policy: 'ask', requestId: secondId });
      assert((await second).startsWith('error -1'), `second answered ${await second}`);
    },
  );

  suite.test(
    'URL consent: the URL shown is the URL opened; userinfo, backslash, bidi and non-http URLs are refused unasked',
    async () => {
      await withUrlConsent(requireApi(), 'Open in Browser', async ({ modals, opened }) => {
        for (const refused of [
          'https://accounts.example.com@evil.example/login',
          'https://good.example\\@evil.example/',
          'https://evil.example/\u202Etxt.exe',
          'javascript:alert(1)',
        ]) {
          const result = await call(HOSTILE, 'elicit-url', { url: refused });
          assertEqual(result, 'decline', `answer to ${JSON.stringify(refused)}`);
        }
        assertEqual(modals.length, 0, 'consent dialogs shown for refused URLs');
        assertEqual(opened.length, 0, 'refused URLs opened');
        const result = await call(HOSTILE, 'elicit-url', { url: 'HTTPS://Login.Example.COM/a/../auth?x=1' });
        assertEqual(result, 'accept', 'answer to an ordinary URL');
        const modal = modals[0];
        assert(modal, 'no consent dialog for an ordinary URL');
        assertEqual(modal.buttons[0], 'Decline', 'the first (default) button of the URL dialog');
        assert(
          modal.detail.includes('https://login.example.com/auth?x=1') && modal.detail.includes('login.example.com'),
          `the dialog shows: ${modal.detail}`,
        );
        assertEqual(
          JSON.stringify(opened),
          JSON.stringify(['https://login.example.com/auth?x=1']),
          'URLs opened (exactly the one shown)',
        );
      });
    },
  );

  suite.test(
    'the launch confirmation shows hidden characters escaped and the program path, before any input prompt',
    async () => {
      const envFile = path.join(envFolder, '.env');
      fs.writeFileSync(envFile, `TINT=${SECRETS.envFile}\n`);
      process.env.MCPW_HOSTILE_SECRET = SECRETS.env;
      order.length = 0;
      await writeServers(
        {
          [SECRETIVE]: {
            ...stdio(`--label=${BIDI}`),
            env: { COLOR: '${env:MCPW_HOSTILE_SECRET}', SHADE: '${input:shade}' },
            envFile,
          },
        },
        [{ type: 'promptString', id: 'shade', description: 'Shade', password: true }],
      );
      await start(SECRETIVE);
      const mine = order.filter((step) => step === `confirm ${SECRETIVE}` || step.startsWith('input '));
      assertEqual(
        mine.join(', '),
        `confirm ${SECRETIVE}, input shade`,
        'order of the confirmation and the input prompt',
      );
      const asked = confirmations.find((request) => request.serverName === SECRETIVE);
      assert(asked, 'no confirmation for the workspace server');
      assert(
        asked.commandLine.includes('bidi\\u202Etxt.exe') && !asked.commandLine.includes('\u202E'),
        `the command line shows the override raw: ${asked.commandLine}`,
      );
      assertEqual(asked.executable, process.execPath, 'the program path shown');
      assert(asked.commandLine.includes(`envFile: ${envFile}`), `the envFile is not named: ${asked.commandLine}`);
      assert(!asked.detail.includes(SECRETS.env), 'the confirmation shows the ${env:} value');
    },
  );

  suite.test(
    'no secret from envFile, ${env:}, ${input:} or a header reaches any file of the VS Code profile (verbose trace)',
    async () => {
      assertEqual(await call(SECRETIVE, 'env', { name: 'COLOR' }), SECRETS.env, 'COLOR from ${env:}');
      assertEqual(await call(SECRETIVE, 'env', { name: 'TINT' }), SECRETS.envFile, 'TINT from envFile');
      assertEqual(await call(SECRETIVE, 'env', { name: 'SHADE' }), SECRETS.input, 'SHADE from ${input:}');
      await call(SECRETIVE, 'echo', { text: `all together: ${SECRETS.env} ${SECRETS.envFile} ${SECRETS.input}` });
      http = await startTestServer((request, res) => answerHttp(request, res));
      // The header's value comes from an input: a literal in mcp.json is a file of the workspace, which VS Code itself
      // caches in the profile (CachedConfigurations), so only a value the person typed can be held to "never on disk".
      await writeServers({ [HEADERS]: { type: 'http', url: http.url, headers: { 'X-Tint': 'tint ${input:tint}' } } }, [
        { type: 'promptString', id: 'tint', description: 'Tint', password: true },
      ]);
      await start(HEADERS);
      assertEqual(await call(HEADERS, 'whoami'), `tint ${SECRETS.header}`, 'the header the HTTP server received');
      await call(HEADERS, 'whoami');
      // A restart logs the launch again (and reads the stored input from SecretStorage, not from a prompt).
      await server(SECRETIVE).restart();
      await call(SECRETIVE, 'echo', { text: SECRETS.input });
      // Log channels write to their files asynchronously, in order: once a marker written after every secret is on
      // disk, so is everything written before it (the positive control; no fixed wait).
      const marker = `flush-marker-${Date.now()}`;
      await call(SECRETIVE, 'echo', { text: marker });
      const roots = requireApi().config.profileFolders();
      await waitUntil(
        'the marker written after the secrets in a log file',
        () => (filesContaining(roots, marker).length > 0 ? true : undefined),
        30_000,
      );
      const userData = roots[0];
      assert(
        userData && fs.existsSync(path.join(userData, 'logs')),
        `the profile folder is not a user-data folder: ${JSON.stringify(roots)}`,
      );
      const traced = filesContaining(roots, '[trace]');
      assert(traced.length > 0, `no verbose trace was written under ${roots.join(', ')}`);
      for (const [kind, secret] of Object.entries(SECRETS)) {
        assertEqual(filesContaining(roots, secret).join(', '), '', `profile files containing the ${kind} secret`);
      }
    },
    { timeoutMs: 90_000 },
  );

  suite.test('in an untrusted workspace a user-level server does not run in the workspace folder', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert(folder, 'no workspace folder');
    await vscode.workspace
      .getConfiguration('mcpWorkbench')
      .update('servers', { servers: { 'user-hostile': stdio() } }, vscode.ConfigurationTarget.Global);
    await requireApi().reload();
    await waitUntil('user-hostile configured', () => requireApi().manager.byName('user-hostile')[0], 15_000);
    try {
      await start('user-hostile');
      assertEqual(await call('user-hostile', 'cwd'), folder, 'cwd of a user server in a trusted workspace');
      await server('user-hostile').stop();
      requireApi().config.setWorkspaceTrusted(false);
      await start('user-hostile');
      const cwd = await call('user-hostile', 'cwd');
      assert(
        cwd !== folder && !cwd.startsWith(`${folder}${path.sep}`),
        `a user server ran in the untrusted folder: ${cwd}`,
      );
      assertEqual(cwd, os.homedir(), 'cwd of a user server in an untrusted workspace');
    } finally {
      requireApi().config.setWorkspaceTrusted(undefined);
      await server('user-hostile').stop();
      await vscode.workspace
        .getConfiguration('mcpWorkbench')
        .update('servers', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  suite.test(
    'a flood of review requests is refused for its server only, and the host stays responsive',
    async () => {
      await call(HOSTILE, 'flood', { count: 60, kind: 'sampling' });
      await call(HOSTILE, 'flood', { count: 30, kind: 'elicitation' });
      const status = await waitUntil('the flood refused beyond the cap', async () => {
        const parsed = JSON.parse(await call(HOSTILE, 'flood-status')) as {
          errors: Record<string, number>;
          messages: string[];
        };
        return (parsed.errors['-32603'] ?? 0) >= 60 + 30 - 16 ? parsed : undefined;
      });
      assert(
        /too many requests from hostile/.test(status.messages[0] ?? ''),
        `refusal message: ${JSON.stringify(status.messages)}`,
      );
      assertEqual(requireApi().sampling.samplingQueueSize(), 8, 'sampling requests waiting (the cap)');
      assertEqual(requireApi().sampling.elicitationQueueSize(), 8, 'elicitation requests waiting (the cap)');
      // Another server is not refused: its request lines up behind the flood.
      const calm = call(CALM, 'sample', { prompt: 'calm request' });
      await waitUntil('the calm request queued', () =>
        requireApi().sampling.samplingQueueSize() === 9 ? true : undefined,
      );
      // The host answers commands while the flood waits, and while a huge tool list arrives.
      await writeServers({ [HUGE]: stdio('--tools=1500') });
      await start(HUGE);
      assert(
        (requireApi()
          .manager.snapshot()
          .find((s) => s.name === HUGE)?.tools.length ?? 0) > 1500,
        'the huge tool list did not arrive',
      );
      await waitUntil(
        'mcpWorkbench.refresh to answer',
        async () => {
          await vscode.commands.executeCommand('mcpWorkbench.refresh');
          return true;
        },
        20_000,
      );
      // Stopping the flooding server withdraws its requests; the calm one reaches the panel.
      await server(HOSTILE).stop();
      const calmId = await waitForRequestFrom(CALM);
      requireApi().sampling.post({ type: 'reject-request', policy: 'ask', requestId: calmId });
      assert((await calm).startsWith('error -1'), `the calm request answered ${await calm}`);
    },
    { timeoutMs: 120_000 },
  );

  suite.after(async () => {
    api?.config.setPromptAnswerer(undefined);
    api?.config.setWorkspaceTrusted(undefined);
    if (mcpJsonPath && originalMcpJson !== undefined) {
      fs.writeFileSync(mcpJsonPath, originalMcpJson);
      await api?.reload();
    }
    for (const controller of api?.manager.servers ?? []) {
      if (controller.state.kind !== 'stopped') await controller.stop();
    }
    await vscode.workspace
      .getConfiguration('mcpWorkbench')
      .update('trace.server', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace
      .getConfiguration('mcpWorkbench.sampling')
      .update('endpoints', undefined, vscode.ConfigurationTarget.Global);
    delete process.env.MCPW_HOSTILE_SECRET;
    await model?.close();
    await http?.close();
    fs.rmSync(envFolder, { recursive: true, force: true });
  });
  suite.after(() => leaveCleanState(vscode, api));
  return suite;
}

/** A minimal Streamable HTTP MCP server (JSON responses) whose one tool returns the X-Tint header it received. */
function answerHttp(request: RecordedRequest, res: Parameters<typeof sendJson>[0]): void {
  if (request.method !== 'POST') {
    res.writeHead(405).end();
    return;
  }
  const message = request.json as {
    id?: number | string;
    method?: string;
    params?: { protocolVersion?: string; name?: string };
  };
  if (message.id === undefined) {
    res.writeHead(202).end();
    return;
  }
  const reply = (result: object) => sendJson(res, 200, { jsonrpc: '2.0', id: message.id, result });
  switch (message.method) {
    case 'initialize':
      reply({
        protocolVersion: message.params?.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'header-echo', version: '1.0.0' },
      });
      return;
    case 'tools/list':
      reply({ tools: [{ name: 'whoami', inputSchema: { type: 'object' } }] });
      return;
    case 'tools/call':
      reply({ content: [{ type: 'text', text: String(request.headers['x-tint'] ?? '(none)') }] });
      return;
    default:
      sendJson(res, 200, {
        jsonrpc: '2.0',
        id: message.id,
        error: { code: -32601, message: `not found: ${String(message.method)}` },
      });
  }
}

/** Files under `roots` whose content contains `needle` (binary files read as latin1). */
function filesContaining(roots: readonly string[], needle: string): string[] {
  const hits = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && fs.readFileSync(full, 'latin1').includes(needle)) hits.add(full);
    }
  };
  for (const root of roots) walk(root);
  return [...hits];
}
