/**
 * `true` only in the test build (`node esbuild.js --test-hooks`, used by the integration and e2e suites), `false` in
 * every other build: esbuild replaces it by a literal, so code behind `if (MCP_WORKBENCH_TEST_BUILD)` and everything
 * only it imports is dropped from the product. Read nowhere but the composition root (extension.ts).
 */
declare const MCP_WORKBENCH_TEST_BUILD: boolean;
