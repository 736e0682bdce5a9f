/**
 * The features' command tables (src/extension/features/<name>/index.ts) against the manifest: every command package.json
 * contributes has exactly one handler, no handler or id exists without a contributed command, and platform/feature.ts
 * is the only place that registers commands. The features import vscode, so their keys are read from the source; the
 * id list is vscode-free. (That every id has a handler is also checked by the compiler: extension.ts.)
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMMAND_IDS } from '../../../src/extension/platform/commandIds';
import { repoRoot } from '../../support/paths';

const root = repoRoot;
const extensionDir = path.join(root, 'src', 'extension');

interface Manifest {
  contributes: { commands: { command: string }[]; menus?: Record<string, { command?: string }[]> };
}
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
const contributed = manifest.contributes.commands.map((entry) => entry.command);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/** The keys of a feature's `commands: { … }` table, in source order. */
function tableKeys(source: string): string[] {
  const start = source.indexOf('commands: {');
  if (start < 0) return [];
  const close = source.indexOf('\n      },', start);
  const table = close > start ? source.slice(start, close) : source.slice(start, source.indexOf('}', start));
  return [...table.matchAll(/'(mcpWorkbench\.[^']+)'\s*:/g)].map((match) => match[1]);
}

const featureDirs = readdirSync(path.join(extensionDir, 'features'));
const featureTables = featureDirs.map((name) => ({
  name,
  keys: tableKeys(readFileSync(path.join(extensionDir, 'features', name, 'index.ts'), 'utf8')),
}));

const sorted = (values: readonly string[]) => [...values].sort();
const duplicates = (values: readonly string[]) => values.filter((value, index) => values.indexOf(value) !== index);

test('every contributed command has an id in COMMAND_IDS, and every id is contributed', () => {
  assert.deepEqual(duplicates(contributed), [], 'package.json contributes a command twice');
  assert.deepEqual(duplicates(COMMAND_IDS), [], 'COMMAND_IDS lists an id twice');
  const missing = contributed.filter((id) => !(COMMAND_IDS as readonly string[]).includes(id));
  const orphans = COMMAND_IDS.filter((id) => !contributed.includes(id));
  assert.deepEqual({ missing, orphans }, { missing: [], orphans: [] });
});

test('the features handle each command id exactly once', () => {
  const keys = featureTables.flatMap((table) => table.keys);
  assert.ok(
    featureTables.filter((table) => table.keys.length > 0).length >= 10,
    `the tables are read: ${featureTables.map((t) => `${t.name} ${t.keys.length}`).join(', ')}`,
  );
  assert.deepEqual(duplicates(keys), [], 'two features handle the same command');
  assert.deepEqual(sorted(keys), sorted(COMMAND_IDS));
});

test('commands are registered only by the table', () => {
  const registering = sourceFiles(extensionDir)
    .filter((file) => /\bregisterCommand\s*\(/.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(root, file).split(path.sep).join('/'));
  assert.deepEqual(registering, ['src/extension/platform/feature.ts']);
});

test('menus refer only to contributed commands', () => {
  const referenced = Object.values(manifest.contributes.menus ?? {}).flatMap((items) =>
    items.flatMap((item) => (item.command ? [item.command] : [])),
  );
  assert.deepEqual(
    referenced.filter((id) => !contributed.includes(id)),
    [],
  );
});
