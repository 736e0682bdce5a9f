/**
 * The CLI's protocol era: `--era` parsing, `info` naming the era and revision against the real v2 SDK
 * fixture (modern-only, dual-era) and a legacy server, and how `conformance` picks its era and reads the
 * scenario context.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { UsageError, parseArgs } from '../../../src/cli/args';
import { conformanceContext, conformanceEra } from '../../../src/cli/conformance';
import { eraChoiceReason, eraLabel } from '../../../src/protocol/eras/select';
import { eraPreferenceOf, parseMcpConfig } from '../../../src/workbench/config/mcpConfig';
import { EVERYTHING_SERVER, REPO_ROOT } from '../../support/testSupport';

const run = promisify(execFile);
const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'modern', 'server.mjs');

async function info(stdio: string, extra: string[] = []): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [CLI, 'info', '--stdio', stdio, ...extra], { timeout: 30_000 });
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('CLI --era', () => {
  test('parses the three preferences, the old era by its name "handshake" or its earlier name "legacy", and rejects anything else', () => {
    assert.equal(parseArgs(['info', '--era', '2026-07-28']).era, '2026-07-28');
    assert.equal(parseArgs(['info', '--era=legacy']).era, 'legacy');
    assert.equal(parseArgs(['info', '--era', 'handshake']).era, 'legacy');
    assert.throws(
      () => parseArgs(['info', '--era', '2025-11-25']),
      (error: unknown) =>
        error instanceof UsageError && /--era must be auto, 2026-07-28, handshake/.test(error.message),
    );
  });

  test('info names the era ("handshake" for the old one) and revision: modern-only, dual-era by default (auto) and forced to the handshake, and a handshake-only server', async () => {
    const modern = await info(`"${process.execPath}" "${FIXTURE}" --transport stdio --legacy reject`, [
      '--era',
      '2026-07-28',
    ]);
    assert.equal(modern.era, '2026-07-28');
    assert.equal(modern.protocolVersion, '2026-07-28');
    const dual = await info(`"${process.execPath}" "${FIXTURE}" --transport stdio --legacy serve`);
    assert.equal(dual.era, '2026-07-28');
    const forced = await info(`"${process.execPath}" "${FIXTURE}" --transport stdio --legacy serve`, [
      '--era',
      'handshake',
    ]);
    assert.equal(forced.era, 'handshake');
    assert.equal(forced.protocolVersion, '2025-11-25');
    const everything = await info(`"${process.execPath}" "${EVERYTHING_SERVER}"`);
    assert.equal(everything.era, 'handshake');
  });
});

describe('era preference in mcp.json', () => {
  test('"era" is read for stdio and http entries, absent means auto, and a wrong value is a problem naming the server', () => {
    const parsed = parseMcpConfig(`{
      "servers": {
        "modern": { "command": "node", "era": "2026-07-28" },
        "old": { "url": "http://localhost:1/mcp", "era": "legacy" },
        "plain": { "command": "node" },
        "bad": { "command": "node", "era": "2025-11-25" }
      }
    }`);
    const eras = Object.fromEntries(parsed.servers.map((server) => [server.name, eraPreferenceOf(server)]));
    assert.deepEqual(eras, { modern: '2026-07-28', old: 'legacy', plain: 'auto' });
    // `at` (where the entry is) is checked in test/unit/workbench/config/mcpConfigProblems.test.ts.
    assert.deepEqual(
      parsed.problems.map(({ server, message }) => ({ server, message })),
      [{ server: 'bad', message: '"era" must be "auto", "2026-07-28", "handshake", got "2025-11-25"' }],
    );
  });

  test('the CLI --config path uses the entry\'s "era", and --era overrides it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'mcp-era-'));
    try {
      const config = path.join(dir, 'mcp.json');
      const server = (era: string) => ({
        command: process.execPath,
        args: [FIXTURE, '--transport', 'stdio', '--legacy', 'serve'],
        era,
      });
      await writeFile(
        config,
        JSON.stringify({ servers: { pinnedLegacy: server('legacy'), pinnedModern: server('2026-07-28') } }),
      );
      const infoOf = async (name: string, extra: string[] = []) =>
        JSON.parse(
          (
            await run(process.execPath, [CLI, 'info', '--config', config, '--server', name, ...extra], {
              timeout: 30_000,
            })
          ).stdout,
        ) as Record<string, unknown>;
      assert.equal((await infoOf('pinnedLegacy')).era, 'handshake');
      assert.equal((await infoOf('pinnedModern')).era, '2026-07-28');
      assert.equal((await infoOf('pinnedLegacy', ['--era', '2026-07-28'])).era, '2026-07-28');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("the tooltip label and the log's reason name the era", () => {
    const base = { serverInfo: { name: 's', version: '1' }, capabilities: {} };
    const modern = {
      ...base,
      kind: 'modern' as const,
      protocolVersion: '2026-07-28',
      supportedVersions: ['2026-07-28'],
    };
    const handshake = { ...base, kind: 'handshake' as const, protocolVersion: '2025-11-25' };
    assert.equal(eraLabel(modern), '2026-07-28 (stateless)');
    assert.equal(eraLabel(handshake), '2025-11-25 (handshake)');
    assert.match(eraChoiceReason('auto', modern), /answered server\/discover/);
    assert.match(eraChoiceReason('auto', handshake), /initialize handshake/);
    assert.match(eraChoiceReason('legacy', handshake), /pinned to legacy/);
  });
});

describe('conformance era and context', () => {
  test('the era follows the requested revision unless --era says otherwise', () => {
    assert.equal(conformanceEra(undefined, '2026-07-28'), '2026-07-28');
    assert.equal(conformanceEra(undefined, '2025-11-25'), 'legacy');
    assert.equal(conformanceEra(undefined, undefined), 'legacy');
    assert.equal(conformanceEra('auto', '2025-11-25'), 'auto');
  });

  test('a scenario defined for one era (Events: 2026-07-28) speaks it whatever revision the suite names; --era still wins', () => {
    assert.equal(conformanceEra(undefined, '2025-11-25', '2026-07-28'), '2026-07-28');
    assert.equal(conformanceEra('legacy', '2025-11-25', '2026-07-28'), 'legacy');
  });

  test('MCP_CONFORMANCE_CONTEXT is parsed as an object, and garbage is a clear failure', () => {
    assert.equal(conformanceContext(undefined), undefined);
    assert.deepEqual(conformanceContext('{"name":"x","toolCalls":[]}'), { name: 'x', toolCalls: [] });
    assert.throws(() => conformanceContext('{nope'), /MCP_CONFORMANCE_CONTEXT is not valid JSON/);
    assert.throws(() => conformanceContext('[1]'), /not a JSON object/);
  });
});
