/**
 * The command table (src/extension/commands.ts) against the manifest: every command package.json contributes has a
 * handler, no handler or id exists without a contributed command, and the table is the only place that registers
 * commands. commands.ts imports vscode, so its keys are read from the source; the id list is vscode-free.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMMAND_IDS } from '../../src/extension/platform/commandIds';

const root = path.resolve(__dirname, '..', '..');
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

/** The keys of the `COMMANDS` object literal, in source order. */
function tableKeys(source: string): string[] {
  const start = source.indexOf('export const COMMANDS');
  assert.ok(start >= 0, 'commands.ts has no "export const COMMANDS" table');
  const open = source.indexOf('= {', start);
  const close = source.indexOf('\n};', open);
  assert.ok(open > start && close > open, 'the COMMANDS table is not an object literal closed by "};" on its own line');
  return [...source.slice(open, close).matchAll(/^\s*'([^']+)'\s*:/gm)].map((match) => match[1]);
}

const sorted = (values: readonly string[]) => [...values].sort();
const duplicates = (values: readonly string[]) => values.filter((value, index) => values.indexOf(value) !== index);

test('every contributed command has an id in COMMAND_IDS, and every id is contributed', () => {
  assert.deepEqual(duplicates(contributed), [], 'package.json contributes a command twice');
  assert.deepEqual(duplicates(COMMAND_IDS), [], 'COMMAND_IDS lists an id twice');
  const missing = contributed.filter((id) => !(COMMAND_IDS as readonly string[]).includes(id));
  const orphans = COMMAND_IDS.filter((id) => !contributed.includes(id));
  assert.deepEqual({ missing, orphans }, { missing: [], orphans: [] });
});

test('the command table has exactly one handler per command id', () => {
  const keys = tableKeys(readFileSync(path.join(extensionDir, 'commands.ts'), 'utf8'));
  assert.deepEqual(duplicates(keys), [], 'the table has a command twice');
  assert.deepEqual(sorted(keys), sorted(COMMAND_IDS));
});

test('commands are registered only by the table', () => {
  const registering = sourceFiles(extensionDir)
    .filter((file) => /\bregisterCommand\s*\(/.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(root, file).split(path.sep).join('/'));
  assert.deepEqual(registering, ['src/extension/commands.ts']);
});

test('menus refer only to contributed commands', () => {
  const referenced = Object.values(manifest.contributes.menus ?? {}).flatMap((items) => items.flatMap((item) => (item.command ? [item.command] : [])));
  assert.deepEqual(referenced.filter((id) => !contributed.includes(id)), []);
});
