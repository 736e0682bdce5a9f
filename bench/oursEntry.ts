/** What the benchmark loads of this project; bench/clients.ts bundles it with esbuild like the shipped dist/. */
export { McpClient } from '../src/core/client';
export { StdioTransport } from '../src/core/transports/stdio';
