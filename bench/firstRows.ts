/**
 * Where the time between a start's consent and the first tool rows goes, without code-server (issue 42: first rows
 * of 5,000 tools under 1 s; bench/ui.ts measures the same window in the real VS Code). Runs the extension's
 * host-neutral path for a server with N tools (test/fixtures/many-tools) in this Node process, phase by phase:
 * spawn + connect, tools/list (every page), the apps filter of the tree's Tools group, the lint the badges come from
 * (src/workbench/lint, what features/lint/serverLint.ts runs), the first page of tool rows the tree builds, and the
 * tooltip of one row. Not part of `npm run bench`; nothing asserted.
 *
 *   node --import tsx bench/firstRows.ts [tools=5000] [--profile]
 *
 * --profile samples the whole run with the V8 profiler and prints the self time by source file and the top frames.
 */
import { Session } from 'node:inspector/promises';
import * as path from 'node:path';
import { McpClient } from '../src/protocol/client';
import { appsExtensionsFor } from '../src/protocol/extensions/apps';
import { enableSkills } from '../src/protocol/extensions/skills';
import { enableTasks } from '../src/protocol/extensions/tasks';
import { StdioTransport } from '../src/protocol/node/stdio';
import type { Tool } from '../src/protocol/types';
import { offeredTools } from '../src/workbench/apps/offeredTools';
import { lintServer, lintServerSteps } from '../src/workbench/lint/lintServer';
import { drainInSlices } from '../src/workbench/lint/slices';

const REPO_ROOT = path.resolve(__dirname, '..');
const MANY_TOOLS = path.join(REPO_ROOT, 'test', 'fixtures', 'many-tools', 'server.mjs');
const TOOLS = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 5000);
const PROFILE = process.argv.includes('--profile');
/** The tree's page of tool rows (src/extension/features/serversView/serversTreeNodes.ts). */
const TOOL_PAGE_SIZE = 500;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

async function phases(): Promise<[string, number][]> {
  const timed: [string, number][] = [];
  let mark = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timed.push([name, now - mark]);
    mark = now;
  };
  const transport = new StdioTransport({ command: process.execPath, args: [MANY_TOOLS, String(TOOLS)] });
  const client = new McpClient({
    serverName: 'many',
    transport,
    era: 'auto',
    extensions: [
      ...appsExtensionsFor(true),
      enableTasks('many', { receiver: { sampling: false, elicitation: false } }).extension,
      enableSkills(),
    ],
  });
  const session = await client.connect();
  lap('spawn + connect (era probe, handshake)');
  const tools: Tool[] = await client.listTools();
  lap(`tools/list (${tools.length} tools, every page)`);
  const shown = offeredTools(tools, true);
  lap('apps filter (the Tools group)');
  const rows = shown.slice(0, TOOL_PAGE_SIZE).map((tool) => ({ kind: 'tool' as const, tool }));
  lap(`first page of row nodes (${rows.length})`);
  const report = lintServer({ serverName: 'many', protocolVersion: session.protocolVersion, tools });
  lap(`lint (${report.findings.length} findings)`);
  const byTarget = new Map<string, unknown[]>();
  for (const finding of report.findings)
    byTarget.set(finding.target, [...(byTarget.get(finding.target) ?? []), finding]);
  JSON.stringify([report.findings.filter((f) => f.target.startsWith('tool:')), report.context]);
  lap('lint indexes (by tool, the rows signature)');
  // What the extension now runs (features/lint/serverLint.ts): the same lint in slices, the host free in between.
  let longest = 0;
  let slices = 0;
  let sliceStart = performance.now();
  const sliced = await drainInSlices(
    lintServerSteps({ serverName: 'many', protocolVersion: session.protocolVersion, tools }),
    {
      now: () => {
        const now = performance.now();
        longest = Math.max(longest, now - sliceStart);
        return now;
      },
      cancelled: () => {
        slices++;
        sliceStart = performance.now();
        return false;
      },
    },
  );
  lap(
    `lint in slices (${sliced?.findings.length} findings, ${slices + 1} slices, the longest ${longest.toFixed(1)} ms)`,
  );
  await client.close();
  lap('close');
  return timed;
}

function bySelfTime(profile: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] }): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const files = new Map<string, number>();
  const frames = new Map<string, number>();
  (profile.samples ?? []).forEach((id, index) => {
    const node = byId.get(id);
    if (!node) return;
    const ms = (profile.timeDeltas?.[index] ?? 0) / 1000;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url ? path.relative(REPO_ROOT, url.replace(/^file:\/\//, '')) : `(${functionName || 'native'})`;
    files.set(file, (files.get(file) ?? 0) + ms);
    const frame = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    frames.set(frame, (frames.get(frame) ?? 0) + ms);
  });
  const top = (map: Map<string, number>, count: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([key, ms]) => `  ${ms.toFixed(1).padStart(8)} ms  ${key}`);
  console.log('self time by file:');
  console.log(top(files, 15).join('\n'));
  console.log('top frames:');
  console.log(top(frames, 20).join('\n'));
}

async function main(): Promise<void> {
  const session = PROFILE ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
  }
  const timed = await phases();
  console.log(`| phase (${TOOLS} tools) | ms |`);
  console.log('|---|---|');
  for (const [name, ms] of timed) console.log(`| ${name} | ${ms.toFixed(1)} |`);
  if (session) {
    const { profile } = (await session.post('Profiler.stop')) as { profile: Parameters<typeof bySelfTime>[0] };
    session.disconnect();
    bySelfTime(profile);
  }
}

void main();
