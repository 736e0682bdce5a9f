/**
 * The smallest SDK-based CLI that does what `mcp-workbench read` does, as an application on the SDK would write it:
 *   node sdk-cli.js <1|2> read <uri> -- <server command...>
 * `1`: @modelcontextprotocol/sdk 1.x Client (read buffer raised to 256 MiB: its default 10 MiB refuses a 50 MiB
 * message), `2`: @modelcontextprotocol/client 2.4.0. Prints JSON.stringify(result, null, 2) and a newline, then
 * exits without the SDK's close (what is measured is the read and the print; the server ends on EOF): on a busy
 * machine that close could meet a server already gone and die of an EPIPE nobody listens for.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as SdkV2 from '@modelcontextprotocol/client';
import * as SdkV2Stdio from '@modelcontextprotocol/client/stdio';
import { SDK_RAISED_BUFFER } from './config';

const TIMEOUT_MS = 10 * 60_000;

async function read(sdk: string, uri: string, command: string, args: string[]): Promise<unknown> {
  const env = process.env as Record<string, string>;
  if (sdk === '1') {
    const client = new Client({ name: 'sdk-cli', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command, args, env, stderr: 'inherit', maxBufferSize: SDK_RAISED_BUFFER }),
      { timeout: TIMEOUT_MS },
    );
    return client.readResource({ uri }, { timeout: TIMEOUT_MS });
  }
  const client = new SdkV2.Client({ name: 'sdk-cli', version: '1.0.0' });
  await client.connect(new SdkV2Stdio.StdioClientTransport({ command, args, env, stderr: 'inherit' }), {
    timeout: TIMEOUT_MS,
  });
  return client.readResource({ uri }, { timeout: TIMEOUT_MS });
}

async function main(): Promise<void> {
  const [sdk, subcommand, uri, separator, command, ...args] = process.argv.slice(2);
  if ((sdk !== '1' && sdk !== '2') || subcommand !== 'read' || !uri || separator !== '--' || !command) {
    throw new Error('usage: sdk-cli.js <1|2> read <uri> -- <server command...>');
  }
  const result = await read(sdk, uri, command, args);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

main().then(
  () => process.stdout.write('', () => process.exit(0)),
  (error: unknown) => {
    process.stderr.write(`sdk-cli: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
