/**
 * The protocol client, the stdio transport and the launcher are evaluated when a server first starts, not when the
 * extension loads (src/extension/shared/launchCore.ts): esbuild evaluates every module a bundle imports when the
 * bundle loads, so one value import of them anywhere in src/extension would bring them back into activation.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from './testSupport';

const DEFERRED = ['protocol/client', 'protocol/node/stdio', 'workbench/node/launch'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The names an import statement brings in as values (not `import type`, not `type X` inside the braces). */
function valueImports(statement: string): string[] {
  if (/^import\s+type\b/.test(statement)) return [];
  const braces = /\{([^}]*)\}/.exec(statement);
  const names = braces ? braces[1].split(',').map((name) => name.trim()).filter((name) => name !== '' && !name.startsWith('type ')) : [];
  const other = /^import\s+(\*\s+as\s+\w+|\w+)/.exec(statement);
  return [...names, ...(other && !braces ? [other[1]] : [])];
}

test('src/extension imports the client, the stdio transport and the launcher as values only through launchCore', () => {
  const offenders: string[] = [];
  for (const file of sources(path.join(REPO_ROOT, 'src', 'extension'))) {
    if (file.endsWith(path.join('shared', 'launchCore.ts'))) continue;
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/^import[^;]*?from\s+'([^']+)';/gms)) {
      const target = match[1];
      if (!DEFERRED.some((module) => target.endsWith(module))) continue;
      const values = valueImports(match[0]);
      if (values.length > 0) offenders.push(`${path.relative(REPO_ROOT, file)}: ${values.join(', ')} from ${target}`);
    }
  }
  assert.deepEqual(offenders, []);
});

test('the check sees a value import (positive control)', () => {
  assert.deepEqual(valueImports("import { McpClient, type ServerSession } from '../../protocol/client';"), ['McpClient']);
  assert.deepEqual(valueImports("import type { McpClient } from '../../protocol/client';"), []);
  assert.deepEqual(valueImports("import * as launch from '../../workbench/node/launch';"), ['* as launch']);
});
