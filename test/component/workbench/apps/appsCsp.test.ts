/** The app frame's Content-Security-Policy and permissions, from the apps fixture's hostile and plain declarations. */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { McpClient } from '../../../../src/protocol/client';
import { appsExtensionsFor, mcpApps, uiResourceMeta } from '../../../../src/protocol/extensions/apps';
import { StdioTransport } from '../../../../src/protocol/node/stdio';
import { appCsp, appPermissions, VSCODE_GRANTABLE_PERMISSIONS } from '../../../../src/workbench/apps/appCsp';
import { checkAppMessage, MessageRate } from '../../../../src/workbench/apps/bridgeMessages';
import { safeStyleValue } from '../../../../src/workbench/apps/hostContext';
import { APPS_FIXTURE, MAP_APP_SERVER } from '../../../support/appsSupport';

const client = new McpClient({
  serverName: 'apps',
  transport: new StdioTransport({ command: process.execPath, args: [APPS_FIXTURE], shutdownGraceMs: 1000 }),
  era: 'legacy',
  requestTimeoutMs: 15_000,
  extensions: appsExtensionsFor(true),
});
after(() => client.close());

function directive(policy: string, name: string): string {
  return policy.split('; ').find((part) => part.startsWith(`${name} `)) ?? '';
}

test('a hostile CSP declaration: only real origins are accepted, each refusal named; nothing else widens the policy', async () => {
  await client.connect();
  const resource = await client.extension(mcpApps)!.readUiResource('ui://fixture/hostile.html');
  const csp = appCsp(resource.meta.csp);
  assert.deepEqual(csp.accepted.connectDomains, ['https://api.example.com']);
  assert.deepEqual(csp.accepted.resourceDomains, ['https://*.cdn.example.com']);
  assert.deepEqual(csp.accepted.frameDomains, ['https://frames.example.com']);
  assert.deepEqual(csp.accepted.baseUriDomains, []);
  assert.deepEqual(
    csp.refused.map((refusal) => refusal.entry).sort(),
    [
      "'self'",
      "'unsafe-eval'",
      '*',
      'data:',
      'http://plain.example.com',
      'https://a b.example.com',
      'https://evil.example; script-src *',
      'javascript:alert(1)',
    ].sort(),
  );
  assert.equal(directive(csp.policy, 'connect-src'), 'connect-src https://api.example.com');
  assert.equal(directive(csp.policy, 'script-src'), "script-src 'unsafe-inline' https://*.cdn.example.com");
  assert.equal(directive(csp.policy, 'base-uri'), "base-uri 'none'");
  assert.ok(!csp.policy.includes('unsafe-eval') && !csp.policy.includes('evil'), csp.policy);
  assert.equal(csp.policy.split(';').length, 11, 'no entry added a directive');
  // Permissions: only what VS Code's webview frame holds is passed on; the rest is reported.
  const permissions = appPermissions(resource.meta.permissions, VSCODE_GRANTABLE_PERMISSIONS);
  assert.equal(permissions.allow, 'clipboard-write');
  assert.deepEqual(permissions.notGrantable, ['camera', 'microphone', 'geolocation']);
});

test('server-map (the published CesiumJS example): its declared domains, and only they, are where the app may connect and load from', async () => {
  // Its resource carries the CSP in the content's own _meta (not the resource listing's). Drawing the map needs the
  // internet (cesium.com, tile.openstreetmap.org), so the e2e suites do not draw it; its policy is checked here.
  const map = new McpClient({
    serverName: 'map',
    transport: new StdioTransport({
      command: process.execPath,
      args: [MAP_APP_SERVER, '--stdio'],
      shutdownGraceMs: 1000,
    }),
    era: 'legacy',
    requestTimeoutMs: 15_000,
    extensions: appsExtensionsFor(true),
  });
  try {
    await map.connect();
    const showMap = (await map.listTools()).find((tool) => tool.name === 'show-map');
    assert.ok(showMap, 'show-map is listed');
    const resource = await map.extension(mcpApps)!.readUiResource('ui://cesium-map/mcp-app.html');
    const declared = ['https://*.openstreetmap.org', 'https://cesium.com', 'https://*.cesium.com'];
    const csp = appCsp(resource.meta.csp);
    assert.deepEqual(csp.accepted.connectDomains, declared);
    assert.deepEqual(csp.accepted.resourceDomains, declared);
    assert.deepEqual(csp.refused, []);
    assert.equal(directive(csp.policy, 'connect-src'), `connect-src ${declared.join(' ')}`);
    assert.equal(directive(csp.policy, 'script-src'), `script-src 'unsafe-inline' ${declared.join(' ')}`);
    assert.equal(directive(csp.policy, 'frame-src'), "frame-src 'none'", 'no frame domain was declared');
  } finally {
    await map.close();
  }
});

test('no declaration: deny by default', () => {
  const csp = appCsp(uiResourceMeta(undefined).csp);
  assert.equal(directive(csp.policy, 'connect-src'), "connect-src 'none'");
  assert.equal(directive(csp.policy, 'frame-src'), "frame-src 'none'");
  assert.equal(directive(csp.policy, 'default-src'), "default-src 'none'");
  assert.equal(appPermissions([], VSCODE_GRANTABLE_PERMISSIONS).allow, '');
  assert.deepEqual(
    appCsp({ connectDomains: ['http://localhost:3001'], resourceDomains: [], frameDomains: [], baseUriDomains: [] })
      .accepted.connectDomains,
    ['http://localhost:3001'],
    'loopback http for a developer',
  );
});

test('message shapes, the rate window and style values', () => {
  assert.equal(checkAppMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized' }).ok, true);
  assert.deepEqual(checkAppMessage({ jsonrpc: '2.0', id: 3, method: 'ping', params: [] }), {
    ok: false,
    reason: 'params of ping are not an object',
  });
  assert.equal(checkAppMessage({ jsonrpc: '2.0', method: 'log', params: { data: 'x'.repeat(2000) } }, 1000).ok, false);
  let now = 0;
  const rate = new MessageRate(3, () => now);
  assert.deepEqual([rate.admit(), rate.admit(), rate.admit()], [true, true, true]);
  now = 1000;
  assert.equal(rate.admit(), true, 'the window slides');
  assert.deepEqual([rate.admit(), rate.admit(), rate.admit()], [true, true, false]);
  assert.equal(rate.admit(), false, 'a tripped rate stays tripped');
  assert.equal(safeStyleValue(' #1e1e1e '), '#1e1e1e');
  assert.equal(safeStyleValue('red; background: url(https://evil.example)'), undefined);
  assert.equal(safeStyleValue('url(https://evil.example)'), undefined);
});
