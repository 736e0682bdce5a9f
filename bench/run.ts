/**
 * `npm run bench`: this client (McpClient + StdioTransport) against the official SDK client and a raw
 * newline-JSON loop, on the same machine and the same fixture server, in one run.
 *
 * Workloads (each repeated BENCH_REPS times, default 5; the table shows medians):
 *   - BENCH_CALLS (default 2000) sequential `tools/call echo`
 *   - BENCH_CALLS concurrent `tools/call echo`
 *   - BENCH_CONCURRENT_LARGE (default 10000) concurrent `tools/call echo`
 *   - one `resources/read bench://big` of BENCH_BIG_BYTES (default 50 MiB) of text
 * Repetitions are interleaved across clients so machine noise hits every column alike. A client that fails a
 * workload is reported with its error in that cell and skipped for the remaining repetitions.
 *
 * One more column runs this client with the server in its own session (through util-linux `setsid`), as the
 * stdio transport did before it found server trees through /proc: on Linux a new session is a new scheduler
 * autogroup, and the "own session/ours" ratio shows what that costs per call. BENCH_OWN_SESSION=0 leaves it out.
 *
 * A second table covers the 2026-07-28 era: this client and the official v2 SDK client
 * (@modelcontextprotocol/client 2.4.0), both pinned to 2026-07-28, against a modern-only v2 SDK server
 * (bench/fixtures/modern-server.mjs) over stdio and over Streamable HTTP: BENCH_CALLS sequential and BENCH_CALLS
 * concurrent `tools/call echo`, same repetitions and interleaving. BENCH_SECTIONS=modern (or handshake) runs one table.
 */
import { type BenchClient, type ModernTransport, type OursModule, OursClient, OursModernClient, RawClient, SdkClient, SdkV2ModernClient, loadBundledOurs } from './clients';

const REPS = positiveInt('BENCH_REPS', 5);
const CALLS = positiveInt('BENCH_CALLS', 2000);
const LARGE_CALLS = positiveInt('BENCH_CONCURRENT_LARGE', 10_000);
const OWN_SESSION = process.env.BENCH_OWN_SESSION !== '0';
const BIG_BYTES = positiveInt('BENCH_BIG_BYTES', 50 * 1024 * 1024);
const SECTIONS = (process.env.BENCH_SECTIONS ?? 'handshake,modern').split(',').map((section) => section.trim());
/** Large enough for the 50 MiB message (the SDK's default is 10 MiB). */
const SDK_RAISED_BUFFER = 256 * 1024 * 1024;

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}

type ColumnId = 'ours' | 'oursOwnSession' | 'sdk' | 'sdkRaised' | 'raw';

interface Column {
  id: ColumnId;
  client: BenchClient;
  /** Set when the client could not start or failed a workload; later workloads still run if it is alive. */
  dead?: string;
}

interface Workload {
  name: string;
  /** Runs once and throws if the answers are wrong. */
  run(client: BenchClient): Promise<void>;
  /** Columns that run this workload (the raised-buffer SDK only matters for the big read). */
  columns: readonly ColumnId[];
}

interface Cell {
  samples: number[];
  /** CPU time of this (client) process during each sample: the server's CPU is not in it. */
  cpu: number[];
  error?: string;
}

const SMALL_COLUMNS: readonly ColumnId[] = ['ours', 'oursOwnSession', 'sdk', 'raw'];

function concurrentEchoes(count: number): Workload['run'] {
  return async (client) => {
    const answers = await Promise.all(Array.from({ length: count }, (_, i) => client.echo(`hello ${i}`)));
    answers.forEach((answer, i) => {
      if (answer !== `hello ${i}`) throw new Error(`echo ${i} answered ${JSON.stringify(answer)}`);
    });
  };
}

const WORKLOADS: Workload[] = [
  {
    name: `${CALLS} sequential tools/call echo`,
    columns: SMALL_COLUMNS,
    run: (client) => sequentialEchoes(client),
  },
  { name: `${CALLS} concurrent tools/call echo`, columns: SMALL_COLUMNS, run: concurrentEchoes(CALLS) },
  { name: `${LARGE_CALLS} concurrent tools/call echo`, columns: SMALL_COLUMNS, run: concurrentEchoes(LARGE_CALLS) },
  {
    name: `resources/read ${formatBytes(BIG_BYTES)}`,
    columns: ['ours', 'sdk', 'sdkRaised', 'raw'],
    run: async (client) => {
      const length = await client.readBig();
      if (length !== BIG_BYTES) throw new Error(`read ${length} characters, expected ${BIG_BYTES}`);
    },
  },
];

function formatBytes(bytes: number): string {
  return bytes % 2 ** 20 === 0 ? `${bytes / 2 ** 20} MiB` : `${bytes} bytes`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 160);
}

async function main(): Promise<void> {
  const ours = loadBundledOurs();
  console.log(`node ${process.version}, ${REPS} repetitions; cells: median wall ms (median client-process CPU ms), lower is better`);
  if (SECTIONS.includes('handshake')) await handshakeSection(ours);
  if (SECTIONS.includes('modern')) await modernSection(ours);
}

/** Runs every workload REPS times, interleaving the columns so machine noise hits them alike. */
async function measure<Id extends string>(
  workloads: readonly { name: string; columns: readonly Id[]; run(client: BenchClient): Promise<void> }[],
  columns: readonly { id: Id; client: BenchClient; dead?: string }[],
): Promise<Map<string, Map<Id, Cell>>> {
  const results = new Map<string, Map<Id, Cell>>();
  for (const workload of workloads) {
    const cells = new Map<Id, Cell>();
    results.set(workload.name, cells);
    const participants = columns.filter((c) => workload.columns.includes(c.id));
    for (const column of participants) cells.set(column.id, { samples: [], cpu: [], error: column.dead });
    for (let rep = 0; rep < REPS; rep++) {
      for (const column of participants) {
        const cell = cells.get(column.id) as Cell;
        if (cell.error !== undefined) continue;
        const started = performance.now();
        const cpuBefore = process.cpuUsage();
        try {
          await workload.run(column.client);
          cell.samples.push(performance.now() - started);
          const cpu = process.cpuUsage(cpuBefore);
          cell.cpu.push((cpu.user + cpu.system) / 1000);
        } catch (error) {
          cell.error = `failed after ${Math.round(performance.now() - started)} ms: ${message(error)}`;
        }
      }
      process.stderr.write(`  ${workload.name}: repetition ${rep + 1}/${REPS} done\n`);
    }
  }
  return results;
}

type ModernColumnId = `${'ours' | 'sdkV2'}-${ModernTransport}`;

async function modernSection(ours: OursModule): Promise<void> {
  const transports: readonly ModernTransport[] = ['stdio', 'http'];
  const columns: { id: ModernColumnId; client: BenchClient; dead?: string }[] = transports.flatMap((transport) => [
    { id: `ours-${transport}` as const, client: new OursModernClient(ours, transport) },
    { id: `sdkV2-${transport}` as const, client: new SdkV2ModernClient(transport) },
  ]);
  const workloads = transports.flatMap((transport) => {
    const ids: readonly ModernColumnId[] = [`ours-${transport}`, `sdkV2-${transport}`];
    return [
      { name: `${CALLS} sequential tools/call echo, ${transport}`, columns: ids, run: sequentialEchoes },
      { name: `${CALLS} concurrent tools/call echo, ${transport}`, columns: ids, run: concurrentEchoes(CALLS) },
    ];
  });
  for (const column of columns) {
    try {
      await column.client.start();
      for (const workload of workloads) if (workload.columns.includes(column.id)) await workload.run(column.client);
    } catch (error) {
      column.dead = `could not start: ${message(error)}`;
    }
  }
  const results = await measure(workloads, columns);
  for (const column of columns) await column.client.close().catch(() => undefined);

  console.log('');
  console.log('2026-07-28 era: a modern-only server (bench/fixtures/modern-server.mjs, v2 SDK McpServer, legacy rejected), one process per column');
  console.log('');
  const header = ['workload', 'ours (McpClient, 2026-07-28)', 'SDK 2.4.0 Client (pin 2026-07-28)', 'ours/SDK v2 (wall)', 'ours/SDK v2 (client CPU)', 'target ours/SDK v2 <= 1.00'];
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  for (const [index, [name, cells]] of [...results].entries()) {
    const transport = transports[index >> 1];
    const oursCell = cells.get(`ours-${transport}`);
    const sdkCell = cells.get(`sdkV2-${transport}`);
    const wall = (cell: Cell | undefined) => (cell && cell.error === undefined && cell.samples.length ? median(cell.samples) : undefined);
    const cpu = (cell: Cell | undefined) => (cell && cell.error === undefined && cell.cpu.length ? median(cell.cpu) : undefined);
    const ratio = (a: number | undefined, b: number | undefined) => (a !== undefined && b !== undefined ? `${(a / b).toFixed(2)}x` : 'n/a');
    const oursWall = wall(oursCell);
    const sdkWall = wall(sdkCell);
    const verdict = oursWall === undefined || sdkWall === undefined ? 'n/a' : oursWall <= sdkWall ? 'MET' : 'NOT MET';
    console.log(`| ${[name, showCell(oursCell), showCell(sdkCell), ratio(oursWall, sdkWall), ratio(cpu(oursCell), cpu(sdkCell)), verdict].join(' | ')} |`);
  }
}

function showCell(cell: Cell | undefined): string {
  if (!cell) return 'n/a';
  if (cell.error !== undefined) return `FAILED (${cell.error})`;
  return `${median(cell.samples).toFixed(1)} (cpu ${median(cell.cpu).toFixed(0)})`;
}

async function sequentialEchoes(client: BenchClient): Promise<void> {
  for (let i = 0; i < CALLS; i++) {
    const text = `hello ${i}`;
    const answer = await client.echo(text);
    if (answer !== text) throw new Error(`echo ${i} answered ${JSON.stringify(answer)}`);
  }
}

async function handshakeSection(ours: OursModule): Promise<void> {
  const columns: Column[] = [
    { id: 'ours', client: new OursClient(BIG_BYTES, ours) },
    ...(OWN_SESSION ? [{ id: 'oursOwnSession' as const, client: new OursClient(BIG_BYTES, ours, true) }] : []),
    { id: 'sdk', client: new SdkClient(BIG_BYTES) },
    { id: 'sdkRaised', client: new SdkClient(BIG_BYTES, SDK_RAISED_BUFFER) },
    { id: 'raw', client: new RawClient(BIG_BYTES) },
  ];
  console.log('');
  console.log('Handshake era: bench/fixtures/server.mjs (SDK 1.32.2 McpServer over stdio), one process per column');
  for (const column of columns) {
    try {
      await column.client.start();
      // Steady state, as in a long-lived session: one untimed round of each small-call workload lets the JIT settle.
      for (const workload of WORKLOADS) if (!workload.name.startsWith('resources/read')) await workload.run(column.client);
    } catch (error) {
      column.dead = `could not start: ${message(error)}`;
    }
  }

  const results = await measure(WORKLOADS, columns);

  for (const column of columns) await column.client.close().catch(() => undefined);
  printTable(columns, results);
}

function printTable(columns: readonly Column[], results: Map<string, Map<ColumnId, Cell>>): void {
  const present = (id: ColumnId) => columns.some((c) => c.id === id);
  const label = (id: ColumnId) => (columns.find((c) => c.id === id) as Column).client.label;
  const show = (cell: Cell | undefined): string => {
    if (!cell) return 'n/a';
    if (cell.error !== undefined) return `FAILED (${cell.error})`;
    return `${median(cell.samples).toFixed(1)} (cpu ${median(cell.cpu).toFixed(0)})`;
  };
  const value = (cell: Cell | undefined): number | undefined => (cell && cell.error === undefined && cell.samples.length ? median(cell.samples) : undefined);
  const ratio = (a: number | undefined, b: number | undefined): string => (a !== undefined && b !== undefined ? `${(a / b).toFixed(2)}x` : 'n/a');

  const ownSession = present('oursOwnSession');
  const header = [
    'workload',
    label('ours'),
    ...(ownSession ? [label('oursOwnSession')] : []),
    label('sdk'),
    label('sdkRaised'),
    label('raw'),
    'ours/SDK',
    'ours/raw',
    ...(ownSession ? ['own session/ours'] : []),
  ];
  const rows: string[][] = [];
  for (const [name, cells] of results) {
    const ours = value(cells.get('ours'));
    // For the big read, compare with whichever SDK configuration completed (the default may refuse it).
    const sdk = value(cells.get('sdk')) ?? value(cells.get('sdkRaised'));
    const sdkNote = value(cells.get('sdk')) === undefined && value(cells.get('sdkRaised')) !== undefined ? ' (vs raised-buffer SDK)' : '';
    rows.push([
      name,
      show(cells.get('ours')),
      ...(ownSession ? [show(cells.get('oursOwnSession'))] : []),
      show(cells.get('sdk')),
      show(cells.get('sdkRaised')),
      show(cells.get('raw')),
      ratio(ours, sdk) + sdkNote,
      ratio(ours, value(cells.get('raw'))),
      ...(ownSession ? [ratio(value(cells.get('oursOwnSession')), ours)] : []),
    ]);
  }
  console.log('');
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  console.log('');
  console.log(
    'Ratios compare median wall times. ours/SDK < 1 means this client is faster than the SDK; ours/raw is the overhead over the bare newline-JSON floor' +
      (ownSession ? '; own session/ours is what starting the server in its own session (setsid, a new scheduler autogroup) costs.' : '.'),
  );
  for (const [name, cells] of results) {
    const ours = value(cells.get('ours'));
    if (name.startsWith('resources/read')) {
      const sdk = value(cells.get('sdk')) ?? value(cells.get('sdkRaised'));
      const verdict = sdk === undefined || ours === undefined ? 'n/a' : `${(sdk / ours).toFixed(1)}x faster than the SDK (target >= 10x): ${sdk / ours >= 10 ? 'MET' : 'NOT MET'}`;
      console.log(`target, ${name}: ${verdict}${value(cells.get('sdk')) === undefined ? '; the default SDK client cannot read it at all' : ''}`);
    } else {
      const sdk = value(cells.get('sdk'));
      const raw = value(cells.get('raw'));
      const verdict = sdk === undefined || ours === undefined ? 'n/a' : `ours/SDK = ${(ours / sdk).toFixed(2)} (target <= 1.00): ${ours <= sdk ? 'MET' : 'NOT MET'}`;
      const floor = raw === undefined || ours === undefined ? 'n/a' : `ours/raw = ${(ours / raw).toFixed(2)} (target <= 1.20): ${ours <= 1.2 * raw ? 'MET' : 'NOT MET'}`;
      // Client CPU is steadier than wall time on a busy machine: shown beside the wall-time verdicts.
      const cpu = (id: ColumnId) => {
        const cell = cells.get(id);
        return cell && cell.error === undefined && cell.cpu.length ? median(cell.cpu) : undefined;
      };
      const cpuRatios = `client CPU ours/SDK ${ratio(cpu('ours'), cpu('sdk'))}, ours/raw ${ratio(cpu('ours'), cpu('raw'))}`;
      console.log(`target, ${name}: ${verdict}; ${floor} (${cpuRatios})`);
    }
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
