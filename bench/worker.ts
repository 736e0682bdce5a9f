/**
 * One bench column in a process of its own: one client and its server, driven over IPC by bench/run.ts. A
 * process per column means no column's garbage is collected on another's time, and a fresh process is what
 * "cold" means. Bundled by bench/bundle.ts (this project's client as it ships, the SDKs from node_modules).
 *
 *   argv[2]: a WorkerSpec as JSON. Messages in: {type: 'run', workload} and {type: 'close'}; out: 'ready',
 *   'sample' {wall, cpu} (CPU of this process only: the server's is not in it) and 'failed' {error}.
 */
import {
  OursClient,
  OursModernClient,
  RawClient,
  SdkClient,
  SdkV2Client,
  SdkV2ModernClient,
  type BenchClient,
  type ServerCommand,
} from './clients';
import { SDK_RAISED_BUFFER } from './config';
import { OursHandshakeHttpClient, SdkHandshakeHttpClient, SdkV2HandshakeHttpClient } from './handshakeHttpClients';
import * as ours from './oursEntry';
import { RawHttpClient, RawModernStdioClient } from './rawClients';
import { runWorkload, warmUp, type WorkloadId } from './workloads';

export type ClientKind =
  | 'ours'
  | 'oursOwnSession'
  | 'sdk'
  | 'sdkRaised'
  | 'sdkV2'
  | 'raw'
  | 'oursModernStdio'
  | 'oursModernHttp'
  | 'sdkV2ModernStdio'
  | 'sdkV2ModernHttp'
  | 'oursHandshakeHttp'
  | 'sdkHandshakeHttp'
  | 'sdkV2HandshakeHttp'
  | 'rawModernStdio'
  | 'rawModernHttp'
  | 'rawHandshakeHttp';

export interface WorkerSpec {
  client: ClientKind;
  server: ServerCommand;
  bigBytes: number;
  warmupCalls: number;
}

export type ToWorker = { type: 'run'; workload: WorkloadId } | { type: 'close' };
export type FromWorker =
  { type: 'ready' } | { type: 'sample'; wall: number; cpu: number } | { type: 'failed'; error: string };

function makeClient(spec: WorkerSpec): BenchClient {
  const { bigBytes, server } = spec;
  switch (spec.client) {
    case 'ours':
      return new OursClient(bigBytes, ours, server);
    case 'oursOwnSession':
      return new OursClient(bigBytes, ours, server, true);
    case 'sdk':
      return new SdkClient(bigBytes, server);
    case 'sdkRaised':
      return new SdkClient(bigBytes, server, SDK_RAISED_BUFFER);
    case 'sdkV2':
      return new SdkV2Client(bigBytes, server);
    case 'raw':
      return new RawClient(bigBytes, server);
    case 'oursModernStdio':
      return new OursModernClient(ours, 'stdio', server.script);
    case 'oursModernHttp':
      return new OursModernClient(ours, 'http', server.script);
    case 'sdkV2ModernStdio':
      return new SdkV2ModernClient('stdio', server.script);
    case 'sdkV2ModernHttp':
      return new SdkV2ModernClient('http', server.script);
    case 'oursHandshakeHttp':
      return new OursHandshakeHttpClient(ours, server);
    case 'sdkHandshakeHttp':
      return new SdkHandshakeHttpClient(server);
    case 'sdkV2HandshakeHttp':
      return new SdkV2HandshakeHttpClient(server);
    case 'rawModernStdio':
      return new RawModernStdioClient(server.script);
    case 'rawModernHttp':
      return new RawHttpClient('modern', { script: server.script, args: ['--transport', 'http'] });
    case 'rawHandshakeHttp':
      return new RawHttpClient('handshake', server);
  }
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 160);
}

function send(message: FromWorker): void {
  process.send?.(message);
}

/**
 * The client's warnings (the worker runs with --no-warnings): each printed as Node would, except
 * MaxListenersExceededWarning, which the SDK clients raise once per socket (thousands in a run): counted, and said once
 * when the worker closes.
 */
function collectWarnings(label: string): () => void {
  let maxListeners = 0;
  process.on('warning', (warning) => {
    if (warning.name === 'MaxListenersExceededWarning') maxListeners++;
    else process.stderr.write(`  ${label}: ${warning.name}: ${warning.message}\n`);
  });
  return () => {
    if (maxListeners > 0)
      process.stderr.write(`  ${label}: ${maxListeners} × MaxListenersExceededWarning from the client\n`);
  };
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '') as WorkerSpec;
  const client = makeClient(spec);
  const reportWarnings = collectWarnings(client.label);
  try {
    await client.start();
    await warmUp(client, spec.warmupCalls);
  } catch (error) {
    // Close first (an HTTP column stops its server process): the orchestrator kills this process once it reads 'failed'.
    await client.close().catch(() => undefined);
    const failed: FromWorker = { type: 'failed', error: `could not start: ${describe(error)}` };
    if (process.send) process.send(failed, () => process.exit(1));
    else process.exit(1);
    return;
  }
  // One command at a time: the orchestrator waits for each answer before it sends the next.
  process.on('message', (message: ToWorker) => {
    void (async () => {
      switch (message.type) {
        case 'run': {
          const started = performance.now();
          const cpuBefore = process.cpuUsage();
          try {
            await runWorkload(message.workload, client);
            const wall = performance.now() - started;
            const cpu = process.cpuUsage(cpuBefore);
            send({ type: 'sample', wall, cpu: (cpu.user + cpu.system) / 1000 });
          } catch (error) {
            send({
              type: 'failed',
              error: `failed after ${Math.round(performance.now() - started)} ms: ${describe(error)}`,
            });
          }
          return;
        }
        case 'close':
          await client.close().catch(() => undefined);
          reportWarnings();
          process.exit(0);
      }
    })();
  });
  send({ type: 'ready' });
}

void main();
