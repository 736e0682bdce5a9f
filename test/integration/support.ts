/**
 * Shared by both integration routes (code-server: integration.test.ts; desktop VS Code: runTest.ts):
 * bundling TypeScript entry points for the extension host, and the test workspace.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildSync } from 'esbuild';

export { processesMatching } from '../support/processes';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const INTEGRATION_DIR = __dirname;
export const SUITE_ENTRY = path.join(INTEGRATION_DIR, 'suite', 'index.ts');
export const EVERYTHING_SERVER_JS = path.join(
  REPO_ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);
/** Must match EVERYTHING_SERVER in suite/workbench.ts. */
export const EVERYTHING_SERVER_NAME = 'everything';

/**
 * Bundles `entry` (TypeScript) into one CommonJS file the extension host can `require`. `vscode` stays
 * external: the host provides it (suites receive it as an argument and never require it themselves).
 */
export function bundleForExtensionHost(entry: string, outfile: string): string {
  const result = buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    sourcemap: 'inline',
    logLevel: 'silent',
    // Where the suites find fixtures that need the repository's node_modules (the bundle lives in a temp folder).
    define: { 'process.env.MCP_INTEGRATION_REPO_ROOT': JSON.stringify(REPO_ROOT) },
    outfile,
  });
  if (result.errors.length > 0) {
    throw new Error(`esbuild could not bundle ${entry}:\n${result.errors.map((e) => e.text).join('\n')}`);
  }
  return outfile;
}

/**
 * A workspace whose .vscode/mcp.json runs server-everything over stdio as "everything". The trailing
 * ${workspaceFolder} argument is ignored by the server and marks its process as this test's.
 */
export function writeWorkspace(workspace: string): void {
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'README.txt'), 'MCP Workbench integration test workspace\n');
  const config = {
    servers: {
      [EVERYTHING_SERVER_NAME]: {
        type: 'stdio',
        command: process.execPath,
        args: [EVERYTHING_SERVER_JS, 'stdio', '${workspaceFolder}'],
      },
    },
  };
  fs.writeFileSync(path.join(workspace, '.vscode', 'mcp.json'), `${JSON.stringify(config, null, 2)}\n`);
}
