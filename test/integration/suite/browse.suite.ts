/**
 * Browsing suite: resources, templates, prompts and the Call Tool form against server-everything (stdio, from
 * the workspace's .vscode/mcp.json), inside the real extension host. Drives the extension through its commands
 * and the `browse` test hooks (the same messages the webviews post).
 */
import type { McpWorkbenchApi } from '../../../src/extension/extension';
import { Suite, assert, assertEqual, waitUntil, type VscodeApi } from './framework';
import {
  EVERYTHING_SERVER,
  EXTENSION_ID,
  acceptFirstSuggestion,
  closeCompletionPick,
  leaveCleanState,
  startFromCleanState,
  workbenchAccess,
} from './workbench';

export function browseSuite(vscode: VscodeApi): Suite {
  const suite = new Suite('browse');
  let api: McpWorkbenchApi | undefined;

  const { requireApi, controllerOf } = workbenchAccess(vscode, () => api);
  const everything = () => controllerOf(EVERYTHING_SERVER);
  const offerings = async () => {
    const found = await requireApi().browse.catalog.ready(everything());
    assert(found && !found.loading, 'the catalog has no listing for the running server');
    return found;
  };
  const documentWhere = (what: string, predicate: (text: string, uri: string) => boolean, timeoutMs = 20_000) =>
    waitUntil(
      what,
      () => vscode.workspace.textDocuments.find((d) => predicate(d.getText(), d.uri.toString())),
      timeoutMs,
    );

  suite.before(async () => {
    api = await startFromCleanState(vscode);
  });

  suite.test(
    'the server starts and its resources, templates and prompts are listed (every page)',
    async () => {
      const extension = vscode.extensions.getExtension<McpWorkbenchApi>(EXTENSION_ID);
      assert(extension, 'extension not installed');
      api = await extension.activate();
      await vscode.commands.executeCommand('mcpWorkbench.startServer', { kind: 'server', controller: everything() });
      await requireApi().manager.waitForState(EVERYTHING_SERVER, 'running', 60_000);
      const listed = await offerings();
      const client = everything().client;
      assert(client, 'running server has no client');
      // listResources follows nextCursor to the end; the catalog must hold the same complete list.
      assertEqual(listed.resources.length, (await client.listResources()).length, 'number of resources in the catalog');
      assert(listed.resources.length > 0, 'server-everything lists no resources');
      assert(
        listed.templates.some((t) => t.uriTemplate.includes('{resourceId}')),
        `templates: ${JSON.stringify(listed.templates.map((t) => t.uriTemplate))}`,
      );
      assert(
        listed.prompts.some((p) => p.name === 'completable-prompt'),
        `prompts: ${JSON.stringify(listed.prompts.map((p) => p.name))}`,
      );
      const capabilities = client.session.capabilities;
      assert(
        capabilities.tools && capabilities.resources && capabilities.prompts,
        'server-everything declares tools, resources and prompts',
      );
    },
    { timeoutMs: 90_000 },
  );

  suite.test(
    'Read Resource opens a text resource in a read-only mcp-workbench-resource: editor with its language',
    async () => {
      const resource = (await offerings()).resources.find((r) => r.mimeType === 'text/markdown');
      assert(resource, 'no text/markdown resource listed');
      await vscode.commands.executeCommand('mcpWorkbench.readResource', {
        kind: 'resource',
        controller: everything(),
        resource,
      });
      const document = await waitUntil(`document for ${resource.uri}`, () =>
        vscode.workspace.textDocuments.find(
          (d) =>
            d.uri.scheme === 'mcp-workbench-resource' && new URLSearchParams(d.uri.query).get('uri') === resource.uri,
        ),
      );
      assert(document.getText().length > 0, 'the resource document is empty');
      assertEqual(document.languageId, 'markdown', 'language of a text/markdown resource');
    },
  );

  suite.test(
    'a template is expanded with values the server completes, and a blob resource shows a hex summary',
    async () => {
      const client = everything().client;
      assert(client, 'no client');
      const templates = (await offerings()).templates;
      const text = templates.find((t) => t.uriTemplate.includes('/text/'));
      const blob = templates.find((t) => t.uriTemplate.includes('/blob/'));
      assert(text && blob, `templates: ${JSON.stringify(templates.map((t) => t.uriTemplate))}`);
      const completion = await client.complete(
        { type: 'ref/resource', uri: text.uriTemplate },
        { name: 'resourceId', value: '3' },
      );
      assert(completion.values.includes('3'), `completion for resourceId=3: ${JSON.stringify(completion)}`);
      await vscode.commands.executeCommand('mcpWorkbench.readResourceTemplate', {
        kind: 'template',
        controller: everything(),
        template: text,
        values: { resourceId: '3' },
      });
      await documentWhere('the expanded text resource', (t) =>
        t.startsWith('Resource 3: This is a plaintext resource'),
      );
      await vscode.commands.executeCommand('mcpWorkbench.readResourceTemplate', {
        kind: 'template',
        controller: everything(),
        template: blob,
        values: { resourceId: '4' },
      });
      await documentWhere(
        'the blob resource summary',
        (t, uri) =>
          uri.startsWith('mcp-workbench-resource:') && t.includes('Binary content:') && t.includes('00000000  '),
      );
    },
  );

  suite.test(
    'Get Prompt asks each argument with completion suggestions and opens the messages as Markdown',
    async () => {
      const prompt = (await offerings()).prompts.find((p) => p.name === 'completable-prompt');
      assert(prompt, 'no completable-prompt');
      const running = vscode.commands.executeCommand('mcpWorkbench.getPrompt', {
        kind: 'prompt',
        controller: everything(),
        prompt,
      });
      // Each step is a quick pick filled by completion/complete; accepting takes the first suggestion (Engineering, then
      // a member of Engineering, which the server completes from the first answer), once the suggestions are in.
      try {
        await acceptFirstSuggestion(vscode, requireApi(), 1, 'Engineering');
        await acceptFirstSuggestion(vscode, requireApi(), 2, 'Alice');
        await running;
      } finally {
        await closeCompletionPick(vscode, api);
      }
      const document = await waitUntil('the prompt document', () =>
        vscode.workspace.textDocuments.find(
          (d) => d.uri.scheme === 'mcp-result' && d.getText().includes('completable-prompt'),
        ),
      );
      const text = document.getText();
      assert(text.includes('Please promote Alice to the head of the Engineering team.'), `prompt markdown:\n${text}`);
      assert(/## 1\. (User|用户)/.test(text), `no role heading in:\n${text}`);
    },
  );

  suite.test('the Call Tool form validates, calls get-sum and the result view shows the sum', async () => {
    const controller = everything();
    const state = controller.state;
    assert(state.kind === 'running', 'server not running');
    const tool = state.tools.find((t) => t.name === 'get-sum');
    assert(tool, 'no get-sum tool');
    await vscode.commands.executeCommand('mcpWorkbench.callTool', { kind: 'tool', controller, tool });
    const form = await waitUntil('the open tool form', () => requireApi().browse.forms.active);
    assertEqual(form.tool.name, 'get-sum', 'tool of the open form');
    const before = requireApi().browse.results.lastShown;
    await form.receive({ type: 'submit', arguments: { a: 'two', b: 3 } });
    assertEqual(requireApi().browse.results.lastShown, before, 'result view after an invalid submit (must not call)');
    assertEqual(
      JSON.stringify(form.errors),
      JSON.stringify([{ path: '/a', message: 'Must be a number' }]),
      'what the form shows for a wrong number',
    );
    await form.receive({ type: 'submit', arguments: { b: 3 } });
    assertEqual(
      JSON.stringify(form.errors),
      JSON.stringify([{ path: '/a', message: 'Required' }]),
      'what the form shows for a missing number',
    );
    await form.receive({ type: 'submit', arguments: { a: 2, b: 3 } });
    const shown = await waitUntil('a result view', () =>
      requireApi().browse.results.lastShown !== before ? requireApi().browse.results.lastShown : undefined,
    );
    assert(shown.html.includes('The sum of 2 and 3 is 5.'), `result html:\n${shown.html}`);
    assert(shown.markdown.includes('The sum of 2 and 3 is 5.'), `result markdown:\n${shown.markdown}`);
    await form.receive({ type: 'cancel' });
  });

  suite.test(
    'the Call Tool form: an empty required string is "Required" next to its field, and nothing is called',
    async () => {
      const controller = everything();
      const state = controller.state;
      assert(state.kind === 'running', 'server not running');
      const tool = state.tools.find((t) => t.name === 'echo');
      assert(tool, 'no echo tool');
      await vscode.commands.executeCommand('mcpWorkbench.callTool', { kind: 'tool', controller, tool });
      const form = await waitUntil('the open echo form', () =>
        requireApi().browse.forms.active?.tool.name === 'echo' ? requireApi().browse.forms.active : undefined,
      );
      const before = requireApi().browse.results.lastShown;
      // What the form's script sends for a required text field left empty.
      await form.receive({ type: 'submit', arguments: { message: '' } });
      assertEqual(
        JSON.stringify(form.errors),
        JSON.stringify([{ path: '/message', message: 'Required' }]),
        'what the form shows',
      );
      assertEqual(
        requireApi().browse.results.lastShown,
        before,
        'result view after submitting an empty required string (must not call)',
      );
      await form.receive({ type: 'cancel' });
    },
  );

  suite.test('a new session resource arrives through notifications/resources/list_changed', async () => {
    const controller = everything();
    const state = controller.state;
    assert(state.kind === 'running', 'server not running');
    const count = (await offerings()).resources.length;
    await controller.callTool(
      'gzip-file-as-resource',
      { name: 'browse-test.txt.gz', data: 'data:text/plain;base64,aGVsbG8gYnJvd3Nl', outputType: 'resourceLink' },
      {},
    );
    await waitUntil(
      'the catalog to list the new resource',
      () => {
        const listed = requireApi().browse.catalog.offerings(controller);
        return listed && listed.resources.length > count ? true : undefined;
      },
      20_000,
    );
  });

  suite.after(() => leaveCleanState(vscode, api));

  return suite;
}
