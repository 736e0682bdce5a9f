/**
 * A modern-only server (2026-07-28, no initialize handshake) inside the real extension host: the official v2 SDK
 * fixture test/fixtures/modern/server.mjs with `--legacy reject` over stdio, added to the workspace's mcp.json
 * with `"era": "2026-07-28"`. The Servers view lists its tools and names the era in the tooltip, a tool call
 * answers, a sampling request that arrives as an input-required round is answered through the review panel (the
 * person simulated by the messages its buttons post; the model is test/fixtures/openai/openaiServer.ts), and a
 * tool the server adds at run time appears in the tree after its tools/list_changed (subscriptions/listen).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as vscodeTypes from 'vscode';
import type { McpWorkbenchApi } from '../../../src/extension/extension';
import type { ServersTreeNode } from '../../../src/extension/views/serversTreeProvider';
import type { ReviewView, SamplingRequestView } from '../../../src/extension/webviews/reviewPanel';
import type { CallToolOutcome } from '../../../src/protocol/client';
import { startOpenAiServer, type OpenAiTestServer } from '../../fixtures/openai/openaiServer';
import { Suite, assert, assertEqual, waitUntil, type VscodeApi } from './framework';
import { EVERYTHING_SERVER, leaveCleanState, startFromCleanState, workbenchAccess } from './workbench';

const MODERN = 'modern-only';
const ENDPOINT = 'modern-test-endpoint';
const MODEL = 'modern-test-model';
const ADDED_TOOL = 'added_at_run_time';

export function modernSuite(vscode: VscodeApi): Suite {
  const suite = new Suite('modern');
  let api: McpWorkbenchApi | undefined;
  let model: OpenAiTestServer | undefined;
  let originalMcpJson: string | undefined;

  const { requireApi, controllerOf, configFile } = workbenchAccess(vscode, () => api);
  const modern = () => controllerOf(MODERN);
  const tree = () => requireApi().tree;
  const children = async (node?: ServersTreeNode): Promise<ServersTreeNode[]> => (await tree().getChildren(node)) ?? [];
  const toolNames = async (): Promise<string[]> => {
    const server = (await children()).find((n) => n.kind === 'server' && n.controller === modern());
    assert(server, `no root node for "${MODERN}"`);
    const group = (await children(server)).find((g) => g.kind === 'group' && g.group === 'tools');
    assert(group, `"${MODERN}" has no tools group`);
    return (await children(group)).flatMap((node) => (node.kind === 'tool' ? [node.tool.name] : []));
  };
  const tooltipText = (item: vscodeTypes.TreeItem): string => (typeof item.tooltip === 'string' ? item.tooltip : (item.tooltip?.value ?? ''));
  const textOf = (outcome: CallToolOutcome): string => ((outcome.result.content as { type: string; text?: string }[])[0]?.text ?? '');
  const view = (): ReviewView | undefined => requireApi().sampling.snapshot().view;
  const waitForView = <K extends ReviewView['kind']>(kind: K, predicate: (v: Extract<ReviewView, { kind: K }>) => boolean, what: string) =>
    waitUntil<Extract<ReviewView, { kind: K }>>(`the review panel to show ${what} (showing ${JSON.stringify(view()?.kind)})`, () => {
      const current = view();
      if (current?.kind !== kind) return undefined;
      const typed = current as Extract<ReviewView, { kind: K }>;
      return predicate(typed) ? typed : undefined;
    }, 30_000);
  /** The repository root, from the absolute server-everything path the harness wrote into mcp.json. */
  const repoRoot = (): string => {
    const definition = controllerOf(EVERYTHING_SERVER).entry.definition;
    assert(definition.kind === 'stdio', 'server-everything is not a stdio server');
    const script = definition.args[0];
    assert(typeof script === 'string' && path.isAbsolute(script), `server-everything's script path: ${String(script)}`);
    // <root>/node_modules/@modelcontextprotocol/server-everything/dist/index.js
    return path.resolve(script, '..', '..', '..', '..', '..');
  };

  suite.before(async () => {
    api = await startFromCleanState(vscode);
  });

  suite.test('set-up: the modern-only server in mcp.json with "era": "2026-07-28", a model endpoint, and the server running', async () => {
    model = await startOpenAiServer([{ kind: 'text', text: 'Hello from the modern test model' }]);
    await vscode.workspace.getConfiguration('mcpWorkbench.sampling').update('endpoints', [{ name: ENDPOINT, baseUrl: model.baseUrl, model: MODEL }], vscode.ConfigurationTarget.Global);
    await requireApi().sampling.setApiKey(ENDPOINT, 'sk-modern-test');
    await requireApi().sampling.setPolicy(MODERN, 'ask');
    const file = configFile();
    originalMcpJson ??= fs.readFileSync(file, 'utf8');
    const config = JSON.parse(originalMcpJson) as { servers: Record<string, unknown> };
    const fixture = path.join(repoRoot(), 'test', 'fixtures', 'modern', 'server.mjs');
    config.servers[MODERN] = { type: 'stdio', command: process.execPath, args: [fixture, '--transport', 'stdio', '--legacy', 'reject'], era: '2026-07-28' };
    fs.writeFileSync(file, JSON.stringify(config, null, 2));
    await requireApi().reload();
    const controller = await waitUntil(`server ${MODERN} configured`, () => requireApi().manager.byName(MODERN)[0], 15_000);
    assertEqual(controller.entry.definition.era, '2026-07-28', 'era read from mcp.json');
    if (controller.state.kind !== 'running') await controller.start();
    await requireApi().manager.waitForState(MODERN, 'running', 60_000);
    const state = controller.state;
    assert(state.kind === 'running', 'not running');
    assertEqual(state.session.kind, 'modern', 'session era');
    assertEqual(state.session.protocolVersion, '2026-07-28', 'protocol revision');
  }, { timeoutMs: 90_000 });

  suite.test('the tree lists the tools of the modern server and its tooltip names the era', async () => {
    const names = await toolNames();
    for (const expected of ['add', 'ask_model', 'add_tool', 'slow']) assert(names.includes(expected), `tool ${expected} not in the tree: ${names.join(', ')}`);
    const server = (await children()).find((n) => n.kind === 'server' && n.controller === modern());
    assert(server, 'no server node');
    const tooltip = tooltipText(await tree().getTreeItem(server)).replace(/\\(.)/g, '$1');
    assert(tooltip.includes('2026-07-28 (stateless)'), `the tooltip does not name the era: ${tooltip}`);
  });

  suite.test('a tool call answers', async () => {
    const outcome = await modern().callTool('add', { a: 2, b: 40 }, {});
    assertEqual(outcome.result.isError, undefined, 'isError');
    assertEqual(textOf(outcome), '42', 'add(2, 40)');
  });

  suite.test('a sampling request sent as an input-required round is reviewed in the panel and its answer reaches the server', async () => {
    const before = model?.requests.length ?? 0;
    const call = modern().callTool('ask_model', { question: 'What era is this?' }, {});
    const shown: SamplingRequestView = await waitForView('sampling-request', (v) => v.serverName === MODERN, `the ${MODERN} request`);
    const text = shown.messages[0]?.parts[0];
    assert(text?.kind === 'text' && text.text.includes('What era is this?'), `message shown: ${JSON.stringify(shown.messages)}`);
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
    const answer = await waitForView('sampling-response', (v) => !v.streaming && v.serverName === MODERN, 'the final answer');
    assertEqual(answer.text, 'Hello from the modern test model', 'answer shown for approval');
    requireApi().sampling.post({ type: 'approve-response', text: answer.text });
    const outcome = await call;
    assertEqual(textOf(outcome), 'model said: Hello from the modern test model', 'tool result');
    assertEqual(model?.requests.length, before + 1, 'requests the model received');
    assertEqual(requireApi().sampling.history(MODERN).at(-1)?.outcome, 'approved', 'history outcome');
  }, { timeoutMs: 60_000 });

  suite.test('a tool the server adds appears in the tree after tools/list_changed', async () => {
    assert(!(await toolNames()).includes(ADDED_TOOL), `${ADDED_TOOL} is listed before it was added`);
    const outcome = await modern().callTool('add_tool', { name: ADDED_TOOL }, {});
    assertEqual(textOf(outcome), `added ${ADDED_TOOL}`, 'add_tool result');
    await waitUntil(`${ADDED_TOOL} in the tree`, async () => ((await toolNames()).includes(ADDED_TOOL) ? true : undefined), 20_000);
    assertEqual(textOf(await modern().callTool(ADDED_TOOL, {}, {})), `${ADDED_TOOL} ran`, 'the added tool answers');
  }, { timeoutMs: 40_000 });

  suite.after(async () => {
    if (originalMcpJson !== undefined) {
      fs.writeFileSync(configFile(), originalMcpJson);
      await api?.reload();
    }
    await api?.sampling.setApiKey(ENDPOINT, undefined);
    await vscode.workspace.getConfiguration('mcpWorkbench.sampling').update('endpoints', undefined, vscode.ConfigurationTarget.Global);
    await model?.close();
  });
  suite.after(() => leaveCleanState(vscode, api));

  return suite;
}
