/** The CLI (dist/cli.js, built by `npm run build`) on MCP Apps servers: `app <tool>`, `read ui://…`, and app marks in `tools` and `info`. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { APPS_FIXTURE, BASIC_APP_SERVER } from '../../support/appsSupport';
import { REPO_ROOT } from '../../support/testSupport';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const FIXTURE = `${JSON.stringify(process.execPath)} ${JSON.stringify(APPS_FIXTURE)}`;
const BASIC = `${JSON.stringify(process.execPath)} ${JSON.stringify(BASIC_APP_SERVER)} --stdio`;

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: REPO_ROOT, timeout: 30_000, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number')
          return reject(new Error(`the CLI did not exit normally (${error.message}); stderr:\n${stderr}`));
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
    child.stdin?.end('');
  });
}

test('app <tool> prints the UI resource: URI, size, the CSP this client builds (refusals named), permissions, domain', async () => {
  const run = await cli(['app', 'show_hostile', '--stdio', FIXTURE, '--era', 'legacy']);
  assert.equal(run.code, 0, run.stderr);
  const output = JSON.parse(run.stdout);
  assert.equal(output.resourceUri, 'ui://fixture/hostile.html');
  assert.equal(output.mimeType, 'text/html;profile=mcp-app');
  assert.ok(output.bytes > 100);
  assert.match(output.csp.policy, /connect-src https:\/\/api\.example\.com;/);
  assert.ok(output.csp.refused.some((refusal: { entry: string }) => refusal.entry === "'unsafe-eval'"));
  assert.deepEqual(output.permissions.granted, ['clipboardWrite']);
  assert.deepEqual(output.permissions.notGrantable, ['camera', 'microphone', 'geolocation']);
  assert.equal(output.domain, 'hostile.example.com');
});

test('app <tool> on the basic example (auto era), and the errors: no such tool, no app, wrong MIME type', async () => {
  const basic = JSON.parse((await cli(['app', 'get-time', '--stdio', BASIC])).stdout);
  assert.equal(basic.resourceUri, 'ui://get-time/mcp-app.html');
  assert.match(basic.csp.policy, /connect-src 'none'/);
  const missing = await cli(['app', 'nope', '--stdio', FIXTURE]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /lists no tool named nope/);
  const noApp = await cli(['app', 'model_only', '--stdio', FIXTURE]);
  assert.equal(noApp.code, 1);
  assert.match(noApp.stderr, /tool model_only has no app/);
  const wrong = await cli(['app', 'show_wrong_mime', '--stdio', FIXTURE]);
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /has MIME type "text\/html", not text\/html;profile=mcp-app/);
});

test('tools marks app tools and app-only tools; info lists them; read ui://… returns the document', async () => {
  const tools = JSON.parse((await cli(['tools', '--stdio', FIXTURE])).stdout) as {
    name: string;
    app?: { resourceUri?: string; visibility: string[] };
  }[];
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  assert.deepEqual(byName.get('show_panel')!.app, {
    resourceUri: 'ui://fixture/panel.html',
    visibility: ['model', 'app'],
  });
  assert.deepEqual(byName.get('app_only')!.app!.visibility, ['app']);
  assert.deepEqual(byName.get('model_only')!.app, undefined, 'a model-only tool without an app is unmarked');
  const info = JSON.parse((await cli(['info', '--stdio', FIXTURE])).stdout);
  assert.deepEqual(info.apps.appOnly, ['app_only', 'erase_notes']);
  assert.ok(info.apps.tools.includes('show_panel') && info.apps.tools.includes('flat_key'));
  const read = JSON.parse((await cli(['read', 'ui://fixture/panel.html', '--stdio', FIXTURE])).stdout);
  assert.equal(read.contents[0].mimeType, 'text/html;profile=mcp-app');
  assert.match(read.contents[0].text, /Fixture panel/);
});
