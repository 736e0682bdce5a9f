/**
 * The handshake era (initialize, revision 2025-11-25) over Streamable HTTP, against
 * bench/fixtures/handshake-http-server.mjs (v1 SDK McpServer, stateful sessions), one server process per client.
 * Each column checks at start that `initialize` settled on 2025-11-25, so no column measures another revision.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as SdkV2 from '@modelcontextprotocol/client';
import type { McpClient } from '../src/protocol/client';
import { REQUEST_TIMEOUT_MS, firstText, type OursModule, type ServerCommand } from './clients';
import { HttpFixtureClient } from './httpFixture';

const REVISION = '2025-11-25';

function expectRevision(column: string, revision: string | undefined): void {
  if (revision !== REVISION) throw new Error(`${column} negotiated ${revision ?? 'no revision'}, not ${REVISION}`);
}

/**
 * This project's client in the handshake era (`era: 'legacy'`, the McpClient default, which the stdio column
 * uses too; the product's `auto` opens it directly for a server it remembers as a handshake one), over the
 * Streamable HTTP transport with the fetch the extension and the CLI give it (chooseHttpFetch).
 */
export class OursHandshakeHttpClient extends HttpFixtureClient<McpClient> {
  readonly label = 'ours (McpClient, handshake, Streamable HTTP)';

  constructor(
    private readonly ours: OursModule,
    server: ServerCommand,
  ) {
    super(server);
  }

  async start(): Promise<void> {
    const transport = this.ours.createHttpTransport({
      url: await this.httpServer.start(),
      mode: 'streamable-http',
      fetch: this.ours.chooseHttpFetch({ env: process.env }).fetch,
    });
    this.client = new this.ours.McpClient({
      serverName: 'bench-handshake-http',
      transport,
      era: 'legacy',
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      maxTotalTimeoutMs: REQUEST_TIMEOUT_MS,
      initializeTimeoutMs: REQUEST_TIMEOUT_MS,
    });
    const session = await this.client.connect();
    expectRevision('ours', session.protocolVersion);
  }

  async echo(text: string): Promise<string> {
    const { result } = await (this.client as McpClient).callTool('echo', { text });
    return firstText(result.content);
  }
}

/** The official v1 SDK client (1.32.2): Client over its StreamableHTTPClientTransport (global fetch), as shipped. */
export class SdkHandshakeHttpClient extends HttpFixtureClient<Client> {
  readonly label = 'SDK 1.32.2 Client, Streamable HTTP';

  async start(): Promise<void> {
    const client = new Client({ name: 'bench-sdk', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(await this.httpServer.start()));
    this.client = client;
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
    expectRevision('SDK 1.x', transport.protocolVersion);
  }

  async echo(text: string): Promise<string> {
    const result = await (this.client as Client).callTool({ name: 'echo', arguments: { text } }, undefined, {
      timeout: REQUEST_TIMEOUT_MS,
    });
    return firstText(result.content);
  }
}

/**
 * The official v2 SDK client (@modelcontextprotocol/client 2.4.0) in the handshake era: `versionNegotiation`
 * mode 'legacy' (its default, written out: no server/discover probe, the plain initialize sequence), over its
 * StreamableHTTPClientTransport (global fetch).
 */
export class SdkV2HandshakeHttpClient extends HttpFixtureClient<SdkV2.Client> {
  readonly label = 'SDK 2.4.0 Client (legacy negotiation), Streamable HTTP';

  async start(): Promise<void> {
    const client = new SdkV2.Client(
      { name: 'bench-sdk-v2', version: '1.0.0' },
      { versionNegotiation: { mode: 'legacy' } },
    );
    const transport = new SdkV2.StreamableHTTPClientTransport(new URL(await this.httpServer.start()));
    this.client = client;
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
    expectRevision('SDK 2.x', client.getNegotiatedProtocolVersion());
  }

  async echo(text: string): Promise<string> {
    const result = await (this.client as SdkV2.Client).callTool(
      { name: 'echo', arguments: { text } },
      { timeout: REQUEST_TIMEOUT_MS },
    );
    return firstText(result.content);
  }
}
