/**
 * Sampling and elicitation inside the real extension host. The model is the real OpenAI-compatible test
 * server (test/fixtures/openai/openaiServer.ts), started here on 127.0.0.1 and configured through the
 * mcpWorkbench.sampling.endpoints setting, with its key in SecretStorage. The person is simulated by posting
 * exactly the messages the review panel's buttons post; what the panel shows is read from its state.
 * Server side: @modelcontextprotocol/server-everything's trigger-sampling-request / trigger-elicitation-request,
 * and a tiny server that cancels its own sampling request (test/fixtures/sampling/cancellingServer.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { McpWorkbenchApi } from '../../../src/extension/extension';
import type {
  ReviewMessage,
  ReviewView,
  SamplingRequestView,
} from '../../../src/extension/platform/webviews/reviewPanel';
import type { ServerController } from '../../../src/extension/platform/servers/serverController';
import type { CallToolOutcome } from '../../../src/protocol/client';
import { startOpenAiServer, type OpenAiTestServer } from '../../fixtures/openai/openaiServer';
import { CANCELLING_SERVER_SOURCE } from '../../fixtures/sampling/cancellingServer';
import { TOOL_SAMPLING_SERVER_SOURCE } from '../../fixtures/sampling/toolSamplingServer';
import { Suite, assert, assertEqual, waitUntil, type VscodeApi } from './framework';
import { EVERYTHING_SERVER, EXTENSION_ID, leaveCleanState, startFromCleanState, withUrlConsent } from './workbench';

const ENDPOINT = 'test-endpoint';
const API_KEY = 'sk-test-123';
const MODEL = 'test-model';
const CANCELLER = 'canceller';
const URL_ACCEPT = 'url-accept';
const URL_DECLINE = 'url-decline';
const TOOL_SAMPLER = 'tool-sampler';
/** What the hostile fixture's url-elicitation-required mode asks for (test/fixtures/hostile/hostile-server.mjs). */
/** Encoded characters (%2F, %20, +, non-ASCII) that must reach openExternal byte for byte. */
const AUTH_URL = 'https://example.com/connect?state=abc&next=%2Fhome%20page&q=a+b&name=%C3%A9';
const DEFAULT_REPLY = { kind: 'text', text: 'Hello from the test model' } as const;

export function samplingSuite(vscode: VscodeApi): Suite {
  const suite = new Suite('sampling');
  let api: McpWorkbenchApi | undefined;
  let model: OpenAiTestServer | undefined;
  let originalMcpJson: string | undefined;
  let mcpJsonPath: string | undefined;

  const requireApi = (): McpWorkbenchApi => {
    assert(api, 'the extension API is not available');
    return api;
  };
  const requireModel = (): OpenAiTestServer => {
    assert(model, 'the model server did not start');
    return model;
  };
  const server = (name = EVERYTHING_SERVER): ServerController => {
    const controller = requireApi().manager.byName(name)[0];
    assert(controller, `no server named ${name}`);
    return controller;
  };
  const view = (): ReviewView | undefined => requireApi().sampling.snapshot().view;
  const waitForView = <K extends ReviewView['kind']>(
    kind: K,
    predicate: (v: Extract<ReviewView, { kind: K }>) => boolean = () => true,
    what: string = kind,
  ) =>
    waitUntil<Extract<ReviewView, { kind: K }>>(
      `the review panel to show ${what} (showing ${JSON.stringify(view()?.kind)})`,
      () => {
        const current = view();
        if (current?.kind !== kind) return undefined;
        const typed = current as Extract<ReviewView, { kind: K }>;
        return predicate(typed) ? typed : undefined;
      },
      30_000,
    );
  const post = (message: ReviewMessage) => requireApi().sampling.post(message);
  /** Approve as the Approve button does: the texts as shown, or edited. */
  const approveRequest = (
    shown: SamplingRequestView,
    edit: (text: string) => string = (text) => text,
    extra: Partial<Extract<ReviewMessage, { type: 'approve-request' }>> = {},
  ) =>
    post({
      type: 'approve-request',
      systemPrompt: shown.systemPrompt,
      texts: shown.messages.map((message) =>
        message.parts.map((part) => (part.kind === 'text' ? edit(part.text) : null)),
      ),
      modelId: shown.modelId,
      maxTokens: shown.maxTokens,
      temperature: shown.temperature,
      stopSequences: shown.stopSequences,
      policy: shown.policy,
      ...extra,
    });
  const finalAnswer = () => waitForView('sampling-response', (v) => !v.streaming, 'the final answer');
  const trigger = (prompt: string): Promise<CallToolOutcome> =>
    server().callTool('trigger-sampling-request', { prompt, maxTokens: 42 }, {});
  const resultText = (outcome: CallToolOutcome) => JSON.stringify(outcome.result);
  /** Adds servers to the workspace's mcp.json (the original is restored after the suite), reloads, starts them. */
  const addServers = async (servers: Record<string, { command: string; args: string[] }>): Promise<void> => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert(folder, 'no workspace folder');
    mcpJsonPath = path.join(folder.uri.fsPath, '.vscode', 'mcp.json');
    originalMcpJson ??= fs.readFileSync(mcpJsonPath, 'utf8');
    const config = JSON.parse(fs.readFileSync(mcpJsonPath, 'utf8')) as { servers: Record<string, unknown> };
    for (const [name, definition] of Object.entries(servers)) config.servers[name] = { type: 'stdio', ...definition };
    fs.writeFileSync(mcpJsonPath, JSON.stringify(config, null, 2));
    await requireApi().reload();
    for (const name of Object.keys(servers)) {
      const controller = await waitUntil(
        `server ${name} configured`,
        () => requireApi().manager.byName(name)[0],
        15_000,
      );
      if (controller.state.kind !== 'running') await controller.start();
      await requireApi().manager.waitForState(name, 'running', 30_000);
    }
  };
  /** The repository root, from the absolute server-everything path the harness wrote into mcp.json. */
  const repoRoot = (): string => {
    const definition = server().entry.definition;
    assert(definition.kind === 'stdio', 'server-everything is not a stdio server');
    const script = definition.args[0];
    assert(typeof script === 'string' && path.isAbsolute(script), `server-everything's script path: ${String(script)}`);
    // <root>/node_modules/@modelcontextprotocol/server-everything/dist/index.js
    return path.resolve(script, '..', '..', '..', '..', '..');
  };
  const setScript = (...replies: OpenAiTestServer['script']) =>
    requireModel().script.splice(0, requireModel().script.length, ...replies);

  suite.before(async () => {
    api = await startFromCleanState(vscode);
  });

  // Set-up: endpoint setting, API key in SecretStorage, server-everything running with sampling.
  suite.before(
    async () => {
      const extension = vscode.extensions.getExtension<McpWorkbenchApi>(EXTENSION_ID);
      assert(extension, `${EXTENSION_ID} is not installed`);
      api = await extension.activate();
      assert(api.sampling, 'the extension exports no sampling test API');
      model = await startOpenAiServer([{ kind: 'text', text: 'Hello from the test model' }]);
      await vscode.workspace
        .getConfiguration('mcpWorkbench.sampling')
        .update(
          'endpoints',
          [{ name: ENDPOINT, baseUrl: model.baseUrl, model: MODEL }],
          vscode.ConfigurationTarget.Global,
        );
      await api.sampling.setApiKey(ENDPOINT, API_KEY);
      await api.sampling.setPolicy(EVERYTHING_SERVER, 'ask');
      // The first-start confirmation of workspace servers is another feature's modal; answer it here.
      api.config.setLaunchConfirmer(async () => true);
      const controller = server();
      if (controller.state.kind !== 'running') await controller.start();
      await api.manager.waitForState(EVERYTHING_SERVER, 'running', 60_000);
      const tools = api.manager.snapshot().find((s) => s.name === EVERYTHING_SERVER)?.tools ?? [];
      assert(
        tools.includes('trigger-sampling-request'),
        `server-everything did not register trigger-sampling-request (sampling capability not declared?): ${JSON.stringify(tools)}`,
      );
      assert(
        tools.includes('trigger-elicitation-request'),
        `server-everything did not register trigger-elicitation-request: ${JSON.stringify(tools)}`,
      );
    },
    { timeoutMs: 90_000 },
  );

  suite.test(
    'no model yet: the failure names the setting and offers to add an endpoint or set a key',
    async () => {
      const testApi = requireApi();
      testApi.config.setLaunchConfirmer(async () => true);
      await vscode.workspace
        .getConfiguration('mcpWorkbench.sampling')
        .update('endpoints', undefined, vscode.ConfigurationTarget.Global);
      // Dismissed as a person would close it; what matters is what it said and offered.
      testApi.config.answerNotifications(() => undefined);
      testApi.config.clearNotifications();
      try {
        const controller = server();
        if (controller.state.kind !== 'running') await controller.start();
        await testApi.manager.waitForState(EVERYTHING_SERVER, 'running', 60_000);
        // The server turns the refused sampling into a failed call (or an error result); either way the person is told.
        await trigger('no model here').catch((error: unknown) => error);
        const offer = await waitUntil(
          'the no-model notification',
          () => testApi.config.notifications().find((n) => n.message.includes('no language model is available')),
          10_000,
        );
        assert(
          offer.message.includes('mcpWorkbench.sampling.endpoints') && offer.message.includes(EVERYTHING_SERVER),
          `the notification does not name the setting and the server: ${offer.message}`,
        );
        assertEqual(offer.actions.join(', '), 'Add Model Endpoint, Set Model API Key…', "the notification's buttons");
      } finally {
        testApi.config.answerNotifications(undefined);
        await vscode.workspace
          .getConfiguration('mcpWorkbench.sampling')
          .update(
            'endpoints',
            [{ name: ENDPOINT, baseUrl: requireModel().baseUrl, model: MODEL }],
            vscode.ConfigurationTarget.Global,
          );
      }
    },
    { timeoutMs: 90_000 },
  );

  suite.test(
    'approve: the panel shows the request, the model answers (streamed), the server gets the answer',
    async () => {
      const before = requireModel().requests.length;
      const call = trigger('What is MCP?');
      const shown = await waitForView('sampling-request');
      assertEqual(shown.serverName, EVERYTHING_SERVER, 'server named in the review');
      assertEqual(shown.systemPrompt, 'You are a helpful test server.', 'system prompt shown');
      assertEqual(shown.maxTokens, 42, 'maxTokens shown');
      assertEqual(shown.temperature, 0.7, 'temperature shown');
      const text = shown.messages[0]?.parts[0];
      assert(
        text?.kind === 'text' && text.text.includes('What is MCP?'),
        `message text shown: ${JSON.stringify(shown.messages)}`,
      );
      assert(
        shown.models.some((m) => m.id === shown.modelId && m.label.includes(MODEL)),
        `model picker: ${JSON.stringify(shown.models)}`,
      );
      approveRequest(shown);
      const answer = await finalAnswer();
      assertEqual(answer.text, 'Hello from the test model', 'answer shown for approval');
      post({ type: 'approve-response', text: answer.text });
      const outcome = await call;
      assert(
        resultText(outcome).includes('Hello from the test model'),
        `tool result lacks the model answer: ${resultText(outcome)}`,
      );
      assert(resultText(outcome).includes(MODEL), `tool result lacks the model name: ${resultText(outcome)}`);
      const sent = requireModel().requests[before];
      assert(sent, 'the model server received no request');
      assertEqual(sent.model, MODEL, 'model sent to the endpoint');
      assertEqual(sent.max_tokens, 42, 'max_tokens sent');
      assertEqual(
        requireModel().authorizations[before],
        `Bearer ${API_KEY}`,
        'Authorization header (key from SecretStorage)',
      );
      assert(
        JSON.stringify(sent.messages).includes('You are a helpful test server.'),
        `system prompt not sent: ${JSON.stringify(sent.messages)}`,
      );
      const last = requireApi().sampling.records(EVERYTHING_SERVER).at(-1);
      assertEqual(last?.outcome, 'approved', 'history outcome');
      assertEqual(last?.inputTokens, 11, 'history input tokens');
      await waitUntil(
        'the review panel to close once nothing waits',
        () => (requireApi().sampling.snapshot().open ? undefined : true),
        10_000,
      );
    },
  );

  suite.test('edit: the model receives the edited prompt, the server receives the edited answer', async () => {
    const before = requireModel().requests.length;
    const call = trigger('original prompt');
    const shown = await waitForView('sampling-request');
    approveRequest(shown, () => 'EDITED: say hi', {
      systemPrompt: 'EDITED system',
      maxTokens: 17,
      temperature: 0.2,
      stopSequences: ['STOP'],
    });
    const answer = await finalAnswer();
    post({ type: 'approve-response', text: `${answer.text} (edited by the person)` });
    const outcome = await call;
    const sent = requireModel().requests[before];
    assert(sent, 'the model server received no request');
    const sentText = JSON.stringify(sent.messages);
    assert(
      sentText.includes('EDITED: say hi') && !sentText.includes('original prompt'),
      `the model did not receive the edited prompt: ${sentText}`,
    );
    assert(sentText.includes('EDITED system'), `edited system prompt not sent: ${sentText}`);
    assertEqual(sent.max_tokens, 17, 'edited max_tokens');
    assertEqual(sent.temperature, 0.2, 'edited temperature');
    assertEqual(JSON.stringify(sent.stop), JSON.stringify(['STOP']), 'edited stop sequences');
    assert(
      resultText(outcome).includes('(edited by the person)'),
      `the server did not get the edited answer: ${resultText(outcome)}`,
    );
    // The sampling history flags both edits and keeps the originals beside them; so does the History view.
    const last = requireApi().sampling.records(EVERYTHING_SERVER).at(-1);
    assertEqual(last?.modelResponseText, answer.text, "the model's own answer kept beside the edited one");
    assert(
      last?.originalRequestText?.includes('original prompt'),
      `the server's request before the edit: ${last?.originalRequestText}`,
    );
    const entry = requireApi()
      .history.of(EVERYTHING_SERVER)
      .find((e) => e.operation.kind === 'sampling');
    assert(entry && entry.result.kind === 'kept', 'the exchange is in the History view with its result');
    assert(
      JSON.stringify(entry.result.value).includes('modelResponseBeforeEdit'),
      `History result: ${JSON.stringify(entry.result.value)}`,
    );
  });

  suite.test('reject: the server receives error -1 and the model is never called', async () => {
    const before = requireModel().requests.length;
    const call = trigger('please reject me');
    await waitForView('sampling-request');
    post({ type: 'reject-request', policy: 'ask' });
    const outcome = await call;
    const text = resultText(outcome);
    assert(outcome.result.isError === true && text.includes('-1'), `tool result does not carry error -1: ${text}`);
    assertEqual(requireModel().requests.length, before, 'requests the model received');
    assertEqual(
      requireApi().sampling.records(EVERYTHING_SERVER).at(-1)?.outcome,
      'rejected-request',
      'history outcome',
    );
  });

  suite.test('rejecting the answer also returns -1', async () => {
    const call = trigger('reject the answer');
    approveRequest(await waitForView('sampling-request'));
    await finalAnswer();
    post({ type: 'reject-response' });
    const outcome = await call;
    assert(
      outcome.result.isError === true && resultText(outcome).includes('-1'),
      `tool result: ${resultText(outcome)}`,
    );
    assertEqual(
      requireApi().sampling.records(EVERYTHING_SERVER).at(-1)?.outcome,
      'rejected-response',
      'history outcome',
    );
  });

  suite.test('policy "always" chosen in the panel: the next request runs without review and is recorded', async () => {
    const first = trigger('first, then always');
    approveRequest(await waitForView('sampling-request'), undefined, { policy: 'always' });
    post({ type: 'approve-response', text: (await finalAnswer()).text });
    await first;
    assertEqual(requireApi().sampling.policy(EVERYTHING_SERVER), 'always', 'stored policy');
    const before = requireModel().requests.length;
    const outcome = await trigger('no review now');
    assert(resultText(outcome).includes('Hello from the test model'), `tool result: ${resultText(outcome)}`);
    assertEqual(view(), undefined, 'the review panel shows nothing');
    assertEqual(requireModel().requests.length, before + 1, 'requests the model received');
    const last = requireApi().sampling.records(EVERYTHING_SERVER).at(-1);
    assertEqual(last?.outcome, 'auto-approved', 'history outcome');
    assert(last?.requestText.includes('no review now'), `history request text: ${last?.requestText}`);
    await requireApi().sampling.setPolicy(EVERYTHING_SERVER, 'ask');
  });

  suite.test('two concurrent requests queue: one review at a time, the other waits', async () => {
    const first = trigger('concurrent A');
    const second = trigger('concurrent B');
    await waitUntil(
      'both requests in the queue',
      () => (requireApi().sampling.samplingQueueSize() === 2 ? true : undefined),
      30_000,
    );
    const shownA = await waitForView('sampling-request');
    assertEqual(requireApi().sampling.snapshot().waiting, 1, 'requests waiting behind the shown one');
    const firstText = JSON.stringify(shownA.messages);
    approveRequest(shownA);
    await finalAnswer();
    post({ type: 'approve-response', text: `answer 1` });
    const shownB = await waitForView(
      'sampling-request',
      (v) => JSON.stringify(v.messages) !== firstText,
      'the second request',
    );
    assertEqual(requireApi().sampling.snapshot().waiting, 0, 'requests waiting behind the second');
    approveRequest(shownB);
    await finalAnswer();
    post({ type: 'approve-response', text: `answer 2` });
    const [a, b] = await Promise.all([first, second]);
    const texts = [resultText(a), resultText(b)].join(' ');
    assert(texts.includes('answer 1') && texts.includes('answer 2'), `results: ${texts}`);
    assertEqual(requireApi().sampling.samplingQueueSize(), 0, 'queue size at the end');
  });

  suite.test('cancellation by the server: the request disappears from the panel and the queue', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert(folder, 'no workspace folder');
    const script = path.join(folder.uri.fsPath, 'cancelling-server.cjs');
    fs.writeFileSync(script, CANCELLING_SERVER_SOURCE);
    mcpJsonPath = path.join(folder.uri.fsPath, '.vscode', 'mcp.json');
    originalMcpJson ??= fs.readFileSync(mcpJsonPath, 'utf8');
    const config = JSON.parse(fs.readFileSync(mcpJsonPath, 'utf8')) as { servers: Record<string, unknown> };
    config.servers[CANCELLER] = { type: 'stdio', command: process.execPath, args: [script] };
    fs.writeFileSync(mcpJsonPath, JSON.stringify(config, null, 2));
    await requireApi().reload();
    const controller = await waitUntil(
      `server ${CANCELLER} configured`,
      () => requireApi().manager.byName(CANCELLER)[0],
      15_000,
    );
    await controller.start();
    await requireApi().manager.waitForState(CANCELLER, 'running', 30_000);
    const call = controller.callTool('sample-then-cancel', { cancelAfterMs: 2000 }, {});
    const shown = await waitForView('sampling-request', (v) => v.serverName === CANCELLER, `the ${CANCELLER} request`);
    assert(JSON.stringify(shown.messages).includes('will be cancelled'), 'the cancelling request is shown');
    assertEqual(requireApi().sampling.samplingQueueSize(), 1, 'queue size while shown');
    await waitUntil(
      'the cancelled request to leave the panel',
      () => (view() === undefined ? true : undefined),
      15_000,
    );
    assertEqual(requireApi().sampling.samplingQueueSize(), 0, 'queue size after the cancel');
    const outcome = await call;
    assert(resultText(outcome).includes('cancelled by the server'), `tool result: ${resultText(outcome)}`);
    assertEqual(requireApi().sampling.records(CANCELLER).at(-1)?.outcome, 'cancelled', 'history outcome');
  });

  suite.test(
    'elicitation form: defaults pre-filled, validated before returning, accepted content reaches the server',
    async () => {
      const call = server().callTool('trigger-elicitation-request', {}, {});
      const shown = await waitForView('elicitation-form');
      assertEqual(shown.serverName, EVERYTHING_SERVER, 'server named in the form');
      const values = shown.values as Record<string, unknown>;
      assertEqual(values.firstLine, 'It was a dark and stormy night.', 'default pre-filled');
      assert(
        shown.form.kind === 'object' && shown.form.fields.some((f) => f.name === 'email'),
        'email field in the form',
      );
      // An invalid e-mail and a blank required name are refused inline, each next to its field in plain words; the form stays.
      post({ type: 'elicit', action: 'accept', content: { ...values, name: '', email: 'not-an-email' } });
      const withErrors = await waitForView('elicitation-form', (v) => v.errors.length > 0, 'validation errors');
      const errorText = JSON.stringify(withErrors.errors);
      assert(
        withErrors.errors.some(
          (e) => e.path === '/email' && /^(Must be an email address|必须是电子邮件地址)$/.test(e.message),
        ),
        `errors: ${errorText}`,
      );
      assert(
        withErrors.errors.some((e) => e.path === '/name' && /^(Required|必填)$/.test(e.message)),
        `errors: ${errorText}`,
      );
      assert(
        !withErrors.errors.some((e) => /must (match|have)/.test(e.message)),
        `validator text reached the form: ${errorText}`,
      );
      post({ type: 'elicit', action: 'accept', content: { ...values, name: 'Ada', email: 'ada@example.com' } });
      const outcome = await call;
      const text = resultText(outcome);
      assert(text.includes('ada@example.com') && text.includes('accept'), `tool result: ${text}`);
    },
  );

  suite.test('elicitation decline reaches the server', async () => {
    const call = server().callTool('trigger-elicitation-request', {}, {});
    await waitForView('elicitation-form');
    post({ type: 'elicit', action: 'decline' });
    const text = resultText(await call);
    assert(text.includes('decline'), `tool result: ${text}`);
  });

  suite.test(
    'URL elicitation (-32042) declined: no browser, and the call fails with the -32042 error',
    async () => {
      const hostile = path.join(repoRoot(), 'test', 'fixtures', 'hostile', 'hostile-server.mjs');
      assert(fs.existsSync(hostile), `no hostile fixture at ${hostile}`);
      const definition = { command: process.execPath, args: [hostile, 'url-elicitation-required'] };
      await addServers({ [URL_DECLINE]: definition, [URL_ACCEPT]: definition });
      await withUrlConsent(requireApi(), 'Decline', async ({ modals, opened }) => {
        let failure: unknown;
        try {
          const outcome = await server(URL_DECLINE).callTool('trigger', {}, {});
          failure = new Error(`the call succeeded: ${resultText(outcome)}`);
        } catch (error) {
          failure = error;
        }
        const error = failure as { code?: unknown; message?: unknown };
        assertEqual(error.code, -32042, `error code of the declined call (${String(error.message)})`);
        assert(String(error.message).includes('requires more information'), `error message: ${String(error.message)}`);
        assertEqual(modals.length, 1, 'consent modals shown');
        assert(modals[0]?.detail.includes(AUTH_URL), `the modal does not show the full URL: ${modals[0]?.detail}`);
        assertEqual(opened.length, 0, 'URLs opened after a decline');
        const record = requireApi().sampling.urlElicitations().at(-1);
        assertEqual(
          JSON.stringify(record),
          JSON.stringify({ serverName: URL_DECLINE, url: AUTH_URL, elicitationId: 'auth-1', action: 'decline' }),
          'recorded URL elicitation',
        );
      });
    },
    { timeoutMs: 60_000 },
  );

  suite.test(
    'URL elicitation (-32042) accepted: modal shows URL and domain, openExternal, completion, retried call succeeds',
    async () => {
      await withUrlConsent(requireApi(), 'Open in Browser', async ({ modals, opened }) => {
        const completionsBefore = requireApi().sampling.urlCompletions().length;
        const outcome = await server(URL_ACCEPT).callTool('trigger', {}, {});
        const content = outcome.result.content as { type: string; text?: string }[];
        assertEqual(content[0]?.text, 'authorized call succeeded', 'text of the retried call');
        assertEqual(modals.length, 1, 'consent modals shown');
        const modal = modals[0];
        assert(modal, 'no modal');
        assertEqual(
          JSON.stringify(modal.buttons),
          JSON.stringify(['Decline', 'Open in Browser']),
          'modal buttons (the default, first, is Decline)',
        );
        assert(
          modal.message.includes(URL_ACCEPT) && modal.message.includes('Connect your account'),
          `modal message names the server and its reason: ${modal.message}`,
        );
        assert(modal.detail.includes(AUTH_URL), `the modal does not show the full URL: ${modal.detail}`);
        const lines = modal.detail.split('\n');
        assert(
          lines.some((line) => line.trim().endsWith(' example.com') && !line.includes(AUTH_URL)),
          `the modal does not show the domain on its own line: ${modal.detail}`,
        );
        assertEqual(JSON.stringify(opened), JSON.stringify([AUTH_URL]), 'URLs given to vscode.env.openExternal');
        // (url-decline's server also sends its completion, 50 ms after the declined call; it changes nothing there.)
        const completions = requireApi()
          .sampling.urlCompletions()
          .slice(completionsBefore)
          .filter((c) => c.serverName === URL_ACCEPT);
        assertEqual(
          JSON.stringify(completions),
          JSON.stringify([{ serverName: URL_ACCEPT, elicitationId: 'auth-1' }]),
          'completion notifications handled',
        );
        assertEqual(requireApi().sampling.urlElicitations().at(-1)?.action, 'accept', 'recorded action');
      });
    },
    { timeoutMs: 60_000 },
  );

  suite.test('a model error after approval (HTTP 500) is shown in the panel and the request is settled', async () => {
    const body = '{"error":{"message":"the test model is overloaded"}}';
    setScript({ kind: 'http-error', status: 500, body });
    try {
      const call = trigger('this will fail at the model');
      approveRequest(await waitForView('sampling-request'));
      const failed = await waitForView('sampling-response', (v) => v.error !== undefined, 'the model error');
      assert(
        failed.error?.includes('500') && failed.error.includes('the test model is overloaded'),
        `error shown: ${failed.error}`,
      );
      assertEqual(failed.streaming, false, 'still "answering…"');
      const outcome = await call;
      assert(
        outcome.result.isError === true && resultText(outcome).includes('the test model is overloaded'),
        `tool result: ${resultText(outcome)}`,
      );
      await waitUntil(
        'the sampling queue to empty',
        () => (requireApi().sampling.samplingQueueSize() === 0 ? true : undefined),
        10_000,
      );
      const last = requireApi().sampling.records(EVERYTHING_SERVER).at(-1);
      assertEqual(last?.outcome, 'failed', 'history outcome');
      assert(last?.error?.includes('500'), `history error: ${last?.error}`);
      // The error notice stays until dismissed (or replaced by the next request).
      assertEqual(view()?.kind, 'sampling-response', 'panel after the request settled');
      post({ type: 'dismiss' });
      assertEqual(view(), undefined, 'panel after dismiss');
    } finally {
      setScript(DEFAULT_REPLY);
    }
  });

  suite.test(
    'approving an answer with tool calls keeps the tool calls and applies the edited text',
    async () => {
      const folder = vscode.workspace.workspaceFolders?.[0];
      assert(folder, 'no workspace folder');
      const script = path.join(folder.uri.fsPath, 'tool-sampling-server.cjs');
      fs.writeFileSync(script, TOOL_SAMPLING_SERVER_SOURCE);
      await addServers({ [TOOL_SAMPLER]: { command: process.execPath, args: [script] } });
      setScript({ kind: 'tool-call', name: 'get_weather', arguments: { city: 'Paris' }, id: 'call_weather' });
      try {
        const before = requireModel().requests.length;
        const call = server(TOOL_SAMPLER).callTool('sample-with-tools', {}, {});
        approveRequest(
          await waitForView('sampling-request', (v) => v.serverName === TOOL_SAMPLER, `the ${TOOL_SAMPLER} request`),
        );
        const answer = await waitForView(
          'sampling-response',
          (v) => !v.streaming && v.serverName === TOOL_SAMPLER,
          'the answer with tool calls',
        );
        assertEqual(
          JSON.stringify(answer.toolCalls),
          JSON.stringify(['get_weather {"city":"Paris"}']),
          'tool calls shown',
        );
        assertEqual(answer.text, '', 'editable text (the model sent none)');
        post({ type: 'approve-response', text: 'Let me check the weather in Paris.' });
        const outcome = await call;
        const sent = requireModel().requests[before];
        assert(
          JSON.stringify(sent?.tools ?? []).includes('get_weather'),
          `tools not sent to the model: ${JSON.stringify(sent?.tools)}`,
        );
        const returned = JSON.parse((outcome.result.content as { text: string }[])[0]?.text ?? '{}') as {
          result?: { content?: unknown; stopReason?: string };
          error?: unknown;
        };
        assert(returned.result, `the server got an error: ${JSON.stringify(returned.error)}`);
        assertEqual(returned.result.stopReason, 'toolUse', 'stopReason');
        assertEqual(
          JSON.stringify(returned.result.content),
          JSON.stringify([
            { type: 'text', text: 'Let me check the weather in Paris.' },
            { type: 'tool_use', id: 'call_weather', name: 'get_weather', input: { city: 'Paris' } },
          ]),
          'content the server received',
        );
        assertEqual(
          requireApi().sampling.records(TOOL_SAMPLER).at(-1)?.responseText,
          'Let me check the weather in Paris.',
          'history response text',
        );
      } finally {
        setScript(DEFAULT_REPLY);
      }
    },
    { timeoutMs: 60_000 },
  );

  suite.test(
    '"MCP Workbench: Show Sampling History" opens a read-only document with time, model, tokens and outcome of each exchange',
    async () => {
      const records = requireApi().sampling.records(EVERYTHING_SERVER);
      assert(records.length >= 5, `expected the suite's exchanges in the history, got ${records.length}`);
      // Not awaited: the command resolves once the editor is shown; the document it opened is what is checked.
      const earlier = new Set(vscode.workspace.textDocuments.map((doc) => doc.uri.toString()));
      const command = Promise.resolve(
        vscode.commands.executeCommand('mcpWorkbench.showSamplingHistory', { kind: 'server', controller: server() }),
      );
      command.catch(() => undefined);
      const document = await waitUntil(
        'the history document',
        () =>
          vscode.workspace.textDocuments.find(
            (doc) =>
              doc.uri.scheme === 'mcp-result' &&
              !earlier.has(doc.uri.toString()) &&
              doc.languageId === 'markdown' &&
              doc.getText().includes(`# `) &&
              doc.getText().includes(EVERYTHING_SERVER) &&
              doc.getText().includes('## '),
          ),
        15_000,
      );
      const text = document.getText();
      const sections = text.split('\n## ').slice(1);
      assertEqual(sections.length, records.length, 'one section per exchange');
      const labels: Record<string, string> = {
        approved: 'approved',
        'auto-approved': 'approved automatically',
        'rejected-request': 'request rejected',
        'rejected-response': 'response rejected',
        blocked: 'blocked',
        cancelled: 'cancelled',
        failed: 'failed',
      };
      // Newest first.
      [...records].reverse().forEach((record, index) => {
        const section = sections[index] ?? '';
        const head = section.split('\n', 1)[0] ?? '';
        assert(head.includes(new Date(record.time).toLocaleString()), `section ${index} lacks the time: ${head}`);
        assert(
          head.includes(labels[record.outcome] ?? record.outcome),
          `section ${index} lacks the outcome ${record.outcome}: ${head}`,
        );
        if (record.model) assert(section.includes(record.model), `section ${index} lacks the model ${record.model}`);
        if (record.inputTokens !== undefined)
          assert(
            section.includes(`${record.inputTokens} in / ${record.outputTokens ?? '?'} out`),
            `section ${index} lacks the tokens: ${section}`,
          );
      });
      assert(text.includes(`${MODEL}`) && text.includes('11 in / 7 out'), 'model and tokens of the approved exchanges');
      assert(records.some((r) => r.outcome === 'failed') && text.includes('failed'), 'the failed exchange is listed');
      // The document is shown by now; the command settles once its editor is (bounded by the test's own timeout).
      await command;
    },
  );

  suite.test('"MCP Workbench: Set Sampling Policy…" changes the policy the next request obeys', async () => {
    let shown: readonly string[] = [];
    requireApi().sampling.answerNextPolicyPick((labels) => {
      shown = labels;
      return labels[3]; // Never allow
    });
    await vscode.commands.executeCommand('mcpWorkbench.setSamplingPolicy', { kind: 'server', controller: server() });
    assertEqual(shown.length, 4, `policy choices shown: ${JSON.stringify(shown)}`);
    assertEqual(requireApi().sampling.policy(EVERYTHING_SERVER), 'never', 'policy after the command');
    const before = requireModel().requests.length;
    const blocked = await trigger('blocked by policy');
    assert(
      blocked.result.isError === true && resultText(blocked).includes('-1'),
      `tool result under "never": ${resultText(blocked)}`,
    );
    assertEqual(requireModel().requests.length, before, 'requests the model received under "never"');
    assertEqual(view(), undefined, 'the review panel under "never"');
    assertEqual(
      requireApi().sampling.records(EVERYTHING_SERVER).at(-1)?.outcome,
      'blocked',
      'history outcome under "never"',
    );

    requireApi().sampling.answerNextPolicyPick((labels) => labels[1]); // Allow for this session
    await vscode.commands.executeCommand('mcpWorkbench.setSamplingPolicy', { kind: 'server', controller: server() });
    assertEqual(requireApi().sampling.policy(EVERYTHING_SERVER), 'session', 'policy after the second command');
    const allowed = await trigger('allowed for the session');
    assert(
      resultText(allowed).includes('Hello from the test model'),
      `tool result under "session": ${resultText(allowed)}`,
    );
    assertEqual(requireModel().requests.length, before + 1, 'requests the model received under "session"');
    assertEqual(
      requireApi().sampling.records(EVERYTHING_SERVER).at(-1)?.outcome,
      'auto-approved',
      'history outcome under "session"',
    );

    requireApi().sampling.answerNextPolicyPick((labels) => labels[0]); // Ask every time
    await vscode.commands.executeCommand('mcpWorkbench.setSamplingPolicy', { kind: 'server', controller: server() });
    assertEqual(requireApi().sampling.policy(EVERYTHING_SERVER), 'ask', 'policy restored');
  });

  suite.after(async () => {
    api?.config.setLaunchConfirmer(undefined);
    if (mcpJsonPath && originalMcpJson !== undefined) {
      fs.writeFileSync(mcpJsonPath, originalMcpJson);
      await api?.reload();
    }
    for (const controller of api?.manager.servers ?? []) {
      if (controller.state.kind !== 'stopped') await controller.stop();
    }
    await api?.sampling.setApiKey(ENDPOINT, undefined);
    await vscode.workspace
      .getConfiguration('mcpWorkbench.sampling')
      .update('endpoints', undefined, vscode.ConfigurationTarget.Global);
    await model?.close();
  });
  suite.after(() => leaveCleanState(vscode, api));

  return suite;
}
