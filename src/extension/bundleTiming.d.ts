/**
 * `performance.now()` when extension.js began and finished evaluating: esbuild.js puts them in the bundle's banner
 * and footer, so activation can log what its code cost to load (VS Code counts that into the activation too). Read
 * nowhere but the composition root (extension.ts).
 */
declare const MCP_WORKBENCH_LOAD_STARTED: number;
declare const MCP_WORKBENCH_LOAD_ENDED: number;
