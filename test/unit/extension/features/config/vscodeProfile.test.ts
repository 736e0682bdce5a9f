/**
 * VS Code's user mcp.json of the window's profile (src/extension/features/config/vscodeProfile.ts, vscode-free): the
 * extension's global storage is the default profile's in every profile, so the profile comes from VS Code's
 * storage.json (its profiles and which workspace opens in which).
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import {
  DEFAULT_PROFILE_ID,
  storageJsonOf,
  vscodeUserMcpFile,
} from '../../../../../src/extension/features/config/vscodeProfile';

const USER = path.join('/home', 'me', '.config', 'Code', 'User');
// What VS Code hands the extension host in every profile (1.139: defaultProfile.globalStorageHome).
const GLOBAL_STORAGE = path.join(USER, 'globalStorage', 'acme.mcp-workbench');
const APP = 'file:///work/app';

const storage = (record: object) => JSON.stringify({ windowsState: {}, theme: 'vs-dark', ...record });
const profiles = [
  { location: '-5a1b2c3', name: 'Python' },
  { location: '7d8e9f0', name: 'Shared MCP', useDefaultFlags: { mcp: true, settings: true } },
];

test("a workspace associated with a profile reads that profile's User/profiles/<id>/mcp.json", () => {
  const found = vscodeUserMcpFile({
    globalStorage: GLOBAL_STORAGE,
    storageJson: storage({ userDataProfiles: profiles, profileAssociations: { workspaces: { [APP]: '-5a1b2c3' } } }),
    workspace: APP,
  });
  assert.deepEqual(found, { file: path.join(USER, 'profiles', '-5a1b2c3', 'mcp.json'), profile: '-5a1b2c3' });
});

test('the default profile, no association, a profile that shares the default mcp.json: User/mcp.json', () => {
  const defaultFile = { file: path.join(USER, 'mcp.json'), profile: DEFAULT_PROFILE_ID };
  const withAssociation = (id: string) =>
    vscodeUserMcpFile({
      globalStorage: GLOBAL_STORAGE,
      storageJson: storage({ userDataProfiles: profiles, profileAssociations: { workspaces: { [APP]: id } } }),
      workspace: APP,
    });
  assert.deepEqual(withAssociation(DEFAULT_PROFILE_ID), defaultFile);
  assert.deepEqual(withAssociation('7d8e9f0'), defaultFile, 'useDefaultFlags.mcp');
  assert.deepEqual(
    vscodeUserMcpFile({
      globalStorage: GLOBAL_STORAGE,
      storageJson: storage({ userDataProfiles: profiles }),
      workspace: APP,
    }),
    defaultFile,
  );
  assert.deepEqual(
    vscodeUserMcpFile({ globalStorage: GLOBAL_STORAGE, workspace: APP }),
    defaultFile,
    'no storage.json',
  );
  assert.deepEqual(
    vscodeUserMcpFile({ globalStorage: GLOBAL_STORAGE, storageJson: '{"userDataProfiles": [', workspace: APP }),
    defaultFile,
    'a storage.json being written',
  );
  assert.deepEqual(
    vscodeUserMcpFile({
      globalStorage: GLOBAL_STORAGE,
      storageJson: storage({ userDataProfiles: profiles, profileAssociations: { workspaces: { [APP]: 'gone' } } }),
      workspace: APP,
    }),
    defaultFile,
    'an association to a profile since removed',
  );
});

test('an older storage.json keeps the profile folder as a URI; a multi-root window is keyed by its workspace file', () => {
  const workspaceFile = 'file:///work/team.code-workspace';
  const found = vscodeUserMcpFile({
    globalStorage: GLOBAL_STORAGE,
    storageJson: storage({
      userDataProfiles: [
        {
          location: { $mid: 1, fsPath: path.join(USER, 'profiles', 'abc'), path: '/x', scheme: 'file' },
          name: 'Old',
        },
      ],
      profileAssociations: { workspaces: { [workspaceFile]: 'abc', [APP]: DEFAULT_PROFILE_ID }, emptyWindows: {} },
    }),
    workspace: workspaceFile,
  });
  assert.deepEqual(found, { file: path.join(USER, 'profiles', 'abc', 'mcp.json'), profile: 'abc' });
});

test('a VS Code whose global storage follows the profile names it in the path', () => {
  const found = vscodeUserMcpFile({
    globalStorage: path.join(USER, 'profiles', '-5a1b2c3', 'globalStorage', 'acme.mcp-workbench'),
    storageJson: storage({ userDataProfiles: profiles }),
  });
  assert.deepEqual(found, { file: path.join(USER, 'profiles', '-5a1b2c3', 'mcp.json'), profile: '-5a1b2c3' });
  assert.equal(
    storageJsonOf(path.join(USER, 'profiles', '-5a1b2c3', 'globalStorage', 'acme.mcp-workbench')),
    path.join(USER, 'globalStorage', 'storage.json'),
  );
  assert.equal(storageJsonOf(GLOBAL_STORAGE), path.join(USER, 'globalStorage', 'storage.json'));
});
