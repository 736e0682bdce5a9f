/**
 * Which configured server a recording replays on in the editor (src/workbench/recordings/binding.ts, issue 39): a
 * workspace recording binds without asking only to a server the workspace defines, chosen the same way whatever order
 * the servers were loaded in; a server of the person's user settings is bound only after asking; a stdio recording
 * with no configured server runs its own command (which then needs the launch consent).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  chooseRecordingBinding,
  replayedCalls,
  type BindingCandidate,
  type RecordingBinding,
} from '../../../../src/workbench/recordings/binding';
import type { RecordedServer, RecordedStep } from '../../../../src/workbench/recordings/format';

const ROOT = 'file:///work/app';
const RECORDING = `${ROOT}/tests/notes.mcptest.json`;

const user: BindingCandidate = {
  id: 'mcp-workbench-settings:/mcpWorkbench.servers#notes',
  name: 'notes',
  scope: 'user',
  configUri: 'mcp-workbench-settings:/mcpWorkbench.servers',
  folderUri: ROOT,
};
const workspace: BindingCandidate = {
  id: `${ROOT}/.vscode/mcp.json#notes`,
  name: 'notes',
  scope: 'workspace',
  configUri: `${ROOT}/.vscode/mcp.json`,
  folderUri: ROOT,
};
const otherFolder: BindingCandidate = {
  id: 'file:///work/lib/.vscode/mcp.json#notes',
  name: 'notes',
  scope: 'workspace',
  configUri: 'file:///work/lib/.vscode/mcp.json',
  folderUri: 'file:///work/lib',
};
/** A folder whose name starts like the recording's folder: a prefix of the path is not a parent folder. */
const lookalikeFolder: BindingCandidate = {
  id: 'file:///work/ap/.vscode/mcp.json#notes',
  name: 'notes',
  scope: 'workspace',
  configUri: 'file:///work/ap/.vscode/mcp.json',
  folderUri: 'file:///work/ap',
};

const byConfig: RecordedServer = { kind: 'config', config: '../.vscode/mcp.json', server: 'notes' };
const byName: RecordedServer = { kind: 'stdio', name: 'notes', command: 'node', args: ['notes.mjs'] };

test('a workspace recording never binds to a user server of the same name when the workspace defines one', () => {
  const orders: BindingCandidate[][] = [
    [user, workspace],
    [workspace, user],
  ];
  const servers: RecordedServer[] = [byConfig, byName];
  for (const candidates of orders) {
    for (const server of servers) {
      const binding = chooseRecordingBinding(
        server,
        { recordingUri: RECORDING, configUri: workspace.configUri },
        candidates,
      );
      assert.equal(binding.kind, 'configured');
      assert.equal(binding.kind === 'configured' && binding.server, workspace);
      assert.equal(binding.kind === 'configured' && binding.ask, false);
    }
  }
});

test('a server of the user settings is bound only with asking, whether named by `config` or by `name`', () => {
  const servers: RecordedServer[] = [byConfig, byName];
  for (const server of servers) {
    const binding = chooseRecordingBinding(server, { recordingUri: RECORDING, configUri: workspace.configUri }, [user]);
    assert.deepEqual(binding, { kind: 'configured', server: user, reason: 'outside-workspace', ask: true });
  }
});

test('the choice among workspace servers is the same in any order: the named mcp.json, else the holding folder', () => {
  const orders: BindingCandidate[][] = [
    [otherFolder, lookalikeFolder, workspace],
    [workspace, otherFolder, lookalikeFolder],
    [lookalikeFolder, workspace, otherFolder],
  ];
  for (const candidates of orders) {
    const named: RecordingBinding<BindingCandidate> = chooseRecordingBinding(
      byConfig,
      { recordingUri: RECORDING, configUri: otherFolder.configUri },
      candidates,
    );
    assert.deepEqual(named, { kind: 'configured', server: otherFolder, reason: 'named-config', ask: false });
    const holding: RecordingBinding<BindingCandidate> = chooseRecordingBinding(
      byName,
      { recordingUri: RECORDING },
      candidates,
    );
    assert.deepEqual(holding, { kind: 'configured', server: workspace, reason: 'same-folder', ask: false });
  }
  // No folder holds it: the first by id, whatever the order.
  const elsewhere = 'file:///tmp/notes.mcptest.json';
  const first = chooseRecordingBinding(byName, { recordingUri: elsewhere }, [otherFolder, lookalikeFolder]);
  const second = chooseRecordingBinding(byName, { recordingUri: elsewhere }, [lookalikeFolder, otherFolder]);
  assert.deepEqual(first, second);
  assert.deepEqual(first, { kind: 'configured', server: lookalikeFolder, reason: 'workspace', ask: false });
});

test('with no configured server of its name a stdio recording runs its own command; others have nothing to run on', () => {
  const others = [{ ...user, name: 'other' }];
  assert.deepEqual(chooseRecordingBinding(byName, { recordingUri: RECORDING }, others), { kind: 'own-command' });
  assert.deepEqual(
    chooseRecordingBinding({ kind: 'stdio', command: 'node', args: [] }, { recordingUri: RECORDING }, [user]),
    { kind: 'own-command' },
  );
  assert.deepEqual(chooseRecordingBinding(byConfig, { recordingUri: RECORDING }, others), {
    kind: 'none',
    name: 'notes',
  });
});

test('the calls a confirmation lists say which tools are destructive by their annotations (MCP defaults apply)', () => {
  const call = (name: string): RecordedStep => ({
    request: { method: 'tools/call', params: { name, arguments: {} } },
    answer: { result: {} },
  });
  const steps: RecordedStep[] = [
    call('delete_all'),
    call('search'),
    call('append'),
    call('plain'),
    call('gone'),
    { request: { method: 'resources/read', params: { uri: 'notes://1' } }, answer: { result: {} } },
  ];
  const schema = { type: 'object' } as const;
  const tools = [
    { name: 'delete_all', inputSchema: schema, annotations: { destructiveHint: true } },
    { name: 'search', inputSchema: schema, annotations: { readOnlyHint: true, destructiveHint: true } },
    { name: 'append', inputSchema: schema, annotations: { destructiveHint: false } },
    { name: 'plain', inputSchema: schema },
  ];
  assert.deepEqual(replayedCalls(steps, tools), [
    { method: 'tools/call', subject: 'delete_all', effect: 'destructive' },
    { method: 'tools/call', subject: 'search', effect: 'read-only' },
    { method: 'tools/call', subject: 'append', effect: 'not-destructive' },
    { method: 'tools/call', subject: 'plain', effect: 'destructive' },
    { method: 'tools/call', subject: 'gone', effect: 'unknown' },
    { method: 'resources/read', subject: 'notes://1' },
  ]);
  assert.deepEqual(
    replayedCalls(steps.slice(0, 1), undefined).map((item) => item.effect),
    ['unknown'],
  );
});
