/**
 * `performance.now()` when the extension's code began and finished evaluating: esbuild.js puts them in the banner and
 * footer of every file it writes. An ES module's own code runs after the files it imports, so the start is the first
 * file's (shared through a symbol on globalThis), and the end is extension.mjs's own footer. Activation logs what the
 * code cost to load (VS Code counts that into the activation too). Read nowhere but the composition root (extension.ts).
 */
declare const MCP_WORKBENCH_LOAD_STARTED: number;
declare const MCP_WORKBENCH_LOAD_ENDED: number;
