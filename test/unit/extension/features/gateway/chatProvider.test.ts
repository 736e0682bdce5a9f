/**
 * The definitions VS Code's chat gets (src/extension/features/gateway/chatProvider.ts): which servers, with which URL
 * and header, what resolving one does, and that nothing is registered where VS Code has no provider API. The `lm`
 * shape is a fake: it is VS Code's API, not the thing under test.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  WorkbenchMcpProvider,
  mcpApiOf,
  type ChatEndpoint,
  type ChatProviderDeps,
  type ChatServer,
  type McpApi,
  type McpHttpDefinitionLike,
} from '../../../../../src/extension/features/gateway/chatProvider';
import type { ChatRoute } from '../../../../../src/extension/platform/gateway/chatRoute';

class FakeDefinition implements McpHttpDefinitionLike {
  constructor(
    readonly label: string,
    public uri: object,
    public headers: Record<string, string> = {},
  ) {}
}

const api: McpApi = {
  lm: { registerMcpServerDefinitionProvider: () => ({ dispose: () => undefined }) },
  McpHttpServerDefinition: FakeDefinition,
};

const HEADERS = { Authorization: `Bearer ${'0f'.repeat(32)}` };

function setup(servers: ChatServer[], route: ChatRoute = 'vscode') {
  const state = {
    route,
    served: new Map<string, ChatEndpoint>(),
    started: [] as string[],
    refuse: new Set<string>(),
  };
  const deps: ChatProviderDeps = {
    api,
    servers: () => servers,
    route: () => state.route,
    served: (id) => state.served.get(id),
    startAndServe: async (id) => {
      state.started.push(id);
      if (state.refuse.has(id)) return undefined;
      const endpoint = { url: `http://127.0.0.1:${4000 + state.started.length}/mcp`, headers: HEADERS };
      state.served.set(id, endpoint);
      return endpoint;
    },
    uriOf: (url) => ({ parsed: url }),
  };
  return { state, provider: new WorkbenchMcpProvider(deps) };
}

const user = (name: string, id = `user:${name}`): ChatServer => ({ id, name, scope: 'user', where: 'User settings' });
const workspace = (name: string, folder = 'app'): ChatServer => ({
  id: `ws:${folder}:${name}`,
  name,
  scope: 'workspace',
  where: folder,
});

describe('the chat provider', () => {
  test("the user's own servers are listed; the workspace's only once chat is routed through the workbench", async () => {
    const { state, provider } = setup([user('notes'), workspace('everything')]);
    assert.deepEqual(
      (await provider.provideMcpServerDefinitions()).map((definition) => definition.label),
      ['notes'],
    );
    state.route = 'workbench';
    assert.deepEqual(
      (await provider.provideMcpServerDefinitions()).map((definition) => definition.label),
      ['notes', 'everything'],
    );
  });

  test('a served server is listed with its gateway URL and its header', async () => {
    const { state, provider } = setup([user('notes')]);
    state.served.set('user:notes', { url: 'http://127.0.0.1:4100/mcp', headers: HEADERS });
    const [definition] = await provider.provideMcpServerDefinitions();
    assert.deepEqual(definition.uri, { parsed: 'http://127.0.0.1:4100/mcp' });
    assert.deepEqual(definition.headers, HEADERS);
  });

  test('resolving a definition starts its server and gateway and returns the gateway', async () => {
    const { state, provider } = setup([user('notes')]);
    const [definition] = await provider.provideMcpServerDefinitions();
    assert.deepEqual(definition.headers, {}, 'no header before the gateway exists');
    const resolved = await provider.resolveMcpServerDefinition(definition);
    assert.deepEqual(state.started, ['user:notes']);
    assert.deepEqual(resolved?.uri, { parsed: 'http://127.0.0.1:4001/mcp' });
    assert.deepEqual(resolved?.headers, HEADERS);
  });

  test('a refused start (consent, trust) resolves to undefined: chat shows the server as not started', async () => {
    const { state, provider } = setup([user('notes')]);
    state.refuse.add('user:notes');
    const [definition] = await provider.provideMcpServerDefinitions();
    assert.equal(await provider.resolveMcpServerDefinition(definition), undefined);
  });

  test('a workspace server is not started once chat is routed back to VS Code', async () => {
    const { state, provider } = setup([workspace('everything')], 'workbench');
    const [definition] = await provider.provideMcpServerDefinitions();
    state.route = 'vscode';
    assert.equal(await provider.resolveMcpServerDefinition(definition), undefined);
    assert.deepEqual(state.started, []);
  });

  test('two servers of one name get labels that tell them apart, and each resolves to its own server', async () => {
    const { state, provider } = setup([workspace('everything', 'app'), workspace('everything', 'lib')], 'workbench');
    const definitions = await provider.provideMcpServerDefinitions();
    assert.deepEqual(
      definitions.map((definition) => definition.label),
      ['everything (app)', 'everything (lib)'],
    );
    // VS Code may hand back a copy: the label alone finds the server.
    await provider.resolveMcpServerDefinition(new FakeDefinition('everything (lib)', {}));
    assert.deepEqual(state.started, ['ws:lib:everything']);
  });

  test('its change event fires when asked (the server list or the route changed)', () => {
    const { provider } = setup([]);
    let fired = 0;
    provider.onDidChangeMcpServerDefinitions(() => fired++);
    provider.fireChanged();
    assert.equal(fired, 1);
  });
});

describe('mcpApiOf', () => {
  test('VS Code 1.100 (no provider API) gives nothing to register with', () => {
    assert.equal(mcpApiOf({ lm: { selectChatModels: () => [] } }), undefined);
    assert.equal(mcpApiOf({}), undefined);
    assert.equal(mcpApiOf({ lm: { registerMcpServerDefinitionProvider: () => undefined } }), undefined);
  });

  test('VS Code 1.101+ gives the API', () => {
    assert.equal(mcpApiOf(api), api);
  });
});
