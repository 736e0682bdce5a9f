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
import {
  installVsix,
  openWorkbench,
  prepareCodeServer,
  REPO_ROOT,
  startCodeServer,
  vscodeVersion,
  waitUntil,
} from '../test/e2e/harness';
import { ownLogLines } from './uiActivation';

const PROBE = path.join(REPO_ROOT, 'bench', 'fixtures', 'activation-marks');
const MARKS = /code load (\d+) ms; activate (\d+) ms; total (\d+) ms/;
const MANY_TOOLS_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'many-tools', 'server.mjs');

interface Marks {
  codeLoadMs: number;
  activateMs: number;
  totalMs: number;
}

async function oneWindow(vsix: string, probe: string): Promise<Marks> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-bench-marks-'));
  const workspace = path.join(tmp, 'workspace');
  const extensionsDir = path.join(tmp, 'extensions');
  const userDataDir = path.join(tmp, 'user-data');
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  fs.writeFileSync(
    path.join(workspace, '.vscode', 'mcp.json'),
    JSON.stringify({ servers: { many: { type: 'stdio', command: process.execPath, args: [MANY_TOOLS_SERVER] } } }),
  );
  try {
    await installVsix(vsix, extensionsDir, userDataDir);
    await installVsix(probe, extensionsDir, userDataDir);
    const server = await startCodeServer({ workspace, extensionsDir, userDataDir });
    try {
      const workbench = await openWorkbench(server.url, workspace);
      try {
        const match = await waitUntil(
          'the probe\'s "Marks of" log line',
          () =>
            ownLogLines(userDataDir, 'Activation Marks')
              .map((line) => MARKS.exec(line))
              .find(Boolean) ?? undefined,
          60_000,
        );
        return { codeLoadMs: Number(match[1]), activateMs: Number(match[2]), totalMs: Number(match[3]) };
      } finally {
        await workbench.close();
      }
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
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
      `\nActivation by VS Code's marks, ${each} windows each, alternated (code-server ${vscodeVersion().codeServer}):\n`,
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
