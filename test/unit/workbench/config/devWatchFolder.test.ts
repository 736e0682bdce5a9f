import assert from 'node:assert/strict';
import { test } from 'node:test';
import { devWatchFolder } from '../../../../src/workbench/config/devMode';

const context = { workspaceFolder: '/ws/app', userHome: '/home/me', env: { SRV: '/opt/srv' } };

test("dev mode's watch folder: the server's cwd with its variables resolved, else the workspace folder", () => {
  assert.deepEqual(devWatchFolder(undefined, context), { kind: 'workspaceFolder' });
  assert.deepEqual(devWatchFolder(' ', context), { kind: 'workspaceFolder' });
  assert.deepEqual(devWatchFolder('/elsewhere/myserver', context), {
    kind: 'cwd',
    path: '/elsewhere/myserver',
    relative: false,
  });
  assert.deepEqual(devWatchFolder('${workspaceFolder}/srv', context), {
    kind: 'cwd',
    path: '/ws/app/srv',
    relative: false,
  });
  assert.deepEqual(devWatchFolder('${userHome}/x-${workspaceFolderBasename}', context), {
    kind: 'cwd',
    path: '/home/me/x-app',
    relative: false,
  });
  assert.deepEqual(devWatchFolder('${env:SRV}', context), { kind: 'cwd', path: '/opt/srv', relative: false });
  assert.deepEqual(devWatchFolder('~/srv', context), { kind: 'cwd', path: '/home/me/srv', relative: false });
  assert.deepEqual(devWatchFolder('~', context), { kind: 'cwd', path: '/home/me', relative: false });
  assert.deepEqual(devWatchFolder('srv/app', context), { kind: 'cwd', path: 'srv/app', relative: true });
  assert.deepEqual(devWatchFolder('C:\\srv', context), { kind: 'cwd', path: 'C:\\srv', relative: false });
  assert.deepEqual(devWatchFolder('\\\\host\\share', context), {
    kind: 'cwd',
    path: '\\\\host\\share',
    relative: false,
  });
});

test('a cwd that only a start can resolve (an input, an unknown variable, no folder) is unresolved, with the reason', () => {
  const input = devWatchFolder('${input:dir}/srv', context);
  assert.ok(
    input.kind === 'unresolved' && /\$\{input:dir\} is asked for only when the server starts/.test(input.reason),
  );
  const unknown = devWatchFolder('${cwd}', context);
  assert.ok(unknown.kind === 'unresolved' && /not a known variable/.test(unknown.reason));
  const noFolder = devWatchFolder('${workspaceFolder}/srv', { ...context, workspaceFolder: undefined });
  assert.ok(noFolder.kind === 'unresolved' && /needs an open workspace folder/.test(noFolder.reason));
});
