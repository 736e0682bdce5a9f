/**
 * scripts/prepare-code-server.sh picks the code-server version to prepare (argument, else MCP_E2E_CODE_SERVER_VERSION,
 * else 4.100.3) and finds each one's cache folder: checked against a fake, already prepared cache (MCP_E2E_CACHE), so
 * nothing is downloaded. A version that needs another Node than the machine's counts as prepared only with that Node
 * beside it (<cache>/code-server-<version>/node/bin/node), which the harness starts it with.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../support/paths';

const SCRIPT = path.join(repoRoot, 'scripts', 'prepare-code-server.sh');

/** A cache folder holding what the script's "already prepared" check looks at, for each version given. */
function fakeCache(versions: readonly string[]): string {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-prepare-cache-'));
  for (const version of versions) {
    const dest = path.join(cache, `code-server-${version}`);
    fs.mkdirSync(path.join(dest, 'package', 'out', 'node'), { recursive: true });
    fs.writeFileSync(path.join(dest, 'package', 'out', 'node', 'entry.js'), '');
    fs.mkdirSync(path.join(dest, 'node', 'bin'), { recursive: true });
    fs.writeFileSync(path.join(dest, 'node', 'bin', 'node'), '#!/bin/sh\n', { mode: 0o755 });
    fs.writeFileSync(path.join(dest, '.prepared'), '2026-12-07T00:00:00Z\n');
  }
  return cache;
}

function prepare(cache: string, args: string[], env: Record<string, string> = {}) {
  const base = { ...process.env };
  delete base.MCP_E2E_CODE_SERVER_VERSION;
  return spawnSync('bash', [SCRIPT, ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...base, MCP_E2E_CACHE: cache, ...env },
  });
}

test('the version comes from the argument, else MCP_E2E_CODE_SERVER_VERSION, else 4.100.3; each has its own folder', () => {
  const cache = fakeCache(['4.100.3', '4.139.1']);
  try {
    const lastLine = (result: ReturnType<typeof prepare>): string => {
      assert.equal(result.status, 0, result.stderr);
      return result.stdout.trim().split('\n').pop() ?? '';
    };
    assert.equal(lastLine(prepare(cache, ['4.139.1'])), path.join(cache, 'code-server-4.139.1', 'package'));
    assert.equal(
      lastLine(prepare(cache, [], { MCP_E2E_CODE_SERVER_VERSION: '4.139.1' })),
      path.join(cache, 'code-server-4.139.1', 'package'),
    );
    assert.equal(lastLine(prepare(cache, [])), path.join(cache, 'code-server-4.100.3', 'package'));
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
});

test('a version that is not one is refused before anything is touched', () => {
  const cache = fakeCache([]);
  try {
    const result = prepare(cache, ['latest; rm -rf /']);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /not a code-server version/);
    assert.deepEqual(fs.readdirSync(cache), []);
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
});
