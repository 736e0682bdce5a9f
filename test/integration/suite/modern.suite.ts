/**
 * A modern-only server (2026-07-28, no initialize handshake) inside the real extension host, over stdio (suite
 * "modern") and over Streamable HTTP (suite "modern-http"): the official v2 SDK fixture
 * test/fixtures/modern/server.mjs with `--legacy reject`. Over stdio it is pinned with `"era": "2026-07-28"` in the
 * workspace's mcp.json; over HTTP the suite starts the server itself and leaves the era to `auto`, so the
 * selection over HTTP is exercised too. Both variants do what a person does with a legacy server: the Servers view
 * lists the tools and names the era in the tooltip (the log says why), a call reports progress, a running call is
 * cancelled and the server sees it (stdio: notifications/cancelled; HTTP: its response stream closes), a resource
 * opens as a document that refreshes live when the server updates it (subscriptions/listen), a prompt's argument is
 * completed in the quick pick, a sampling request and an elicitation form arrive as input-required rounds and are
 * answered in the review panel (the person simulated by the messages its buttons post; the model is
 * test/fixtures/openai/openaiServer.ts), and a tool the server adds at run time appears in the tree after its
 * tools/list_changed.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import type * as vscodeTypes from 'vscode';
import type { McpWorkbenchApi } from '../../../src/extension/extension';
import type { ServersTreeNode } from '../../../src/extension/features/serversView/serversTreeProvider';
import type {
  ElicitationFormView,
  ReviewView,
  SamplingRequestView,
} from '../../../src/extension/platform/webviews/reviewPanel';
import type { CallToolOutcome } from '../../../src/protocol/client';
import type { ProgressUpdate } from '../../../src/protocol/jsonrpc/rpcConnection';
import { startOpenAiServer, type OpenAiTestServer } from '../../fixtures/openai/openaiServer';
import { Suite, assert, assertEqual, waitUntil, type VscodeApi } from './framework';
import {
  EVERYTHING_SERVER,
  acceptFirstSuggestion,
  closeCompletionPick,
  leaveCleanState,
  startFromCleanState,
  workbenchAccess,
} from './workbench';

export type ModernTransport = 'stdio' | 'http';

const ENDPOINT = 'modern-test-endpoint';
const MODEL = 'modern-test-model';
const ADDED_TOOL = 'added_at_run_time';
const GREETING = 'fixture://greeting';
const ERA_LOG_LINE = 'Era: 2026-07-28 era (stateless, server/discover), revision 2026-07-28';

/** The suite for one transport; index.ts registers `modern` (stdio) and `modern-http`. */
export function modernSuite(transport: ModernTransport): (vscode: VscodeApi) => Suite {
  return (vscode) => modernSuiteOver(vscode, transport);
}

function modernSuiteOver(vscode: VscodeApi, transport: ModernTransport): Suite {
  const suite = new Suite(transport === 'stdio' ? 'modern' : 'modern-http');
  const MODERN = transport === 'stdio' ? 'modern-only' : 'modern-only-http';
  let api: McpWorkbenchApi | undefined;
  let model: OpenAiTestServer | undefined;
  let originalMcpJson: string | undefined;
  let httpServer: ChildProcessByStdio<null, Readable, Readable> | undefined;
  let subscribed = false;

  const { requireApi, controllerOf, configFile } = workbenchAccess(vscode, () => api);
  const modern = () => controllerOf(MODERN);
  const tree = () => requireApi().tree;
  const children = async (node?: ServersTreeNode): Promise<ServersTreeNode[]> => (await tree().getChildren(node)) ?? [];
  /** The rows of one of the server's groups in the Servers view. */
  const groupRows = async (name: 'tools' | 'resources' | 'prompts'): Promise<ServersTreeNode[]> => {
    const group = (await children(await serverNode())).find((g) => g.kind === 'group' && g.group === name);
    assert(group, `"${MODERN}" has no ${name} group`);
    return children(group);
  };
  const toolNames = async (): Promise<string[]> =>
    (await groupRows('tools')).flatMap((node) => (node.kind === 'tool' ? [node.tool.name] : []));
  const tooltipText = (item: vscodeTypes.TreeItem): string =>
    typeof item.tooltip === 'string' ? item.tooltip : (item.tooltip?.value ?? '');
  const textOf = (outcome: CallToolOutcome): string =>
    (outcome.result.content as { type: string; text?: string }[])[0]?.text ?? '';
  const view = (): ReviewView | undefined => requireApi().sampling.snapshot().view;
  const waitForView = <K extends ReviewView['kind']>(
    kind: K,
    predicate: (v: Extract<ReviewView, { kind: K }>) => boolean,
    what: string,
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
  /** The repository root, from the absolute server-everything path the harness wrote into mcp.json. */
  const repoRoot = (): string => {
    const definition = controllerOf(EVERYTHING_SERVER).entry.definition;
    assert(definition.kind === 'stdio', 'server-everything is not a stdio server');
    const script = definition.args[0];
    assert(typeof script === 'string' && path.isAbsolute(script), `server-everything's script path: ${String(script)}`);
    // <root>/node_modules/@modelcontextprotocol/server-everything/dist/index.js
    return path.resolve(script, '..', '..', '..', '..', '..');
  };

  const serverNode = async (): Promise<ServersTreeNode> => {
    const node = (await children()).find((n) => n.kind === 'server' && n.controller === modern());
    assert(node, `no root node for "${MODERN}"`);
    return node;
  };
  const fixtureScript = (): string => path.join(repoRoot(), 'test', 'fixtures', 'modern', 'server.mjs');
  /** The fixture over HTTP, started by the suite (an HTTP server is not the extension's to launch); resolves its URL. */
  const startHttpServer = (): Promise<string> => {
    // In the Electron extension host process.execPath is the Electron binary: it must run as plain Node.
    const child = spawn(process.execPath, [fixtureScript(), '--transport', 'http', '--legacy', 'reject'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    httpServer = child;
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    return new Promise<string>((resolve, reject) => {
      let seen = '';
      child.once('error', reject);
      child.once('exit', (code, signal) =>
        reject(new Error(`the modern HTTP fixture exited (${signal ?? code}) before listening: ${stderr}`)),
      );
      child.stdout.on('data', (chunk: Buffer) => {
        seen += chunk.toString('utf8');
        const match = /listening (\S+)/.exec(seen);
        if (match) resolve(match[1]);
      });
    });
  };
  /** This server's document of the greeting (the other transport's suite may have left one of its own open). */
  const resourceDocument = (): vscodeTypes.TextDocument | undefined =>
    vscode.workspace.textDocuments.find((d) => {
      const query = new URLSearchParams(d.uri.query);
      return (
        d.uri.scheme === 'mcp-workbench-resource' &&
        query.get('uri') === GREETING &&
        query.get('server') === modern().id
      );
    });
  const cancelledCount = async (): Promise<number> =>
    Number(textOf(await modern().callTool('cancelled_count', {}, {})));
  /** The server's own log channel, as written to disk (the extension host's log folder). */
  const serverLog = (): string => {
    const found: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        // Log output channels are files named after the channel, without the colon.
        else if (entry.name.replace(/^\d+-/, '') === `MCP Workbench ${MODERN}.log`) found.push(full);
      }
    };
    for (const folder of requireApi().config.storageFolders()) walk(folder);
    return found.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
  };

  suite.before(async () => {
    api = await startFromCleanState(vscode);
  });

  // Set-up: the modern-only server over ${transport} in mcp.json, a model endpoint, and the server running.
  suite.before(
    async () => {
      model = await startOpenAiServer([{ kind: 'text', text: 'Hello from the modern test model' }]);
      await vscode.workspace
        .getConfiguration('mcpWorkbench.sampling')
        .update(
          'endpoints',
          [{ name: ENDPOINT, baseUrl: model.baseUrl, model: MODEL }],
          vscode.ConfigurationTarget.Global,
        );
      await requireApi().sampling.setApiKey(ENDPOINT, 'sk-modern-test');
      await requireApi().sampling.setPolicy(MODERN, 'ask');
      const file = configFile();
      originalMcpJson ??= fs.readFileSync(file, 'utf8');
      const config = JSON.parse(originalMcpJson) as { servers: Record<string, unknown> };
      config.servers[MODERN] =
        transport === 'stdio'
          ? {
              type: 'stdio',
              command: process.execPath,
              args: [fixtureScript(), '--transport', 'stdio', '--legacy', 'reject'],
              era: '2026-07-28',
            }
          : { type: 'http', url: await startHttpServer() };
      fs.writeFileSync(file, JSON.stringify(config, null, 2));
      await requireApi().reload();
      const controller = await waitUntil(
        `server ${MODERN} configured`,
        () => requireApi().manager.byName(MODERN)[0],
        15_000,
      );
      assertEqual(
        controller.entry.definition.era,
        transport === 'stdio' ? '2026-07-28' : undefined,
        'era read from mcp.json',
      );
      if (controller.state.kind !== 'running') await controller.start();
      await requireApi().manager.waitForState(MODERN, 'running', 60_000);
      const state = controller.state;
      assert(state.kind === 'running', 'not running');
      assertEqual(state.session.kind, 'modern', 'session era');
      assertEqual(state.session.protocolVersion, '2026-07-28', 'protocol revision');
    },
    { timeoutMs: 90_000 },
  );

  suite.test(
    'the tree lists the tools, resources and prompts of the modern server, its tooltip names the era, and the log says why',
    async () => {
      const names = await toolNames();
      for (const expected of ['add', 'ask_model', 'ask_name', 'count_up', 'add_tool', 'slow'])
        assert(names.includes(expected), `tool ${expected} not in the tree: ${names.join(', ')}`);
      const tooltip = tooltipText(await tree().getTreeItem(await serverNode())).replace(/\\(.)/g, '$1');
      assert(tooltip.includes('2026-07-28 (stateless)'), `the tooltip does not name the era: ${tooltip}`);
      const why =
        transport === 'stdio'
          ? `the server's "era" is pinned to 2026-07-28`
          : 'era auto: the server answered server/discover';
      await waitUntil(
        `the log of ${MODERN} to name the era and why`,
        () => (serverLog().includes(`${ERA_LOG_LINE}; ${why}`) ? true : undefined),
        15_000,
      );
      // Resources and prompts are listed by the catalog, which loads after the server starts.
      const catalog = await requireApi().browse.catalog.ready(modern());
      assert(catalog && !catalog.loading, 'the catalog has no listing for the running server');
      const resources = (await groupRows('resources')).flatMap((node) =>
        node.kind === 'resource' ? [node.resource.uri] : [],
      );
      assert(resources.includes(GREETING), `resources in the tree: ${resources.join(', ')}`);
      const prompts = (await groupRows('prompts')).flatMap((node) =>
        node.kind === 'prompt' ? [node.prompt.name] : [],
      );
      for (const expected of ['greet', 'review_code'])
        assert(prompts.includes(expected), `prompt ${expected} not in the tree: ${prompts.join(', ')}`);
    },
  );

  suite.test('a tool call answers', async () => {
    const outcome = await modern().callTool('add', { a: 2, b: 40 }, {});
    assertEqual(outcome.result.isError, undefined, 'isError');
    assertEqual(textOf(outcome), '42', 'add(2, 40)');
  });

  suite.test('a call reports its progress, and the Call Tool form shows its result', async () => {
    const updates: ProgressUpdate[] = [];
    const outcome = await modern().callTool('count_up', { steps: 3 }, { onProgress: (update) => updates.push(update) });
    assertEqual(textOf(outcome), 'counted to 3', 'count_up result');
    assertEqual(
      JSON.stringify(updates.map((u) => [u.progress, u.total, u.message])),
      JSON.stringify([
        [1, 3, 'step 1 of 3'],
        [2, 3, 'step 2 of 3'],
        [3, 3, 'step 3 of 3'],
      ]),
      'progress seen',
    );
    // The same call through the form a person fills in (which shows progress in a notification).
    const state = modern().state;
    assert(state.kind === 'running', 'not running');
    const tool = state.tools.find((t) => t.name === 'count_up');
    assert(tool, 'no count_up tool');
    await vscode.commands.executeCommand('mcpWorkbench.callTool', { kind: 'tool', controller: modern(), tool });
    const form = await waitUntil('the open count_up form', () =>
      requireApi().browse.forms.active?.tool.name === 'count_up' ? requireApi().browse.forms.active : undefined,
    );
    const before = requireApi().browse.results.lastShown;
    await form.receive({ type: 'submit', arguments: { steps: 2 } });
    const shown = await waitUntil('the result view', () =>
      requireApi().browse.results.lastShown !== before ? requireApi().browse.results.lastShown : undefined,
    );
    assert(shown.markdown.includes('counted to 2'), `result markdown:\n${shown.markdown}`);
    await form.receive({ type: 'cancel' });
  });

  suite.test(
    `a cancelled call stops on the server (${transport === 'stdio' ? 'notifications/cancelled' : 'its response stream closes'})`,
    async () => {
      const before = await cancelledCount();
      const abort = new AbortController();
      // Cancelled once the server said it started (its first progress), as a person presses Cancel on a running call.
      const running = modern().callTool('slow', {}, { signal: abort.signal, onProgress: () => abort.abort() });
      const failure = await running.then(
        () => undefined,
        (error: unknown) => error,
      );
      // The extension's LocalError is another bundle's class than this suite's: compare by name and kind.
      const kind =
        failure instanceof Error && failure.name === 'LocalError' ? (failure as { kind?: unknown }).kind : undefined;
      assert(kind === 'cancelled', `the call did not end as cancelled: ${String(failure)} (kind ${String(kind)})`);
      await waitUntil(
        'the server to count the cancelled call',
        async () => ((await cancelledCount()) === before + 1 ? true : undefined),
        20_000,
      );
      if (transport === 'http') {
        const posted = JSON.parse(textOf(await modern().callTool('posted_methods', {}, {}))) as string[];
        assert(
          !posted.includes('notifications/cancelled'),
          `over HTTP the cancel is the closed stream, yet the client POSTed: ${posted.join(', ')}`,
        );
      }
    },
    { timeoutMs: 40_000 },
  );

  suite.test(
    'a resource opens as a document, and once subscribed it refreshes when the server updates it',
    async () => {
      const catalog = await requireApi().browse.catalog.ready(modern());
      const resource = catalog?.resources.find((r) => r.uri === GREETING);
      assert(resource, `${GREETING} not listed: ${JSON.stringify(catalog?.resources.map((r) => r.uri))}`);
      await vscode.commands.executeCommand('mcpWorkbench.readResource', {
        kind: 'resource',
        controller: modern(),
        resource,
      });
      const document = await waitUntil(`the document of ${GREETING}`, resourceDocument);
      const first = document.getText();
      assert(first.startsWith('hello at '), `resource text: ${first}`);
      const changes: string[] = [];
      const listener = vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document.uri.toString() === document.uri.toString() && event.contentChanges.length > 0)
          changes.push(event.document.getText());
      });
      try {
        await vscode.commands.executeCommand('mcpWorkbench.subscribeResource', {
          kind: 'resource',
          controller: modern(),
          resource,
        });
        subscribed = true;
        assert(requireApi().browse.subscriptions.isSubscribed(modern(), GREETING), `not subscribed to ${GREETING}`);
        // Subscribing reopens subscriptions/listen with the resource; an update the server sends before that stream
        // is up reaches nobody, so `touch` (which sends notifications/resources/updated) is repeated until one lands.
        let touchedAt = 0;
        await waitUntil(
          'the open resource document to refresh',
          async () => {
            if (changes.length > 0) return true;
            if (Date.now() - touchedAt > 2000) {
              touchedAt = Date.now();
              assertEqual(textOf(await modern().callTool('touch', {}, {})), 'touched', 'touch result');
            }
            return undefined;
          },
          30_000,
        );
      } finally {
        listener.dispose();
      }
      const after = resourceDocument();
      assert(after, 'the resource document was closed');
      // The update shows where a person sees it without losing focus: a status-bar note naming the resource and server.
      const note = requireApi().browse.documents.lastUpdateNote ?? '';
      assert(note.includes(GREETING) && note.includes(MODERN), `the status-bar note of the update: ${note}`);
      assert(
        after.getText() !== first && after.getText().startsWith('hello at '),
        `text after the update: ${after.getText()} (before: ${first})`,
      );
    },
    { timeoutMs: 60_000 },
  );

  suite.test(
    "Get Prompt completes the prompt's argument in the quick pick and opens the messages",
    async () => {
      const catalog = await requireApi().browse.catalog.ready(modern());
      const prompt = catalog?.prompts.find((p) => p.name === 'review_code');
      assert(prompt, `review_code not listed: ${JSON.stringify(catalog?.prompts.map((p) => p.name))}`);
      const running = vscode.commands.executeCommand('mcpWorkbench.getPrompt', {
        kind: 'prompt',
        controller: modern(),
        prompt,
      });
      // The quick pick is filled by completion/complete; accepting takes the first suggestion ("go", of go, javascript,
      // python, typescript) once it is in: accepted before, the pick has no row to take (the argument is required).
      try {
        await acceptFirstSuggestion(vscode, requireApi(), 1, 'go');
        await running;
      } finally {
        await closeCompletionPick(vscode, api);
      }
      // The heading names the server: the other transport's suite may have left its own prompt document open.
      const shown = await waitUntil('the prompt document', () =>
        vscode.workspace.textDocuments.find(
          (d) => d.uri.scheme === 'mcp-result' && d.getText().includes(`# review_code · ${MODERN}\n`),
        ),
      );
      assert(shown.getText().includes('Review this go code'), `prompt markdown:\n${shown.getText()}`);
    },
    { timeoutMs: 45_000 },
  );

  suite.test(
    'an elicitation form sent as an input-required round is filled in the panel and reaches the server',
    async () => {
      const call = modern().callTool('ask_name', {}, {});
      const shown: ElicitationFormView = await waitForView(
        'elicitation-form',
        (v) => v.serverName === MODERN,
        `the ${MODERN} form`,
      );
      assertEqual(shown.message, 'What is your name?', 'message shown');
      assert(
        shown.form.kind === 'object' && shown.form.fields.some((f) => f.name === 'name'),
        `form: ${JSON.stringify(shown.form)}`,
      );
      requireApi().sampling.post({ type: 'elicit', action: 'accept', content: { name: 'Ada' } });
      assertEqual(textOf(await call), 'hello Ada', 'tool result');
      const declined = modern().callTool('ask_name', {}, {});
      await waitForView('elicitation-form', (v) => v.serverName === MODERN, `the second ${MODERN} form`);
      requireApi().sampling.post({ type: 'elicit', action: 'decline' });
      assertEqual(textOf(await declined), 'you chose decline', 'tool result after a decline');
    },
    { timeoutMs: 60_000 },
  );

  suite.test(
    'a sampling request sent as an input-required round is reviewed in the panel and its answer reaches the server',
    async () => {
      const before = model?.requests.length ?? 0;
      const call = modern().callTool('ask_model', { question: 'What era is this?' }, {});
      const shown: SamplingRequestView = await waitForView(
        'sampling-request',
        (v) => v.serverName === MODERN,
        `the ${MODERN} request`,
      );
      const text = shown.messages[0]?.parts[0];
      assert(
        text?.kind === 'text' && text.text.includes('What era is this?'),
        `message shown: ${JSON.stringify(shown.messages)}`,
      );
      requireApi().sampling.post({
        type: 'approve-request',
        systemPrompt: shown.systemPrompt,
        texts: shown.messages.map((message) => message.parts.map((part) => (part.kind === 'text' ? part.text : null))),
        modelId: shown.modelId,
        maxTokens: shown.maxTokens,
        temperature: shown.temperature,
        stopSequences: shown.stopSequences,
        policy: shown.policy,
      });
      const answer = await waitForView(
        'sampling-response',
        (v) => !v.streaming && v.serverName === MODERN,
        'the final answer',
      );
      assertEqual(answer.text, 'Hello from the modern test model', 'answer shown for approval');
      requireApi().sampling.post({ type: 'approve-response', text: answer.text });
      const outcome = await call;
      assertEqual(textOf(outcome), 'model said: Hello from the modern test model', 'tool result');
      assertEqual(model?.requests.length, before + 1, 'requests the model received');
      assertEqual(requireApi().sampling.records(MODERN).at(-1)?.outcome, 'approved', 'history outcome');
    },
    { timeoutMs: 60_000 },
  );

  suite.test(
    'a tool the server adds appears in the tree after tools/list_changed',
    async () => {
      assert(!(await toolNames()).includes(ADDED_TOOL), `${ADDED_TOOL} is listed before it was added`);
      const outcome = await modern().callTool('add_tool', { name: ADDED_TOOL }, {});
      assertEqual(textOf(outcome), `added ${ADDED_TOOL}`, 'add_tool result');
      await waitUntil(
        `${ADDED_TOOL} in the tree`,
        async () => ((await toolNames()).includes(ADDED_TOOL) ? true : undefined),
        20_000,
      );
      assertEqual(textOf(await modern().callTool(ADDED_TOOL, {}, {})), `${ADDED_TOOL} ran`, 'the added tool answers');
    },
    { timeoutMs: 40_000 },
  );

  suite.after(async () => {
    const controller = api?.manager.byName(MODERN)[0];
    if (subscribed && controller?.state.kind === 'running') {
      await vscode.commands.executeCommand('mcpWorkbench.unsubscribeResource', {
        kind: 'resource',
        controller,
        resource: { uri: GREETING, name: 'greeting' },
      });
    }
    if (originalMcpJson !== undefined) {
      fs.writeFileSync(configFile(), originalMcpJson);
      await api?.reload();
    }
    await api?.sampling.setApiKey(ENDPOINT, undefined);
    await vscode.workspace
      .getConfiguration('mcpWorkbench.sampling')
      .update('endpoints', undefined, vscode.ConfigurationTarget.Global);
    await model?.close();
    const child = httpServer;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    }
  });
  suite.after(() => leaveCleanState(vscode, api));

  return suite;
}
