/**
 * A small driver for profiling `mcp-workbench gateway` (not part of `npm run bench`):
 *   node --import tsx bench/profileGateway.ts [stdio|http] [sequential|concurrent] [calls] [2025|2026]
 * Starts dist/cli.js gateway (GATEWAY_NODE_FLAGS are passed to its node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/p"),
 * connects the SDK 1.x client(s) (2025: a handshake session) or the SDK 2.x client(s) pinned to 2026-07-28 (2026:
 * stateless), and prints per-call p50/p99 (sequential) or calls per second of 100 callers.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as SdkV2 from '@modelcontextprotocol/client';

/** CPU ms (user + system) of a process and its descendants, from /proc (Linux). */
function cpuMs(pid: number, serverPid?: number): Record<string, number> {
  const out: Record<string, number> = {};
  const visit = (id: number, name: string): void => {
    try {
      const fields = readFileSync(`/proc/${id}/stat`, 'utf8').split(') ')[1].split(' ');
      out[name] = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
      const kids = execFileSync('pgrep', ['-P', String(id)], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .filter(Boolean);
      kids.forEach((kid, index) => visit(Number(kid), `${name}>${index}`));
    } catch {
      // gone, or no children
    }
  };
  visit(pid, 'gateway');
  if (serverPid !== undefined) visit(serverPid, 'http-server');
  return out;
}

function cpuReport(
  before: Record<string, number>,
  after: Record<string, number>,
  calls: number,
  self: NodeJS.CpuUsage,
): string {
  const parts = Object.keys(after).map(
    (name) => `${name} ${(((after[name] - (before[name] ?? 0)) * 1000) / calls).toFixed(0)}`,
  );
  parts.push(`bench ${((self.user + self.system) / calls).toFixed(0)}`);
  return `CPU µs per call: ${parts.join(', ')}`;
}

const CLI = path.resolve(__dirname, '..', 'dist', 'cli.js');
const STDIO_SERVER = path.join(__dirname, 'fixtures', 'server.mjs');
const HTTP_SERVER = path.join(__dirname, 'fixtures', 'handshake-http-server.mjs');

async function main(): Promise<void> {
  const [kind = 'stdio', mode = 'sequential', callsText = '5000', era = '2025'] = process.argv.slice(2);
  const calls = Number(callsText);
  let httpUrl = '';
  const httpChild =
    kind === 'http' ? spawn(process.execPath, [HTTP_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] }) : undefined;
  if (httpChild)
    httpUrl = await new Promise<string>((resolve) => {
      let seen = '';
      httpChild.stdout!.on('data', (chunk: Buffer) => {
        seen += chunk.toString('utf8');
        const match = /listening (\S+)/.exec(seen);
        if (match) resolve(match[1]);
      });
    });
  const flags = (process.env.GATEWAY_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const target = kind === 'stdio' ? ['--stdio', `"${process.execPath}" "${STDIO_SERVER}"`] : ['--url', httpUrl];
  const child = spawn(process.execPath, [...flags, CLI, 'gateway', ...target, '--json'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
  const endpoint = (JSON.parse(line) as { servers: { url: string; headers: Record<string, string> }[] }).servers[0];
  const connect = async (name: string): Promise<Pick<Client, 'callTool' | 'close'>> => {
    if (era === '2026') {
      const modern = new SdkV2.Client(
        { name, version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await modern.connect(
        new SdkV2.StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: endpoint.headers } }),
      );
      return modern as unknown as Pick<Client, 'callTool' | 'close'>;
    }
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: endpoint.headers } }),
    );
    return client;
  };
  const echo = async (client: Pick<Client, 'callTool'>, text: string): Promise<void> => {
    const result = await client.callTool({ name: 'echo', arguments: { text } });
    if ((result.content as { text?: string }[])[0]?.text !== text) throw new Error('crossed');
  };
  if (mode === 'sequential') {
    const client = await connect('seq');
    for (let i = 0; i < 500; i++) await echo(client, `w${i}`);
    const times: number[] = [];
    const before = cpuMs(child.pid!, httpChild?.pid);
    const self = process.cpuUsage();
    for (let i = 0; i < calls; i++) {
      const started = performance.now();
      await echo(client, `c${i}`);
      times.push(performance.now() - started);
    }
    console.log(cpuReport(before, cpuMs(child.pid!, httpChild?.pid), calls, process.cpuUsage(self)));
    times.sort((a, b) => a - b);
    const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(3);
    console.log(`${kind} ${era} sequential: p50 ${at(0.5)} ms, p90 ${at(0.9)}, p99 ${at(0.99)}, max ${at(1)}`);
    await client.close();
  } else {
    const clients = await Promise.all(Array.from({ length: 100 }, (_, i) => connect(`c${i}`)));
    await Promise.all(clients.map((client, i) => echo(client, `w${i}`)));
    const rounds = Math.max(1, Math.floor(calls / 100));
    const before = cpuMs(child.pid!, httpChild?.pid);
    const self = process.cpuUsage();
    const started = performance.now();
    await Promise.all(
      clients.map(async (client, i) => {
        for (let round = 0; round < rounds; round++) await echo(client, `${i}:${round}`);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(cpuReport(before, cpuMs(child.pid!, httpChild?.pid), 100 * rounds, process.cpuUsage(self)));
    console.log(`${kind} ${era} 100 concurrent: ${((100 * rounds) / seconds).toFixed(0)} calls/s`);
    await Promise.all(clients.map((client) => client.close()));
  }
  child.kill('SIGTERM');
  await exited;
  httpChild?.kill('SIGTERM');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
