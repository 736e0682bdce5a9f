/**
 * The CLI's protocol era: `--era` parsing, `info` naming the era and revision against the real v2 SDK
 * fixture (modern-only, dual-era) and a legacy server, and how `conformance` picks its era and reads the
 * scenario context.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { UsageError, parseArgs } from '../../src/cli/args';
import { conformanceContext, conformanceEra } from '../../src/cli/conformance';
import { EVERYTHING_SERVER, REPO_ROOT } from './testSupport';

const run = promisify(execFile);
const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'modern', 'server.mjs');

async function info(stdio: string, extra: string[] = []): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [CLI, 'info', '--stdio', stdio, ...extra], { timeout: 30_000 });
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('CLI --era', () => {
  test('parses the three preferences and rejects anything else', () => {
    assert.equal(parseArgs(['info', '--era', '2026-07-28']).era, '2026-07-28');
    assert.equal(parseArgs(['info', '--era=legacy']).era, 'legacy');
    assert.throws(() => parseArgs(['info', '--era', '2025-11-25']), (error: unknown) => error instanceof UsageError && /--era must be auto, 2026-07-28, legacy/.test(error.message));
  });

  test('info names the era and revision: modern-only, dual-era by default (auto) and forced legacy, and a legacy server', async () => {
    const modern = await info(`"${process.execPath}" "${FIXTURE}" --transport stdio --legacy reject`, ['--era', '2026-07-28']);
    assert.equal(modern.era, '2026-07-28');
    assert.equal(modern.protocolVersion, '2026-07-28');
    const dual = await info(`"${process.execPath}" "${FIXTURE}" --transport stdio --legacy serve`);
    assert.equal(dual.era, '2026-07-28');
    const forced = await info(`"${process.execPath}" "${FIXTURE}" --transport stdio --legacy serve`, ['--era', 'legacy']);
    assert.equal(forced.era, 'legacy');
    assert.equal(forced.protocolVersion, '2025-11-25');
    const everything = await info(`"${process.execPath}" "${EVERYTHING_SERVER}"`);
    assert.equal(everything.era, 'legacy');
  });
});

describe('conformance era and context', () => {
  test('the era follows the requested revision unless --era says otherwise', () => {
    assert.equal(conformanceEra(undefined, '2026-07-28'), '2026-07-28');
    assert.equal(conformanceEra(undefined, '2025-11-25'), 'legacy');
    assert.equal(conformanceEra(undefined, undefined), 'legacy');
    assert.equal(conformanceEra('auto', '2025-11-25'), 'auto');
  });

  test('MCP_CONFORMANCE_CONTEXT is parsed as an object, and garbage is a clear failure', () => {
    assert.equal(conformanceContext(undefined), undefined);
    assert.deepEqual(conformanceContext('{"name":"x","toolCalls":[]}'), { name: 'x', toolCalls: [] });
    assert.throws(() => conformanceContext('{nope'), /MCP_CONFORMANCE_CONTEXT is not valid JSON/);
    assert.throws(() => conformanceContext('[1]'), /not a JSON object/);
  });
});
