/**
 * Two builds' activation by VS Code's own marks, alternated window by window:
 * `node --import tsx bench/uiActivationMarks.ts <a.vsix> <b.vsix> [windows each, default 5]`. Not part of
 * `npm run bench:ui` (bench/uiActivation.ts is); for comparing one build with another, e.g. a commit's VSIX with
 * today's, whatever each logs of itself (a build before d8455c9 timed its code load from inside the bundle, which
 * leaves out reading and compiling it).
 *
 * Each window is a code-server of its own with the build and a probe extension (bench/fixtures/activation-marks) that
 * reads, once the window has started, the marks VS Code's extension host sets around MCP Workbench's activation:
 * code load (willLoadExtensionCode → didLoadExtensionCode: reading, compiling and evaluating its main and what that
 * loads at once) and activate (willActivateExtension → didActivateExtension: its activate() call), and their sum (VS
 * Code does other work of its own between the two).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { prepareCodeServer, REPO_ROOT, vscodeVersion } from '../test/e2e/harness';
import { windowLogLine } from './uiActivation';

const PROBE = path.join(REPO_ROOT, 'bench', 'fixtures', 'activation-marks');
/** BENCH_WARM=1: each build's second window over the same folders (a person's every window after the first). */
const WARM = process.env.BENCH_WARM === '1';
const MARKS = /code load (\d+) ms; activate (\d+) ms; total (\d+) ms/;

interface Marks {
  codeLoadMs: number;
  activateMs: number;
  totalMs: number;
}

async function oneWindow(vsix: string, probe: string): Promise<Marks> {
  const match = await windowLogLine('the probe\'s "Marks of" log line', [vsix, probe], 'Activation Marks', MARKS, {
    warm: WARM,
  });
  return { codeLoadMs: Number(match[1]), activateMs: Number(match[2]), totalMs: Number(match[3]) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function main(): Promise<void> {
  const [first, second, each = '5'] = process.argv.slice(2);
  if (!first || !second) throw new Error('usage: uiActivationMarks.ts <a.vsix> <b.vsix> [windows each]');
  await prepareCodeServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-bench-probe-'));
  try {
    const probe = path.join(dir, 'activation-marks.vsix');
    execFileSync(
      path.join(REPO_ROOT, 'node_modules', '.bin', 'vsce'),
      ['package', '--no-dependencies', '--out', probe],
      {
        cwd: PROBE,
        stdio: 'ignore',
      },
    );
    const results = new Map<string, Marks[]>([
      [first, []],
      [second, []],
    ]);
    for (let index = 0; index < Number(each); index++)
      for (const vsix of [first, second]) results.get(vsix)?.push(await oneWindow(vsix, probe));
    console.log(
      `\nActivation by VS Code's marks, ${each} ${WARM ? 'warm (second) ' : ''}windows each, alternated (code-server ${vscodeVersion().codeServer}):\n`,
    );
    console.log('| build | VSIX bytes | code load, median | activate, median | total, median | totals |');
    console.log('| --- | ---: | ---: | ---: | ---: | --- |');
    for (const [vsix, all] of results)
      console.log(
        `| ${path.basename(vsix)} | ${fs.statSync(vsix).size} | ${median(all.map((m) => m.codeLoadMs))} ms | ` +
          `${median(all.map((m) => m.activateMs))} ms | ${median(all.map((m) => m.totalMs))} ms | ` +
          `${all.map((m) => m.totalMs).join(', ')} |`,
      );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
