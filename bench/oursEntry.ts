/** What the benchmark loads of this project; bench/clients.ts bundles it with esbuild like the shipped dist/. */
export { McpClient } from '../src/protocol/client';
export { StdioTransport } from '../src/protocol/node/stdio';
export { createHttpTransport } from '../src/protocol/transports/http';
// The fetch the extension and the CLI give an HTTP transport (node:http unless a proxy is configured).
export { chooseHttpFetch } from '../src/workbench/node/httpFetchChoice';
