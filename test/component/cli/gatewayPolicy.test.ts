/**
 * `mcp-workbench gateway --policy FILE` on real peers: the official SDK 1.32.2 client reaches server-everything through
 * the CLI's gateway; a disabled tool is not listed and its call is refused with a JSON-RPC error naming it; with no
 * one to answer at a CLI run, an `ask` tool is refused and a `review` tool's result is withheld.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EVERYTHING_SERVER, REPO_ROOT } from '../../support/testSupport';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const EVERYTHING = `"${process.execPath}" "${EVERYTHING_SERVER}"`;

interface Endpoint {
  url: string;
  headers: Record<string, string>;
}

const children: ChildProcess[] = [];
const folders: string[] = [];
after(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await Promise.all(
    children.map((child) =>
      child.exitCode === null && child.signalCode === null
        ? new Promise((resolve) => child.once('exit', resolve))
        : undefined,
    ),
  );
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function gatewayWithPolicy(policy: unknown): Promise<Endpoint> {
  const folder = await mkdtemp(path.join(tmpdir(), 'mcp-gateway-policy-'));
  folders.push(folder);
  const file = path.join(folder, 'policy.json');
  await writeFile(file, JSON.stringify(policy));
  const child = spawn(process.execPath, [CLI, 'gateway', '--stdio', EVERYTHING, '--policy', file, '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the gateway exited with ${code} before it was ready: ${stderr}`)));
  });
  return (JSON.parse(line) as { servers: Endpoint[] }).servers[0];
}

async function agent(endpoint: Endpoint): Promise<Client> {
  const client = new Client({ name: 'policy-agent', version: '1.32.2' }, { capabilities: {} });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: endpoint.headers } }),
  );
  return client;
}

describe('mcp-workbench gateway --policy', () => {
  test('a disabled tool is not listed and is refused at call; ask is refused and review withheld where no one can answer', async () => {
    const endpoint = await gatewayWithPolicy({
      tools: { echo: { enabled: false }, 'get-sum': { policy: 'ask' }, 'get-env': { policy: 'review' } },
    });
    const client = await agent(endpoint);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      assert.ok(!names.includes('echo'), `echo is not offered: ${names.join(', ')}`);
      assert.ok(names.includes('get-sum') && names.includes('get-env'), 'the other tools are listed');

      await assert.rejects(
        client.callTool({ name: 'echo', arguments: { message: 'hi' } }),
        (error: Error & { code?: number }) => {
          assert.equal(error.code, -32602);
          assert.match(error.message, /Tool "echo" is disabled for agents in MCP Workbench/);
          return true;
        },
      );
      await assert.rejects(client.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } }), (error: Error) => {
        assert.match(error.message, /Tool "get-sum" did not run: .*no one here can answer/);
        return true;
      });
      const withheld = await client.callTool({ name: 'get-env', arguments: {} });
      assert.equal(withheld.isError, true);
      assert.match(JSON.stringify(withheld.content), /The result of tool \\"get-env\\" was withheld/);
      assert.doesNotMatch(JSON.stringify(withheld), /PATH/, 'nothing of the real result reached the agent');
    } finally {
      await client.close();
    }
  });

  test('a policy file that does not parse stops the run before anything is served', async () => {
    await assert.rejects(
      gatewayWithPolicy({ tools: { echo: { policy: 'sometimes' } } }),
      /exited with 2 .*"policy" of tool "echo"/s,
    );
  });
});
