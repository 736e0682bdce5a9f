/**
 * `npm run bench`: this client (McpClient) beside @modelcontextprotocol/sdk 1.32.2, @modelcontextprotocol/client
 * 2.4.0 and a raw newline-JSON loop, in one run, in a way that cannot flatter any column:
 *   - every column is a process of its own (bench/worker.ts), so no column's garbage is collected on another's time;
 *   - the column order rotates with every repetition (and workload), so no column always runs after the same one;
 *   - cold rows: each sample from a fresh process and server; warm rows: after BENCH_WARMUP (20,000) calls;
 *   - two fixture servers: the SDK-based bench/fixtures/server.mjs and the hand-written
 *     test/fixtures/bench/raw-server.mjs, whose own cost per message does not hide the client's;
 *   - every time is shown with its range, every ratio paired by repetition with its range.
 * Sections (BENCH_SECTIONS): handshake (stdio, both servers, and the 50 MiB read), http-handshake (the handshake
 * era, 2025-11-25, over Streamable HTTP against both SDKs), modern (2026-07-28 over stdio and Streamable HTTP
 * against the v2 SDK), cli-memory (peak RSS of `read` of 50 MiB beside an SDK-based CLI), gateway (the SDK 1.x client
 * through `mcp-workbench gateway` beside the same client direct, and 50 clients × 1,000 calls: bench/gateway.ts), load
 * (not by default: `mcp-workbench load`'s generator beside a raw loop on the raw fixture, bench/load.ts).
 * Sizes and repetitions: bench/config.ts.
 */
import * as path from 'node:path';
import type { ServerCommand } from './clients';
import { cliMemorySection } from './cliMemory';
import { loadSection } from './load';
import { buildBundles } from './bundle';
import { gatewaySection } from './gateway';
import { COLD_REPS, OWN_SESSION, REPS, SECTIONS, WARMUP_CALLS } from './config';
import { measureSection } from './measure';
import { printCpuTable, printTimesTable, type RatioColumn } from './tables';
import type { ClientKind } from './worker';
import type { WorkloadId } from './workloads';

const REPO_ROOT = path.resolve(__dirname, '..');
const SDK_SERVER: ServerCommand = { script: path.join(__dirname, 'fixtures', 'server.mjs') };
const RAW_SERVER: ServerCommand = { script: path.join(REPO_ROOT, 'test', 'fixtures', 'bench', 'raw-server.mjs') };
const MODERN_SERVER: ServerCommand = { script: path.join(__dirname, 'fixtures', 'modern-server.mjs') };
const HANDSHAKE_HTTP_SERVER: ServerCommand = { script: path.join(__dirname, 'fixtures', 'handshake-http-server.mjs') };

const SMALL_WORKLOADS: readonly WorkloadId[] = ['sequential', 'concurrent', 'concurrentLarge'];
/** Wall-time ratios, for reference (issue 42 retired issue 24's wall targets; the CPU table carries the targets). */
const HANDSHAKE_RATIOS: readonly RatioColumn[] = [
  { label: 'ours/SDK 1.x', ours: 'ours', reference: 'sdk' },
  { label: 'ours/SDK 2.x', ours: 'ours', reference: 'sdkV2' },
  { label: 'ours/raw', ours: 'ours', reference: 'raw' },
];

async function handshakeSection(worker: string): Promise<void> {
  const columns: ClientKind[] = ['ours', ...(OWN_SESSION ? ['oursOwnSession' as const] : []), 'sdk', 'sdkV2', 'raw'];
  const servers = [
    {
      title: 'SDK fixture',
      server: SDK_SERVER,
      description: 'bench/fixtures/server.mjs (SDK 1.32.2 McpServer over stdio)',
    },
    {
      title: 'raw fixture',
      server: RAW_SERVER,
      description: 'test/fixtures/bench/raw-server.mjs (hand-written newline JSON, no SDK)',
    },
  ];
  for (const [index, { title, server, description }] of servers.entries()) {
    // The 50 MiB read once, against the SDK fixture as before; the default SDK clients refuse it (10 MiB buffers).
    const bigRead =
      index === 0
        ? { columns: ['ours', 'sdk', 'sdkRaised', 'sdkV2', 'raw'] as ClientKind[], once: ['sdkRaised'] as ClientKind[] }
        : undefined;
    const results = await measureSection(
      worker,
      { server, columns, workloads: SMALL_WORKLOADS, bigRead },
      `handshake, ${title}`,
    );
    console.log('');
    console.log(`Handshake era over stdio, server ${description}; one process per column`);
    console.log('');
    printTimesTable(results, SMALL_WORKLOADS, columns, [
      ...HANDSHAKE_RATIOS,
      ...(OWN_SESSION
        ? [{ label: 'own session/ours', ours: 'oursOwnSession' as const, reference: 'ours' as const }]
        : []),
    ]);
    console.log('');
    printCpuTable(results, SMALL_WORKLOADS, [{ label: 'stdio', ours: 'ours', raw: 'raw', sdk: 'sdk', sdkV2: 'sdkV2' }]);
    if (bigRead) {
      console.log('');
      printTimesTable(results, ['readBig'], bigRead.columns, [
        { label: 'ours/SDK 1.x raised', ours: 'ours', reference: 'sdkRaised' },
        { label: 'ours/raw', ours: 'ours', reference: 'raw' },
      ]);
      console.log(
        `  The default SDK clients refuse a message over 10 MiB. The raised-buffer SDK reads it once (30 s or more for 50 MiB: its read buffer is concatenated and searched again for every chunk); its ratio pairs it with the first repetition of ours.`,
      );
    }
  }
}

async function httpHandshakeSection(worker: string): Promise<void> {
  const workloads: readonly WorkloadId[] = ['sequential', 'concurrent'];
  const columns: ClientKind[] = ['oursHandshakeHttp', 'rawHandshakeHttp', 'sdkHandshakeHttp', 'sdkV2HandshakeHttp'];
  const results = await measureSection(worker, { server: HANDSHAKE_HTTP_SERVER, columns, workloads }, 'http-handshake');
  console.log('');
  console.log(
    'Handshake era (2025-11-25) over Streamable HTTP: bench/fixtures/handshake-http-server.mjs (SDK 1.32.2 McpServer, stateful sessions, SSE responses); ' +
      'ours pinned to the handshake era with the host fetch, the raw loop on node:http (bench/rawClients.ts), SDK 2.4.0 with legacy negotiation; one process per column, each with its own server',
  );
  console.log('');
  printTimesTable(results, workloads, columns, [
    { label: 'ours/raw, HTTP', ours: 'oursHandshakeHttp', reference: 'rawHandshakeHttp' },
    { label: 'ours/SDK 1.x, HTTP', ours: 'oursHandshakeHttp', reference: 'sdkHandshakeHttp' },
    { label: 'ours/SDK 2.x, HTTP', ours: 'oursHandshakeHttp', reference: 'sdkV2HandshakeHttp' },
  ]);
  console.log('');
  printCpuTable(results, workloads, [
    {
      label: 'Streamable HTTP',
      ours: 'oursHandshakeHttp',
      raw: 'rawHandshakeHttp',
      sdk: 'sdkHandshakeHttp',
      sdkV2: 'sdkV2HandshakeHttp',
    },
  ]);
}

async function modernSection(worker: string): Promise<void> {
  const workloads: readonly WorkloadId[] = ['sequential', 'concurrent'];
  const columns: ClientKind[] = [
    'oursModernStdio',
    'rawModernStdio',
    'sdkV2ModernStdio',
    'oursModernHttp',
    'rawModernHttp',
    'sdkV2ModernHttp',
  ];
  const results = await measureSection(worker, { server: MODERN_SERVER, columns, workloads }, 'modern');
  console.log('');
  console.log(
    "2026-07-28 era: bench/fixtures/modern-server.mjs (v2 SDK McpServer, legacy rejected), the clients pinned to 2026-07-28, the raw loops sending the era's _meta (and headers over HTTP); one process per column",
  );
  console.log('');
  printTimesTable(results, workloads, columns, [
    { label: 'ours/raw, stdio', ours: 'oursModernStdio', reference: 'rawModernStdio' },
    { label: 'ours/SDK 2.x, stdio', ours: 'oursModernStdio', reference: 'sdkV2ModernStdio' },
    { label: 'ours/raw, HTTP', ours: 'oursModernHttp', reference: 'rawModernHttp' },
    { label: 'ours/SDK 2.x, HTTP', ours: 'oursModernHttp', reference: 'sdkV2ModernHttp' },
  ]);
  console.log('');
  printCpuTable(results, workloads, [
    { label: 'stdio', ours: 'oursModernStdio', raw: 'rawModernStdio', sdkV2: 'sdkV2ModernStdio' },
    { label: 'Streamable HTTP', ours: 'oursModernHttp', raw: 'rawModernHttp', sdkV2: 'sdkV2ModernHttp' },
  ]);
}

async function main(): Promise<void> {
  const started = performance.now();
  console.log(
    `node ${process.version}; warm: ${REPS} repetitions after ${WARMUP_CALLS} calls, cold: ${COLD_REPS} repetitions (fresh process each); columns rotated per repetition; lower is better`,
  );
  const bundles = buildBundles();
  try {
    if (SECTIONS.includes('handshake')) await handshakeSection(bundles.worker);
    if (SECTIONS.includes('http-handshake')) await httpHandshakeSection(bundles.worker);
    if (SECTIONS.includes('modern')) await modernSection(bundles.worker);
    if (SECTIONS.includes('cli-memory')) await cliMemorySection(bundles.sdkCli);
    if (SECTIONS.includes('load')) await loadSection();
    if (SECTIONS.includes('gateway')) await gatewaySection();
  } finally {
    bundles.dispose();
  }
  console.log('');
  console.log(`bench took ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
