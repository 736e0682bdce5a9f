/**
 * The registry's Add (and Add Server) default to where the current VS Code writes
 * (src/extension/platform/config/addTargetChoice.ts, vscode-free): `.mcp.json`, or `.vscode/mcp.json` when the entry
 * needs inputs, which `.mcp.json` refuses; an MCPB bundle to the user settings only. The entry is then written in
 * `.mcp.json`'s dialect, keeping the file's comments and order.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { preferredAddFile } from '../../../../../src/extension/platform/config/addTargetChoice';
import { DIALECTS } from '../../../../../src/workbench/config/dialects';
import { parseServerEntry } from '../../../../../src/workbench/config/mcpConfig';
import { mapServer } from '../../../../../src/workbench/registry/mapping';
import type { ServerJson } from '../../../../../src/workbench/registry/types';
import { validateServerJson } from '../../../../../src/workbench/registry/validate';

const npm = (environmentVariables: object[] = []): ServerJson =>
  validateServerJson({
    name: 'io.github.example/weather',
    description: 'Forecasts',
    version: '1.0.0',
    packages: [
      {
        registryType: 'npm',
        identifier: '@example/weather-mcp',
        version: '1.0.0',
        transport: { type: 'stdio' },
        environmentVariables,
      },
    ],
  });

test('a registry entry without inputs goes to .mcp.json by default and is written there keeping comments and order', () => {
  const mapped = mapServer(npm(), { key: 'weather' });
  assert.deepEqual(mapped.inputs, []);
  assert.deepEqual(preferredAddFile('weather', mapped.entry, { inputs: mapped.inputs }), {
    preferred: 'dotMcp',
    dotMcpRefused: [],
  });
  const definition = parseServerEntry('weather', mapped.entry);
  assert.ok(typeof definition !== 'string');
  const written = DIALECTS['dot-mcp'].write(definition);
  assert.ok('entry' in written, JSON.stringify(written));
  const before = '{\n  // the team\'s servers\n  "mcpServers": {\n    "docs": { "command": "docs-mcp" }\n  }\n}\n';
  const after = DIALECTS['dot-mcp'].add!(before, 'weather', written.entry, { path: '/w/.mcp.json' });
  assert.ok(after.includes("// the team's servers"), after);
  assert.ok(after.indexOf('"docs"') < after.indexOf('"weather"'), after);
  const read = DIALECTS['dot-mcp'].read(after, { path: '/w/.mcp.json' });
  assert.deepEqual(
    read.servers.map((server) => server.definition.name),
    ['docs', 'weather'],
  );
  assert.deepEqual(read.problems, []);
});

test('a registry entry with a secret (a password input) defaults to .vscode/mcp.json, naming why .mcp.json cannot hold it', () => {
  const mapped = mapServer(npm([{ name: 'WEATHER_API_KEY', isRequired: true, isSecret: true }]), { key: 'weather' });
  assert.equal(mapped.inputs.length, 1);
  const choice = preferredAddFile('weather', mapped.entry, { inputs: mapped.inputs });
  assert.equal(choice.preferred, 'vscodeWorkspace');
  assert.match(choice.dotMcpRefused.join('; '), /WEATHER_API_KEY.*input/);
});

test('an MCPB bundle goes to the user settings only; inputs declared but unused still keep .mcp.json out', () => {
  const entry = { type: 'stdio', command: 'node', args: ['/home/me/.config/mcp-workbench/mcpb/x/index.mjs'] };
  assert.equal(preferredAddFile('bundle', entry, { bundle: true }).preferred, 'user');
  const unused = preferredAddFile(
    'x',
    { type: 'stdio', command: 'x' },
    { inputs: [{ id: 'token', type: 'promptString' }] },
  );
  assert.equal(unused.preferred, 'vscodeWorkspace');
  assert.match(unused.dotMcpRefused[0], /inputs/);
  assert.equal(preferredAddFile('x', { type: 'stdio', command: 'x', cwd: '/srv' }).preferred, 'vscodeWorkspace');
});
