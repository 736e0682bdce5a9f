/**
 * The Protocol view's cost to calls (issue 20), part of `npm run bench:ui`; alone: node --import tsx bench/uiProtocol.ts.
 *
 * 10,000 `echo` calls to server-everything over stdio through McpClient, with the wire tap the extension attaches to
 * every connection (src/extension/features/protocolView/wireTaps.ts):
 *   - closed: the tap attached, no Show Protocol panel (what every server pays);
 *   - open: the tap holds a ProtocolLog (masking, serializing, pairing, the 100,000-event ring) and a consumer does
 *     what the open panel does in the extension host: batches the appended events every 100 ms, encodes each batch
 *     as the panel does (encodeEventBatch) and serializes the post as VS Code's extension host does (vscodePost;
 *     drawing happens in the webview's own process, off the calls' path).
 * After a warm-up run of each, runs alternate closed/open in ABBA order, ROUNDS (5) times each. The cost to the calls
 * is the CPU time the open view adds to the client's process per call, over the time of a call with the view closed:
 * wall-clock totals on a shared machine vary more from run to run than the view changes them (both are printed). The
 * added CPU is the median of each round's open-minus-closed difference (the two runs of a round are next to each other
 * in time, so they share the machine's state), with every round's value printed; the difference of the two medians
 * swung from -1% to 23% over ten runs of three rounds. Figures vary with the machine.
 */
import { McpClient } from '../src/protocol/client';
import { StdioTransport } from '../src/protocol/node/stdio';
import { WireTap } from '../src/extension/features/protocolView/wireTaps';
import { encodeEventBatch } from '../src/workbench/protocolLog/eventBatch';
import type { WireEvent } from '../src/workbench/protocolLog/wireEvent';
import * as path from 'node:path';

/** What an open view may add to a call (no issue set a figure; this bench's): a tenth of a call's time. */
const PROTOCOL_VIEW_TARGET_PERCENT = 10;
const CALLS = Number(process.env.BENCH_PROTOCOL_CALLS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_PROTOCOL_ROUNDS ?? 5);
const EVERYTHING = path.join(
  __dirname,
  '..',
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);
const FLUSH_MS = 100;

async function run(open: boolean): Promise<{ ms: number; cpuMs: number; events: number; posted: number }> {
  const tap = new WireTap(() => ['not-in-the-traffic-secret']);
  const hold = open ? tap.hold() : undefined;
  let queued: WireEvent[] = [];
  let posted = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    posted += vscodePost({ type: 'append', json: encodeEventBatch(queued, 0) });
    queued = [];
  };
  const subscription = hold?.log.onDidAppend((event) => {
    queued.push(event);
    timer ??= setTimeout(flush, FLUSH_MS);
  });
  const transport = new StdioTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'] });
  transport.onDiagnostic((line) => tap.console(line));
  const client = new McpClient({
    serverName: 'bench',
    transport,
    trace: (direction, message) => tap.message(direction, message),
  });
  await client.connect();
  try {
    const started = performance.now();
    const cpu = process.cpuUsage();
    for (let call = 0; call < CALLS; call++) await client.callTool('echo', { message: `call ${call}` });
    if (timer) {
      clearTimeout(timer);
      flush();
    }
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    return { ms, cpuMs: (used.user + used.system) / 1000, events: hold?.log.size ?? 0, posted };
  } finally {
    subscription?.dispose();
    hold?.dispose();
    await client.close();
  }
}

/**
 * The work of VS Code 1.100's extension host for one webview post, written after its source: the message is
 * serialized as JSON with a replacer called for every value (it lifts typed arrays out: extHostWebviewMessaging's
 * serializeWebviewMessage); the RPC to the window then sends that text and the lifted buffers as they are, or, with
 * no buffer, serializes its arguments as JSON once more (with the URI replacer of a remote host such as code-server),
 * which escapes the text again. Returns the bytes sent.
 */
function vscodePost(message: unknown): number {
  const buffers: ArrayBufferView[] = [];
  const text = JSON.stringify(message, (_key, value: unknown) => {
    if (value instanceof ArrayBuffer) return { $$vscode_array_buffer_reference$$: true, index: buffers.length };
    if (ArrayBuffer.isView(value)) {
      buffers.push(value);
      return {
        $$vscode_array_buffer_reference$$: true,
        index: buffers.length - 1,
        view: { byteLength: value.byteLength, byteOffset: value.byteOffset },
      };
    }
    return value;
  });
  if (buffers.length === 0) return JSON.stringify(['webview-handle', text], (_key, value: unknown) => value).length;
  return Buffer.byteLength(text) + buffers.reduce((sum, buffer) => sum + buffer.byteLength, 0);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function measureProtocolView(): Promise<string> {
  const closed: number[] = [];
  const open: number[] = [];
  const closedCpu: number[] = [];
  const openCpu: number[] = [];
  let lastOpen = { events: 0, posted: 0 };
  // Warm-up, both ways: the first spawn pays for the disk cache, and each path's first run for its JIT.
  await run(false);
  await run(true);
  for (let round = 0; round < ROUNDS; round++) {
    // ABBA: the order flips every round, so a drift over the rounds (the JIT, the machine) favours neither side.
    const openFirst = round % 2 === 1;
    const first = await run(openFirst);
    const second = await run(!openFirst);
    const [closedRun, result] = openFirst ? [second, first] : [first, second];
    closed.push(closedRun.ms);
    closedCpu.push(closedRun.cpuMs);
    open.push(result.ms);
    openCpu.push(result.cpuMs);
    lastOpen = result;
  }
  const closedMs = median(closed);
  const openMs = median(open);
  const overhead = ((openMs - closedMs) / closedMs) * 100;
  const closedCpuMs = median(closedCpu);
  const openCpuMs = median(openCpu);
  // What the view adds is work in the client's process (the server does the same either way), paired by round.
  const addedCpu = openCpu.map((cpuMs, round) => cpuMs - closedCpu[round]);
  const addedCpuMs = median(addedCpu);
  const cpuOverhead = (addedCpuMs / closedCpuMs) * 100;
  const costToCalls = (addedCpuMs / closedMs) * 100;
  const percentOfCall = (added: number) => `${((added / closedMs) * 100).toFixed(1)}%`;
  return [
    `\nProtocol view: ${CALLS} echo calls to server-everything (stdio), median of ${ROUNDS} alternating runs`,
    '',
    '| Show Protocol | total | per call | host CPU per call | events kept | posted to the page |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    `| closed (tap attached) | ${Math.round(closedMs)} ms | ${(closedMs / CALLS).toFixed(3)} ms | ${(closedCpuMs / CALLS).toFixed(3)} ms | 0 | 0 |`,
    `| open | ${Math.round(openMs)} ms | ${(openMs / CALLS).toFixed(3)} ms | ${(openCpuMs / CALLS).toFixed(3)} ms | ${lastOpen.events} | ${(lastOpen.posted / 1024 / 1024).toFixed(1)} MiB |`,
    '',
    `The open view adds ${(addedCpuMs / CALLS).toFixed(3)} ms of the client's CPU per call: ${costToCalls.toFixed(1)}% of a call's time (${(closedMs / CALLS).toFixed(3)} ms with the view closed; target < ${PROTOCOL_VIEW_TARGET_PERCENT}%: ${costToCalls < PROTOCOL_VIEW_TARGET_PERCENT ? 'MET' : 'NOT MET'}).`,
    `That is the median of the ${ROUNDS} rounds' open-minus-closed CPU; the rounds gave ${addedCpu.map(percentOfCall).join(', ')}.`,
    `Wall-clock medians differ by ${overhead.toFixed(1)}% (closed runs: ${closed.map(Math.round).join(', ')} ms; open: ${open.map(Math.round).join(', ')} ms); on a`,
    `shared machine they vary more between runs than between closed and open, which is why the CPU figure is the measure; the client's CPU alone grows ${cpuOverhead.toFixed(1)}%.`,
  ].join('\n');
}

if (require.main === module) {
  measureProtocolView().then(
    (report) => console.log(report),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
