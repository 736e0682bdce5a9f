// The tool names a stdio server lists to the official TypeScript SDK's client (every page), one per line, sorted:
// scripts/sweep-third-party.sh compares them with what `node dist/cli.js tools` lists.
//   node scripts/sweep-sdk-tools.mjs '<json array: command and arguments>' '<json object: extra environment>' [cwd]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { pathToFileURL } from 'node:url';
import * as path from 'node:path';

const [command, ...args] = JSON.parse(process.argv[2]);
const env = { ...getDefaultEnvironment(), ...process.env, ...JSON.parse(process.argv[3] ?? '{}') };
// The capabilities our CLI declares that change what a server lists: roots (server-everything adds get-roots-list).
const client = new Client({ name: 'sweep-sdk', version: '1.0.0' }, { capabilities: { roots: {} } });
client.setRequestHandler(ListRootsRequestSchema, () => ({
  roots: [{ uri: pathToFileURL(cwd).href, name: path.basename(cwd) }],
}));
const cwd = process.argv[4] ?? process.cwd();
const transport = new StdioClientTransport({ command, args, env, cwd, stderr: 'ignore' });
const timeout = Number(process.env.SWEEP_TIMEOUT_MS ?? 60_000);
try {
  await client.connect(transport, { timeout });
  const names = [];
  let cursor;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout });
    names.push(...page.tools.map((tool) => tool.name));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  process.stdout.write(`${names.sort().join('\n')}\n`);
} catch (error) {
  process.stderr.write(`sdk: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await client.close().catch(() => undefined);
}
