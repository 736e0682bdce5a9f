/**
 * Profiles a workload in this process with the V8 sampling profiler and says where a call's CPU goes, for
 * bench/profileStdio.ts and bench/profileHttp.ts (not part of `npm run bench`): the top frames by self time, and the
 * self time bucketed by what it is spent on (issue 42: JSON, validation, deadlines, promises, the era, bookkeeping,
 * framing), in µs per call. The profiler slows everything it samples, so a bucket's µs are its share of the sampled
 * busy time times the CPU per call measured around the same run (process.cpuUsage).
 *
 * This client runs bundled (bench/bundle.ts, unminified): esbuild writes `// src/<path>.ts` before each module, so a
 * frame's line in the bundle names its source file, and the file (with, for the transport's two hot functions, the
 * function) names its bucket. JSON.parse and JSON.stringify are builtins without frames of their own: their time is
 * the self time of the function that calls them, which is why stdio's `onLine` and `send` count as JSON.
 */
import * as fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

export const BUCKETS = [
  'JSON parse/serialize',
  'validation',
  'deadlines/timers',
  'promises/async',
  'era strategy',
  'bookkeeping (maps, ids, events, errors)',
  'transport framing (ours)',
  'Node streams, sockets, syscalls',
  'garbage collection',
  'bench driver (the workload loop)',
  'other',
] as const;
export type Bucket = (typeof BUCKETS)[number];

/** Where a source file of this client (as esbuild names it in the bundle) goes. */
function bucketOfSource(source: string, functionName: string): Bucket {
  if (/src\/protocol\/node\/stdio\.ts$/.test(source) && (functionName === 'onLine' || functionName === 'send'))
    return 'JSON parse/serialize';
  // The HTTP transport's `deliver` is its JSON.parse of a response (its `post` stringifies too, with the rest of a POST).
  if (/src\/protocol\/transports\/streamableHttp\.ts$/.test(source) && functionName === 'deliver')
    return 'JSON parse/serialize';
  if (/src\/protocol\/jsonrpc\/(deadlines|personWaits)\.ts$/.test(source)) return 'deadlines/timers';
  if (/src\/protocol\/eras\//.test(source)) return 'era strategy';
  if (/src\/protocol\/(validation\/|toolResultCheck\.ts|guards\.ts|jsonrpc\/messages\.ts)/.test(source))
    return 'validation';
  if (/src\/protocol\/(node\/|transports\/)|src\/workbench\/node\/httpFetchChoice/.test(source))
    return 'transport framing (ours)';
  if (/src\/protocol\/|vscode-jsonrpc/.test(source)) return 'bookkeeping (maps, ids, events, errors)';
  return 'other';
}

/** Line → source file of a bundle, from esbuild's `// <path>` module comments. */
function sourceMapOf(file: string): (line: number) => string {
  const starts: { line: number; source: string }[] = [];
  fs.readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, index) => {
      const match = /^\/\/ (\S+\.(?:ts|js|mjs|cjs))$/.exec(text);
      if (match) starts.push({ line: index, source: match[1] });
    });
  return (line) => {
    let found = '(bundle prelude)';
    for (const start of starts) {
      if (start.line > line) break;
      found = start.source;
    }
    return found;
  };
}

/** Whether a profile's frame URL (a file: URL in CPU profiles, a plain path in heap profiles) names `file`. */
function isFileOf(url: string, file: string): boolean {
  if (!url) return false;
  return path.resolve(url.startsWith('file:') ? fileURLToPath(url) : url) === path.resolve(file);
}

const PROMISE_NATIVES = new Set(['runMicrotasks', 'processTicksAndRejections', 'processPromiseRejections']);

function bucketOf(
  frame: ProfileNode['callFrame'],
  sources: (url: string) => ((line: number) => string) | undefined,
): Bucket | undefined {
  const { functionName, url, lineNumber } = frame;
  if (functionName === '(idle)' || functionName === '(program)') return undefined;
  if (functionName === 'dispatch' && !url) return undefined; // the inspector answering Profiler.stop
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (PROMISE_NATIVES.has(functionName) || /^node:internal\/process\/(task_queues|promises)/.test(url))
    return 'promises/async';
  const lines = url ? sources(url) : undefined;
  if (lines) return bucketOfSource(lines(lineNumber), functionName);
  if (/bench\/[^/]+\.ts$/.test(url)) return 'bench driver (the workload loop)';
  if (!url || url.startsWith('node:')) return 'Node streams, sockets, syscalls';
  return 'other';
}

export interface ProfiledRun {
  calls: number;
  cpuMs: number;
  wallMs: number;
  /** µs of CPU per call by bucket. */
  perCall: Map<Bucket, number>;
  top: string[];
}

/** Buckets a profile: each bucket's share of the busy samples times the measured CPU per call. */
export function bucketProfile(
  profile: Profile,
  calls: number,
  cpuMs: number,
  bundle?: string,
): Omit<ProfiledRun, 'wallMs'> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const bundleLines = bundle ? sourceMapOf(bundle) : undefined;
  const sources = (url: string) => (bundle && bundleLines && isFileOf(url, bundle) ? bundleLines : undefined);

  const sampled = new Map<Bucket, number>();
  const frames = new Map<string, number>();
  let busy = 0;
  (profile.samples ?? []).forEach((id, index) => {
    const node = byId.get(id);
    if (!node) return;
    const bucket = bucketOf(node.callFrame, sources);
    if (bucket === undefined) return;
    const ms = (profile.timeDeltas?.[index] ?? 0) / 1000;
    busy += ms;
    sampled.set(bucket, (sampled.get(bucket) ?? 0) + ms);
    const { functionName, url, lineNumber } = node.callFrame;
    const where = sources(url)
      ? (sources(url) as (line: number) => string)(lineNumber)
      : url
        ? path.basename(url)
        : '(native)';
    const key = `${functionName || '(anonymous)'} ${where}  [${bucket}]`;
    frames.set(key, (frames.get(key) ?? 0) + ms);
  });
  const usPerBusyMs = busy === 0 ? 0 : (cpuMs * 1000) / calls / busy;
  const perCall = new Map(BUCKETS.map((bucket) => [bucket, (sampled.get(bucket) ?? 0) * usPerBusyMs]));
  const top = [...frames]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 25)
    .map(([key, ms]) => `${(ms * usPerBusyMs).toFixed(2).padStart(7)} µs/call  ${key}`);
  return { calls, cpuMs, perCall, top };
}

/** Runs `run` (which makes `calls` calls) under the profiler; writes the raw profile to `out` when given. */
export async function profileRun(
  run: () => Promise<void>,
  calls: number,
  options: { out?: string; bundle?: string },
): Promise<ProfiledRun> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await run();
  const cpu = process.cpuUsage(cpuBefore);
  const wallMs = performance.now() - started;
  const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
  session.disconnect();
  if (options.out) fs.writeFileSync(options.out, JSON.stringify(profile));
  return { ...bucketProfile(profile, calls, (cpu.user + cpu.system) / 1000, options.bundle), wallMs };
}

export function printProfiledRun(title: string, run: ProfiledRun): void {
  console.log(
    `${title}: ${run.calls} calls, ${run.wallMs.toFixed(0)} ms wall, ${run.cpuMs.toFixed(0)} ms client CPU, ${((run.cpuMs * 1000) / run.calls).toFixed(2)} µs CPU per call`,
  );
  console.log('| bucket | µs/call |');
  console.log('|---|---|');
  for (const bucket of BUCKETS) console.log(`| ${bucket} | ${(run.perCall.get(bucket) ?? 0).toFixed(2)} |`);
  console.log('top frames by self time:');
  for (const line of run.top) console.log(`  ${line}`);
}

interface SampledAllocation {
  callFrame: ProfileNode['callFrame'];
  selfSize: number;
  children: SampledAllocation[];
}

/**
 * Bytes allocated per call by function (V8's sampling heap profiler, every 64 bytes on average, objects later
 * collected included): garbage is what the collector's share of a call's CPU comes from, and unlike time it does
 * not depend on the machine's load. Run with --no-turbo-inlining for a function's own allocations rather than
 * its inliner's.
 */
export async function allocationsPerCall(run: () => Promise<void>, calls: number, bundle?: string): Promise<string[]> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 64,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await run();
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: SampledAllocation } };
  session.disconnect();
  const lines = bundle ? sourceMapOf(bundle) : undefined;
  const bytes = new Map<string, number>();
  const walk = (node: SampledAllocation) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const ours = lines && bundle && isFileOf(url, bundle);
    const key = `${functionName || '(anonymous)'} ${ours ? lines(lineNumber) : url ? path.basename(url) : '(native)'}`;
    bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize);
    node.children.forEach(walk);
  };
  walk(profile.head);
  const total = [...bytes.values()].reduce((sum, value) => sum + value, 0);
  return [
    `allocated: ${(total / calls).toFixed(0)} bytes per call`,
    ...[...bytes]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(([key, value]) => `${(value / calls).toFixed(0).padStart(6)} B/call  ${key}`),
  ];
}
