/** scripts/lib/progress.sh, which scripts/demo.sh uses to show that the long code-server preparation is still going. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../support/paths';

const root = repoRoot;

test('with_heartbeat prints "still working" while the command runs, keeps its stdout apart and returns its status', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-progress-'));
  try {
    const stderrFile = path.join(dir, 'stderr.txt');
    // The command itself waits for the first heartbeat (at most 20 s), so the test needs no timing assumption.
    const command = `for i in $(seq 400); do grep -q "still working" "${stderrFile}" && break; sleep 0.05; done; echo payload; exit 3`;
    const script = `. scripts/lib/progress.sh; exec 2>"${stderrFile}"; progress_step "demo 2/4" "Preparing"; out=$(with_heartbeat bash -c '${command}'); status=$?; echo "captured=$out status=$status"`;
    const result = spawnSync('bash', ['-c', script], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, PROGRESS_HEARTBEAT_SECONDS: '0.2' },
    });
    assert.equal(result.stdout.trim(), 'captured=payload status=3');
    const stderr = readFileSync(stderrFile, 'utf8');
    assert.match(stderr, /\[demo 2\/4\] Preparing/);
    assert.match(stderr, /… still working \(\d+s\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('scripts/demo.sh announces each step of the preparation', () => {
  const demo = readFileSync(path.join(root, 'scripts', 'demo.sh'), 'utf8');
  assert.match(demo, /with_heartbeat bash scripts\/prepare-code-server\.sh/);
  assert.equal(spawnSync('bash', ['-n', path.join(root, 'scripts', 'demo.sh')]).status, 0, 'demo.sh does not parse');
});
