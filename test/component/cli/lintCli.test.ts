/**
 * `mcp-workbench lint` on real servers: the fixture that breaks every rule (test/fixtures/lint/broken-server.mjs)
 * and server-everything; the JSON contract, the exit codes of --fail-on, --call's checks of a result, and the
 * findings MCP Inspector 2.12.0's --strict reports on the same fixture (docs/lint-rules.md), each found at its path.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { LINT_RULES, type LintRuleId } from '../../../src/workbench/lint/rules';
import { EVERYTHING_SERVER, REPO_ROOT, startEverythingHttp } from '../../support/testSupport';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const BROKEN = `"${process.execPath}" "${path.join(REPO_ROOT, 'test', 'fixtures', 'lint', 'broken-server.mjs')}"`;
const EVERYTHING = `"${process.execPath}" "${EVERYTHING_SERVER}"`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

interface Finding {
  severity: string;
  rule: LintRuleId;
  target: string;
  path: string;
  message: string;
  fix?: string;
}

async function lintJson(args: string[], env?: Record<string, string>): Promise<{ run: Run; findings: Finding[] }> {
  const result = await run(['lint', '--json', ...args], env);
  const parsed = JSON.parse(result.stdout) as { findings: Finding[] };
  return { run: result, findings: parsed.findings };
}

/** Rules one server cannot break alone (names colliding with another server's) or that need a --call. */
const NOT_FROM_A_LISTING: LintRuleId[] = [
  'client/name-collision',
  'mcp/structured-content-invalid',
  'mcp/structured-content-missing',
  'mcp/structured-content-text',
];

describe('mcp-workbench lint', () => {
  test('the broken fixture breaks every rule a listing can show, in the JSON contract, and exits 1', async () => {
    const { run: result, findings } = await lintJson(['--stdio', BROKEN]);
    assert.equal(result.code, 1, result.stderr);
    const found = new Set(findings.map((finding) => finding.rule));
    for (const rule of LINT_RULES.keys())
      if (!NOT_FROM_A_LISTING.includes(rule)) assert.ok(found.has(rule), `no ${rule} finding`);
    for (const finding of findings) {
      assert.deepEqual(
        Object.keys(finding).filter((key) => key !== 'fix'),
        ['severity', 'rule', 'target', 'path', 'message'],
      );
      assert.ok(['error', 'warning', 'info'].includes(finding.severity));
    }
    const severities = findings.map((finding) => finding.severity);
    assert.deepEqual(
      severities,
      [...severities].sort((a, b) => ['error', 'warning', 'info'].indexOf(a) - ['error', 'warning', 'info'].indexOf(b)),
    );
  });

  test('finds everything MCP Inspector 2.12.0 --strict finds on the same fixture, at the same paths', async () => {
    // Its findings, recorded from `inspector --cli … --method tools/list --strict` (docs/lint-rules.md).
    const inspector = [
      ['schema/type-array', 'inputSchema.properties.nullable', 'warning'],
      ['schema/remote-ref', 'inputSchema.properties.remote', 'warning'],
      ['schema/boolean-schema', 'inputSchema.properties.anything', 'error'],
      ['schema/untyped-schema', 'inputSchema.properties.untyped', 'warning'],
    ];
    const { findings } = await lintJson(['--stdio', BROKEN], { LINT_FIXTURE: 'sdk' });
    for (const [rule, at, severity] of inspector)
      assert.ok(
        findings.some(
          (f) => f.rule === rule && f.path === at && f.target === 'tool:portability' && f.severity === severity,
        ),
        `${rule} at ${at}`,
      );
  });

  test('--call checks a result: structuredContent against outputSchema and its text mirror, or its absence', async () => {
    const invalid = await lintJson(['--stdio', BROKEN, '--call', 'structured']);
    const rules = invalid.findings.filter((f) => f.target === 'tool:structured').map((f) => f.rule);
    assert.ok(rules.includes('mcp/structured-content-invalid'));
    assert.ok(rules.includes('mcp/structured-content-text'));
    const missing = await lintJson(['--stdio', BROKEN, '--call=missing_structured', '--args', '{}']);
    assert.ok(missing.findings.some((f) => f.rule === 'mcp/structured-content-missing'));
  });

  test('tool names are a note, not a warning, for a server on a revision before 2025-11-25', async () => {
    const { findings } = await lintJson(['--stdio', BROKEN], { LINT_FIXTURE_VERSION: '2025-06-18' });
    const names = findings.filter((f) => f.rule === 'mcp/tool-name');
    assert.ok(names.length > 0 && names.every((f) => f.severity === 'info'));
  });

  test('server-everything: no error, exit 0; --fail-on warning exits 1 on its warnings; the readable form', async () => {
    const { run: clean, findings } = await lintJson(['--stdio', EVERYTHING]);
    assert.equal(clean.code, 0, clean.stderr);
    assert.ok(!findings.some((f) => f.severity === 'error'));
    assert.ok(findings.some((f) => f.rule === 'context/list-tokens'));
    const strict = await run(['lint', '--fail-on', 'warning', '--stdio', EVERYTHING]);
    assert.equal(strict.code, 1);
    assert.match(strict.stdout, /0 errors, \d+ warnings, 1 notes; about \d+ tokens for \d+ tools/);
  });

  test('--config --server and --url find what --stdio finds on the same server', async () => {
    const key = (f: Finding) => `${f.severity} ${f.rule} ${f.target} ${f.path}`;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-lint-test-'));
    const config = path.join(dir, 'mcp.json');
    const fixture = path.join(REPO_ROOT, 'test', 'fixtures', 'lint', 'broken-server.mjs');
    fs.writeFileSync(config, JSON.stringify({ servers: { broken: { command: process.execPath, args: [fixture] } } }));
    const everything = await startEverythingHttp();
    try {
      const [byStdio, byConfig, everythingStdio, byUrl] = await Promise.all([
        lintJson(['--stdio', BROKEN]),
        lintJson(['--config', config, '--server', 'broken']),
        lintJson(['--stdio', `${EVERYTHING} stdio`]),
        lintJson(['--url', everything.url]),
      ]);
      assert.equal(byConfig.run.code, 1, byConfig.run.stderr);
      assert.ok(byConfig.findings.some((f) => f.rule === 'schema/boolean-schema'));
      assert.deepEqual(byConfig.findings.map(key), byStdio.findings.map(key));
      assert.equal(byUrl.run.code, 0, byUrl.run.stderr);
      assert.deepEqual(byUrl.findings.map(key).sort(), everythingStdio.findings.map(key).sort());
    } finally {
      everything.server.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('usage errors exit 2 before any server starts', async () => {
    for (const args of [
      ['lint', '--fail-on', 'info', '--stdio', BROKEN],
      ['lint', '--args', '{}', '--stdio', BROKEN],
      ['lint', '--call', 't', '--args', '[1]', '--stdio', BROKEN],
      ['lint', 'extra', '--stdio', BROKEN],
      ['lint'],
    ]) {
      const result = await run(args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    }
  });
});
