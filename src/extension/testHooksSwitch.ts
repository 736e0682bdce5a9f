/**
 * The test-only switch. The parts of the extension's API that let a caller pre-answer a consent, a prompt or a
 * pick, or replace the URL opener, exist only when this variable is set in the extension host's environment at
 * activation (the integration runners set it); a normal install exposes none of them. vscode-free, so a unit
 * test can check both sides.
 */
export const TEST_HOOKS_ENV = 'MCP_WORKBENCH_TEST_HOOKS';

export function testHooksEnabled(env: Readonly<Record<string, string | undefined>>): boolean {
  return env[TEST_HOOKS_ENV] === '1';
}

/** `api` alone, or `api` with the hooks `build` makes when the switch is on; `build` never runs otherwise. */
export function withTestHooks<Api extends object, Hooks extends object>(
  api: Api,
  env: Readonly<Record<string, string | undefined>>,
  build: () => Hooks,
): Api | (Api & Hooks) {
  return testHooksEnabled(env) ? { ...api, ...build() } : api;
}
