/**
 * The README's command-line examples run as written from a fresh checkout (first-hour report 6.2: `info --config
 * .vscode/mcp.json` named a file the repository does not have, and the `--url` example did not say how to start its
 * server). Needs dist/cli.js (`npm run build`), like test/component/cli/cli.test.ts.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../../support/testSupport';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');

/** The lines of the README's bash block under "Using the command line". */
function commandLineExample(): string[] {
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Using the command line'));
  const block = /```bash\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, 'the README has a bash block under "Using the command line"');
  return block.split('\n').filter((line) => line.trim() !== '');
}

test('every --config file of the README example is in the repository, and every --url server is started first', () => {
  const lines = commandLineExample();
  const configs = lines.flatMap((line) => [...line.matchAll(/--config (\S+)/g)].map((match) => match[1]));
  assert.ok(configs.length > 0, 'the example shows --config');
  for (const file of configs)
    assert.ok(existsSync(path.join(REPO_ROOT, file)), `the README's --config ${file} is not in a checkout`);
  lines.forEach((line, index) => {
    const port = /--url http:\/\/(?:127\.0\.0\.1|localhost):(\d+)\//.exec(line)?.[1];
    if (port === undefined) return;
    const before = lines.slice(0, index);
    assert.ok(
      before.some((earlier) => earlier.includes(`PORT=${port} `) && earlier.includes('server-everything')),
      `nothing before "${line}" says how to start the server on port ${port}`,
    );
  });
});

test(
  "the README's info --config example runs from the checkout and reports the server",
  { timeout: 30_000 },
  async () => {
    const line = commandLineExample().find((candidate) => candidate.startsWith('node dist/cli.js info --config'));
    assert.ok(line, 'the example has an info --config line');
    const args = line.split(' ').slice(2);
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [CLI, ...args],
        { cwd: REPO_ROOT, timeout: 25_000, killSignal: 'SIGKILL' },
        (error, out, err) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout: out, stderr: err }),
      );
    });
    assert.equal(code, 0, `${line} → ${code}; stderr:\n${stderr}`);
    const info = JSON.parse(stdout) as { serverInfo?: { name?: unknown } };
    assert.match(String(info.serverInfo?.name), /everything/);
  },
);
