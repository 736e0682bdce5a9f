/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in scripts/conformance.sh)
 * drives `cli.js conformance` (src/cli bundled as esbuild.js bundles dist/cli.js) through each required
 * client scenario. The suite is installed outside the
 * repository and runs under Node 24 via npx; if it cannot be installed this test fails, it is never skipped.
 *
 * One run per spec revision in SPEC_RUNS, each with its own required scenarios and baseline. Which revisions run:
 * MCP_CONFORMANCE_SPEC_VERSIONS (comma-separated; scripts/test-conformance.sh sets it from `--spec-version`),
 * or every revision in the table. Run: npm run test:conformance [-- --spec-version 2025-11-25]
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildSync } from 'esbuild';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const SCRIPT = path.join(REPO_ROOT, 'scripts', 'conformance.sh');

/**
 * How a revision's whole set is run against its baseline: `--requirements <revision>` (the scenarios the revision
 * requires, frozen at its release), or, for a revision the suite has no requirements list for, every scenario the
 * suite tags with it (`--spec-version <revision> --suite all`).
 */
type WholeRun = { kind: 'requirements' } | { kind: 'tagged' };

interface SpecRun {
  /** The scenarios this client must pass one by one at this revision. */
  requiredScenarios: readonly string[];
  /**
   * Run the required scenarios with `--force`: they are not tagged with this revision, but their checks do not
   * depend on it (tools_call at 2025-03-26).
   */
  forceScenarios?: boolean;
  whole: WholeRun;
  /** Scenarios the whole run covers that must show as passed there (no single run of their own). */
  passInWholeRun?: readonly string[];
  /** Expected failures of the whole run, relative to the repository root. */
  baseline: string;
  /** Why the baseline lists what it lists (shown in the test title). */
  baselineReason: string;
}

/**
 * The spec revisions the client is checked against, one row each with its own scenarios and baseline file.
 * 2026-07-28 is spoken in the stateless era (the CLI's conformance command picks it from
 * MCP_CONFORMANCE_PROTOCOL_VERSION, which the suite sets from --spec-version and --requirements).
 * 2025-03-26: the suite tags only two OAuth scenarios with it, and its `initialize` check insists on 2025-11-25,
 * so tools_call (forced) is what this revision's handshake is checked with.
 */
/** The OAuth scenarios of --requirements 2025-11-25 (and again of 2026-07-28). */
const AUTH_2025_11_25 = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
];
/** Authorization scenarios new in 2026-07-28 (resource and issuer checks, offline access, AS migration). */
const AUTH_2026_07_28 = [
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/authorization-server-migration',
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
];
/** The authorization extensions; `--requirements 2026-07-28` runs them over the 2026-07-28 wire. */
const AUTH_EXTENSIONS = [
  'auth/client-credentials-basic',
  'auth/client-credentials-jwt',
  'auth/enterprise-managed-authorization',
  'auth/wif-jwt-bearer',
  'auth/dpop',
  'auth/dpop-nonce',
];

const SPEC_RUNS: Readonly<Record<string, SpecRun>> = {
  // The handshake era's newest revision: the core set and schema preservation one by one, OAuth in the whole run.
  '2025-11-25': {
    requiredScenarios: [
      'initialize',
      'tools_call',
      'elicitation-sep1034-client-defaults',
      'sse-retry',
      'json-schema-2020-12-preservation',
    ],
    whole: { kind: 'requirements' },
    passInWholeRun: AUTH_2025_11_25,
    baseline: 'test/conformance/baseline-2025-11-25.yml',
    baselineReason: 'none expected',
  },
  // The stateless era: its wire scenarios one by one; every OAuth and auth-extension scenario in the whole run.
  '2026-07-28': {
    requiredScenarios: [
      'tools_call',
      'request-metadata',
      'sep-2322-client-request-state',
      'http-standard-headers',
      'http-custom-headers',
      'http-invalid-tool-headers',
      'json-schema-ref-no-deref',
      'json-schema-2020-12-preservation',
    ],
    whole: { kind: 'requirements' },
    passInWholeRun: [...AUTH_2025_11_25, ...AUTH_2026_07_28, ...AUTH_EXTENSIONS],
    baseline: 'test/conformance/baseline-2026-07-28.yml',
    baselineReason: 'none expected',
  },
  // The oldest revision: tools_call forced over its handshake; its two OAuth back-compat scenarios in the tagged run.
  '2025-03-26': {
    requiredScenarios: ['tools_call'],
    forceScenarios: true,
    whole: { kind: 'tagged' },
    passInWholeRun: ['auth/2025-03-26-oauth-metadata-backcompat', 'auth/2025-03-26-oauth-endpoint-fallback'],
    baseline: 'test/conformance/baseline-2025-03-26.yml',
    baselineReason: 'none expected',
  },
};

function wholeRunArgs(version: string, whole: WholeRun): string[] {
  switch (whole.kind) {
    case 'requirements':
      return ['--requirements', version];
    case 'tagged':
      return ['--spec-version', version, '--suite', 'all'];
  }
}

/** The revisions to run: MCP_CONFORMANCE_SPEC_VERSIONS, or all of SPEC_RUNS. An unknown one fails loudly. */
function selectedSpecVersions(): string[] {
  const requested = (process.env.MCP_CONFORMANCE_SPEC_VERSIONS ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (requested.length === 0) return Object.keys(SPEC_RUNS);
  const unknown = requested.filter((version) => !(version in SPEC_RUNS));
  if (unknown.length > 0) {
    throw new Error(
      `conformance: no run defined for spec version ${unknown.join(', ')} (defined: ${Object.keys(SPEC_RUNS).join(', ')}); add a row to SPEC_RUNS in test/conformance/conformance.test.ts`,
    );
  }
  return requested;
}

/** One scenario takes a few seconds; the suite's own per-client limit is 30 s. */
const SCENARIO_TIMEOUT_MS = 90_000;
/**
 * The suite's per-client limit in a whole run, where every scenario's client runs at once: on a busy two-core
 * machine 39 parallel clients can take longer than the default 30 s, and the suite then closes the scenario's
 * server under a client that is still working (ECONNRESET), a failure of the machine and not of the client.
 */
const WHOLE_RUN_CLIENT_TIMEOUT_MS = 120_000;
/** A cold install (npm install of the suite plus node@24 into the npx cache). */
const INSTALL_TIMEOUT_MS = 10 * 60_000;

interface SuiteRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

const ANSI = /\x1b\[[0-9;]*m/g;

function runSuite(args: string[], timeoutMs = SCENARIO_TIMEOUT_MS): Promise<SuiteRun> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      [SCRIPT, ...args],
      { cwd: REPO_ROOT, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const output = `${stdout}${stderr}`.replace(ANSI, '');
        if (!error) return resolve({ code: 0, signal: null, output });
        const code = typeof error.code === 'number' ? error.code : null;
        resolve({ code, signal: error.signal ?? null, output: `${output}\n(runner: ${error.message})` });
      },
    );
  });
}

describe('official MCP conformance suite (client scenarios)', () => {
  let buildDir: string;
  let cli: string;

  before(() => {
    try {
      execFileSync('bash', [SCRIPT], {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: INSTALL_TIMEOUT_MS,
      });
    } catch (error) {
      const failure = error as { stderr?: Buffer; message: string };
      throw new Error(
        `scripts/conformance.sh could not install the conformance suite: ${failure.message}\n${failure.stderr?.toString() ?? ''}`,
      );
    }
    // The CLI bundle exactly as esbuild.js builds dist/cli.js, but into a private folder: rewriting dist/ here
    // would race with the other test files that run dist/cli.js concurrently.
    buildDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-conformance-cli-'));
    cli = path.join(buildDir, 'cli.js');
    buildSync({
      entryPoints: [path.join(REPO_ROOT, 'src', 'cli', 'bin.ts')],
      outfile: cli,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      sourcemap: true,
      mainFields: ['module', 'main'],
      logLevel: 'silent',
    });
    assert.ok(fs.existsSync(cli), 'the CLI bundle was built');
    // The suite runs `sh -c "<command> <url>"`, so the command must survive word splitting.
    for (const word of [process.execPath, cli])
      assert.doesNotMatch(word, /[\s'"$`\\]/, `this path must not need shell quoting: ${word}`);
  });

  after(() => {
    if (buildDir) fs.rmSync(buildDir, { recursive: true, force: true });
  });

  for (const version of selectedSpecVersions()) {
    const spec = SPEC_RUNS[version];
    describe(`spec ${version}`, () => {
      for (const scenario of spec.requiredScenarios) {
        test(scenario, { timeout: SCENARIO_TIMEOUT_MS + 10_000 }, async () => {
          const force = spec.forceScenarios ? ['--force'] : [];
          const run = await runSuite([
            'client',
            '--command',
            `${process.execPath} ${cli} conformance`,
            '--spec-version',
            version,
            ...force,
            '--scenario',
            scenario,
          ]);
          const report = `conformance suite output for ${scenario} (spec ${version}):\n${run.output}`;
          if (run.code !== 0 || !/OVERALL: PASSED/.test(run.output)) {
            // Print the suite's own log (wire INFO lines, failed checks) so CI shows why.
            process.stderr.write(`${report}\n`);
          }
          assert.equal(
            run.signal,
            null,
            `the suite was killed by ${run.signal} (timeout ${SCENARIO_TIMEOUT_MS} ms)\n${report}`,
          );
          assert.equal(run.code, 0, `the suite exited with ${run.code}\n${report}`);
          assert.match(run.output, /OVERALL: PASSED/, report);
          assert.doesNotMatch(run.output, /CLIENT EXITED WITH ERROR/, report);
        });
      }

      const wholeArgs = wholeRunArgs(version, spec.whole);
      test(
        `${wholeArgs.join(' ')}: scenarios fail only where ${spec.baseline} says (${spec.baselineReason})`,
        { timeout: 4 * SCENARIO_TIMEOUT_MS },
        async (t) => {
          const baseline = path.join(REPO_ROOT, spec.baseline);
          assert.ok(fs.existsSync(baseline), `the baseline ${spec.baseline} of spec ${version} is missing`);
          const run = await runSuite(
            [
              'client',
              '--command',
              `${process.execPath} ${cli} conformance`,
              ...wholeArgs,
              '--timeout',
              String(WHOLE_RUN_CLIENT_TIMEOUT_MS),
              '--expected-failures',
              baseline,
            ],
            3 * SCENARIO_TIMEOUT_MS,
          );
          const report = `conformance suite output for ${wholeArgs.join(' ')}:\n${run.output}`;
          if (run.code !== 0) process.stderr.write(`${report}\n`);
          t.diagnostic(`${wholeArgs.join(' ')}: ${checkTotals(run.output)}`);
          assert.equal(run.signal, null, `the suite was killed by ${run.signal}\n${report}`);
          assert.equal(
            run.code,
            0,
            `the suite exited with ${run.code}: a scenario outside the baseline failed, or a baseline entry passes now\n${report}`,
          );
          // Forced scenarios are not part of a tagged run; the others must show up as passed in it.
          const mustPass = [...(spec.forceScenarios ? [] : spec.requiredScenarios), ...(spec.passInWholeRun ?? [])];
          for (const scenario of mustPass)
            assert.match(run.output, new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`), report);
        },
      );
    });
  }
});

/**
 * Extension scenarios that are not on the spec timeline (the suite runs them only under --force), each at the wires it
 * is checked over: the skills scenarios (SEP-2640) over the handshake and over 2026-07-28. Their checks SKIP when the
 * client never lists skills, so a pass here must show every check run and passed, none skipped.
 */
const FORCED_EXTENSION_SCENARIOS: Readonly<Record<string, readonly string[]>> = {
  'sep-2640-client-no-prefetch': ['2025-11-25', '2026-07-28'],
  'sep-2640-client-verify-digest': ['2025-11-25', '2026-07-28'],
  'sep-2640-client-verify-size': ['2025-11-25', '2026-07-28'],
  'sep-2640-client-verify-frontmatter': ['2025-11-25', '2026-07-28'],
};

describe('official MCP conformance suite (extension scenarios, forced)', () => {
  let buildDir: string;
  let cli: string;

  before(() => {
    execFileSync('bash', [SCRIPT], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], timeout: INSTALL_TIMEOUT_MS });
    buildDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-conformance-cli-'));
    cli = path.join(buildDir, 'cli.js');
    buildSync({
      entryPoints: [path.join(REPO_ROOT, 'src', 'cli', 'bin.ts')],
      outfile: cli,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      mainFields: ['module', 'main'],
      logLevel: 'silent',
    });
  });

  after(() => {
    if (buildDir) fs.rmSync(buildDir, { recursive: true, force: true });
  });

  const selected = new Set(selectedSpecVersions());
  for (const [scenario, versions] of Object.entries(FORCED_EXTENSION_SCENARIOS)) {
    for (const version of versions.filter((v) => selected.has(v))) {
      test(
        `${scenario} (spec ${version}, forced): every check exercised and passed`,
        { timeout: SCENARIO_TIMEOUT_MS + 10_000 },
        async (t) => {
          const run = await runSuite([
            'client',
            '--command',
            `${process.execPath} ${cli} conformance`,
            '--spec-version',
            version,
            '--force',
            '--scenario',
            scenario,
          ]);
          const report = `conformance suite output for ${scenario} (spec ${version}, forced):\n${run.output}`;
          const totals = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(run.output);
          t.diagnostic(totals ? totals[0] : 'no totals');
          assert.equal(run.code, 0, `the suite exited with ${run.code}\n${report}`);
          assert.match(run.output, /OVERALL: PASSED/, report);
          assert.ok(
            totals && Number(totals[2]) > 0 && totals[1] === totals[2],
            `every check must run and pass (none skipped)\n${report}`,
          );
          assert.doesNotMatch(run.output, /SKIPPED/, report);
        },
      );
    }
  }
});

/** The suite's per-scenario lines ("✓ name: 12 passed, 0 failed") summed up, for the CI log and the closing notes. */
function checkTotals(output: string): string {
  let scenarios = 0;
  let passed = 0;
  let failed = 0;
  for (const match of output.matchAll(/[✓✗] \S+: (\d+) passed, (\d+) failed/g)) {
    scenarios++;
    passed += Number(match[1]);
    failed += Number(match[2]);
  }
  return `${scenarios} scenarios, ${passed} checks passed, ${failed} failed`;
}
