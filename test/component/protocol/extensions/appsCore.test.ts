/**
 * The MCP Apps extension (io.modelcontextprotocol/ui) against real servers: the published example servers
 * (@modelcontextprotocol/server-basic-vanillajs and server-debug, handshake era only: they run v2 SDK 2.0.0 whose
 * newest revision is 2025-11-25) and the apps fixture (v2 SDK 2.4.0, both eras).
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { McpClient } from '../../../../src/protocol/client';
import type { EraPreference } from '../../../../src/protocol/eras/select';
import {
  APPS_API,
  appsExtensionsFor,
  hasApp,
  isCallableByApp,
  isVisibleToModel,
  mcpApps,
  toolUi,
  type AppsApi,
} from '../../../../src/protocol/extensions/apps';
import { StdioTransport } from '../../../../src/protocol/node/stdio';
import { offeredTools } from '../../../../src/workbench/apps/offeredTools';
import { APPS_FIXTURE, BASIC_APP_SERVER, DEBUG_APP_SERVER } from '../../../support/appsSupport';
import { REPO_ROOT, textOf } from '../../../support/testSupport';

const CORE_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'core', 'coreServer.mjs');

const clients: McpClient[] = [];
after(async () => {
  for (const client of clients) await client.close();
});

function start(args: string[], era: EraPreference, apps: boolean, serverName = 'apps'): McpClient {
  const client = new McpClient({
    serverName,
    transport: new StdioTransport({ command: process.execPath, args, shutdownGraceMs: 1000 }),
    era,
    requestTimeoutMs: 15_000,
    extensions: appsExtensionsFor(apps),
  });
  clients.push(client);
  return client;
}

function api(client: McpClient): AppsApi {
  const found = client.extension(mcpApps);
  assert.ok(found, 'the apps extension is enabled');
  return found;
}

describe('apps: the published example servers (handshake era)', () => {
  test('basic-vanillajs: get-time has an app; its ui:// resource is read as the app document', async () => {
    const client = start([BASIC_APP_SERVER, '--stdio'], 'legacy', true, 'basic-vanillajs');
    await client.connect();
    const tools = await client.listTools();
    const getTime = tools.find((tool) => tool.name === 'get-time');
    assert.ok(getTime, 'get-time is listed');
    assert.equal(toolUi(getTime).resourceUri, 'ui://get-time/mcp-app.html');
    assert.ok(isVisibleToModel(getTime) && isCallableByApp(getTime), 'the default visibility is model and app');
    const resource = await api(client).readUiResource('ui://get-time/mcp-app.html');
    assert.equal(resource.mimeType, 'text/html;profile=mcp-app');
    assert.match(resource.html, /<html/i);
    assert.ok(resource.bytes > 100_000, `the bundled app is a full document (${resource.bytes} bytes)`);
    assert.deepEqual(resource.meta.csp.connectDomains, [], 'no CSP declared: nothing may connect');
    // get-time is callable by its app (default visibility).
    const answer = await api(client).callToolForApp('get-time', {});
    assert.match(textOf(answer.content), /^\d{4}-\d{2}-\d{2}T/);
  });

  test('debug: app-only tools are callable by the app and hidden from the model', async () => {
    const client = start([DEBUG_APP_SERVER, '--stdio'], 'legacy', true, 'debug');
    await client.connect();
    const tools = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    assert.ok(hasApp(byName.get('debug-tool')!));
    assert.equal(isVisibleToModel(byName.get('debug-refresh')!), false, 'debug-refresh is ["app"] only');
    assert.deepEqual((await api(client).appTools()).map((tool) => tool.name).sort(), [
      'debug-log',
      'debug-refresh',
      'debug-tool',
    ]);
    const refreshed = await api(client).callToolForApp('debug-refresh', {});
    assert.match(textOf(refreshed.content), /Server timestamp/);
  });
});

for (const era of ['legacy', '2026-07-28'] as const) {
  describe(`apps: the apps fixture (${era})`, () => {
    test('the extension is declared with the app MIME type only while apps are on', async () => {
      const flags = era === 'legacy' ? [] : ['--modern'];
      const on = start([CORE_SERVER, ...flags], era, true, 'core-on');
      await on.connect();
      assert.deepEqual(JSON.parse(textOf((await on.callTool('seen_extensions')).result.content)), {
        'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
      });
      const off = start([CORE_SERVER, ...flags], era, false, 'core-off');
      await off.connect();
      assert.equal(JSON.parse(textOf((await off.callTool('seen_extensions')).result.content)), null);
      assert.equal(off.extension(mcpApps), undefined, 'no apps API while apps are off');
      // A host that must not load the extension's code asks by its key (the editor's views): the same API object.
      assert.equal(off.extension(APPS_API), undefined);
      assert.ok(on.extension(APPS_API));
      assert.equal(on.extension(APPS_API), on.extension(mcpApps));
    });

    test('visibility decides what an app may call; the older flat key names an app too', async () => {
      const client = start([APPS_FIXTURE], era, true);
      await client.connect();
      const tools = await client.listTools();
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      assert.equal(
        toolUi(byName.get('flat_key')!).resourceUri,
        'ui://fixture/panel.html',
        'the flat _meta["ui/resourceUri"] key is read',
      );
      assert.equal(isVisibleToModel(byName.get('app_only')!), false);
      assert.equal(
        textOf((await api(client).callToolForApp('app_only', { word: 'hi' })).content),
        'app-only answer: hi',
      );
      await assert.rejects(
        api(client).callToolForApp('model_only', {}),
        /the app may not call tool "model_only": its visibility does not include "app"/,
      );
      await assert.rejects(
        api(client).callToolForApp('no_such_tool', {}),
        /apps: the app asked for tool "no_such_tool", which this server does not list/,
      );
      assert.equal(
        textOf([
          { type: 'text', text: (await api(client).readResourceForApp('fixture://notes')).contents[0]!.text as string },
        ]),
        'notes for the app',
      );
    });

    test('the tools offered to the person (Tools group, "N tools", Call Tool picker) leave out the app-only tool while apps are on', async () => {
      const client = start([APPS_FIXTURE], era, true);
      await client.connect();
      const tools = await client.listTools();
      assert.equal(tools.length, 9, 'the fixture lists nine tools, the app-only app_only and erase_notes among them');
      const offered = offeredTools(tools, true);
      assert.deepEqual(
        offered.map((tool) => tool.name),
        ['show_panel', 'flat_key', 'model_only', 'show_hostile', 'show_wrong_mime', 'show_huge', 'show_webrtc'],
      );
      assert.equal(
        offeredTools(tools, true),
        offered,
        'the same list gives the same offered list (views cache rows by it)',
      );
      assert.equal(offeredTools(tools, false), tools, 'with apps off every listed tool is offered');
      const withoutAppOnly = tools.filter((tool) => tool.name !== 'app_only' && tool.name !== 'erase_notes');
      assert.equal(offeredTools(withoutAppOnly, true), withoutAppOnly, 'nothing to leave out: the list itself');
    });

    test('the UI resource: its _meta.ui is read; a wrong MIME type and an oversized app are refused, naming the server', async () => {
      const client = start([APPS_FIXTURE], era, true);
      await client.connect();
      const hostile = await api(client).readUiResource('ui://fixture/hostile.html');
      assert.ok(hostile.meta.csp.connectDomains.includes('https://api.example.com'));
      assert.deepEqual(hostile.meta.permissions, ['camera', 'microphone', 'geolocation', 'clipboardWrite']);
      assert.equal(hostile.meta.domain, 'hostile.example.com');
      await assert.rejects(
        api(client).readUiResource('ui://fixture/wrong.html'),
        /apps: the UI resource ui:\/\/fixture\/wrong.html has MIME type "text\/html", not text\/html;profile=mcp-app/,
      );
      await assert.rejects(
        api(client).readUiResource('ui://fixture/huge.html'),
        /apps: the UI resource ui:\/\/fixture\/huge.html exceeds the limit of 5242880 bytes/,
      );
    });
  });
}
