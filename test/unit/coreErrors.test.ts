/** The core's English errors a newcomer meets, recognized for translation (src/extension/platform/ui/coreErrorKinds.ts, vscode-free). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { recognizeCoreErrors, rewriteCoreErrors } from '../../src/extension/platform/ui/coreErrorKinds';
import { silentLauncherHint } from '../../src/protocol/node/stdio';
import { resolveCommand } from '../../src/workbench/node/commandResolution';
import { UnresolvedVariableError, resolveVariables } from '../../src/workbench/config/variables';

test("the core's own texts are recognized: command not found (from the real resolver), an input without a value, a timeout", async () => {
  const missing = await resolveCommand('nodee-mcp-workbench', { env: { PATH: '/usr/bin:/bin' }, platform: 'linux' });
  assert.equal(missing.kind, 'not-found');
  const message = `Command "nodee-mcp-workbench" was not found: ${missing.kind === 'not-found' ? missing.hint : ''}`;
  assert.deepEqual(recognizeCoreErrors(message).map((item) => item.error), [{ kind: 'command-not-found', command: 'nodee-mcp-workbench', searched: '/usr/bin, /bin' }]);
  const said = rewriteCoreErrors(message, (error) => `<${error.kind}>`);
  assert.equal(said, 'Command "nodee-mcp-workbench" was not found: <command-not-found>');
  assert.deepEqual(recognizeCoreErrors('everything: tools/call timed out after 60000 ms').map((item) => item.error), [{ kind: 'timed-out', method: 'tools/call', ms: '60000' }]);
  assert.equal(rewriteCoreErrors('nothing known here', () => 'x'), 'nothing known here');
});

test('the input error as the variable resolver throws it', async () => {
  const error = await resolveVariables('--key=${input:api-key}', { env: {}, userHome: '/home/u', input: async () => undefined }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  assert.ok(error instanceof UnresolvedVariableError);
  assert.deepEqual(recognizeCoreErrors(error.message).map((item) => item.error), [{ kind: 'input-without-value', input: 'api-key' }]);
});

test("a package launcher's silent failure (the stdio transport's own hint) is recognized for translation", () => {
  const hint = silentLauncherHint('npx', ['-y', 'x'], 1) ?? '';
  const message = `launched: the server process exited with code 1${hint}`;
  assert.deepEqual(recognizeCoreErrors(message).map((item) => item.error), [
    { kind: 'process-exited', code: '1' },
    { kind: 'launcher-silent', launcher: 'npx' },
  ]);
  assert.equal(rewriteCoreErrors(message, (error) => `<${error.kind}>`), 'launched: <process-exited>, <launcher-silent>');
});
