/** The headless CLI (dist/cli.js, built by `npm run build`) against server-everything and bad inputs. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { EVERYTHING_SERVER, REPO_ROOT } from './testSupport';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const STDIO = `${JSON.stringify(process.execPath)} ${JSON.stringify(EVERYTHING_SERVER)} stdio`;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to completion (bounded); the CLI itself stops the server it started before exiting. */
function cli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: options.cwd ?? REPO_ROOT, env: options.env ?? process.env, timeout: 30_000, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') {
          reject(new Error(`the CLI did not exit normally (${error.message}); stderr:\n${stderr}`));
          return;
        }
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}

function json<T>(run: Run): T {
  assert.equal(run.code, 0, `exit code 0 expected; stderr:\n${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

let workspace: string;
let configFile: string;

before(() => {
  // npm test builds once before the unit tests; rebuilding here would race with other files running dist/cli.js.
  assert.ok(fs.existsSync(CLI), `${CLI} is missing: run "npm run build" first (npm test does)`);
  workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cli-test-')));
  fs.mkdirSync(path.join(workspace, '.vscode'));
  configFile = path.join(workspace, '.vscode', 'mcp.json');
  fs.writeFileSync(
    configFile,
    `{
  // VS Code's format: JSONC with comments and trailing commas.
  "inputs": [
    { "type": "promptString", "id": "x", "description": "A secret", "password": true },
  ],
  "servers": {
    /* the reference server */
    "everything": {
      "type": "stdio",
      "command": ${JSON.stringify(process.execPath)},
      "args": [${JSON.stringify(EVERYTHING_SERVER)}, "stdio"],
      "env": { "WS_FOLDER": "\${workspaceFolder}", "SECRET_FROM_INPUT": "\${input:x}" },
    },
    "broken": { "command": 42 },
  },
}
`,
  );
});

after(() => {
  if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
});

describe('mcp-workbench CLI', { timeout: 180_000, concurrency: 4 }, () => {
  test('tools', { timeout: 30_000 }, async () => {
    const tools = json<{ name: string }[]>(await cli(['tools', '--stdio', STDIO]));
    assert.ok(tools.some((t) => t.name === 'echo'));
    assert.ok(tools.some((t) => t.name === 'get-roots-list'), 'the CLI declares roots, so the conditional tool appears');
  });

  test('call echo', { timeout: 30_000 }, async () => {
    const result = json<{ content: { type: string; text: string }[] }>(await cli(['call', 'echo', '{"message":"hi"}', '--stdio', STDIO]));
    assert.deepEqual(result.content, [{ type: 'text', text: 'Echo: hi' }]);
  });

  test('call with structured output reports the validation verdict', { timeout: 30_000 }, async () => {
    const result = json<{ structuredContent: unknown; outputValidation: { kind: string } }>(
      await cli(['call', 'get-structured-content', '{"location":"Los Angeles"}', '--stdio', STDIO]),
    );
    assert.equal(result.outputValidation.kind, 'valid');
  });

  test('read', { timeout: 30_000 }, async () => {
    const result = json<{ contents: { uri: string; text: string }[] }>(await cli(['read', 'demo://resource/dynamic/text/3', '--stdio', STDIO]));
    assert.equal(result.contents[0].uri, 'demo://resource/dynamic/text/3');
    assert.match(result.contents[0].text, /^Resource 3:/);
  });

  test('prompts and prompt', { timeout: 30_000 }, async () => {
    const prompts = json<{ name: string }[]>(await cli(['prompts', '--stdio', STDIO]));
    assert.ok(prompts.some((p) => p.name === 'args-prompt'));
    const prompt = json<{ messages: { content: { text: string } }[] }>(await cli(['prompt', 'args-prompt', '{"city":"Rome"}', '--stdio', STDIO]));
    assert.equal(prompt.messages[0].content.text, "What's weather in Rome?");
  });

  test('complete', { timeout: 30_000 }, async () => {
    const completion = json<{ values: string[] }>(await cli(['complete', 'prompt', 'completable-prompt', 'department', 'Eng', '--stdio', STDIO]));
    assert.deepEqual(completion.values, ['Engineering']);
  });

  test('info', { timeout: 30_000 }, async () => {
    const info = json<{ serverInfo: { name: string }; protocolVersion: string; transport: string; instructions: string }>(await cli(['info', '--stdio', STDIO]));
    assert.equal(info.serverInfo.name, 'mcp-servers/everything');
    assert.equal(info.protocolVersion, '2025-11-25');
    assert.equal(info.transport, 'stdio');
    assert.match(info.instructions, /Everything Server/);
  });

  test('--config with comments, ${workspaceFolder} and ${input:x}', { timeout: 30_000 }, async () => {
    const result = json<{ content: { text: string }[] }>(
      await cli(['call', 'get-env', '--config', configFile, '--server', 'everything', '--input', 'x=s3cret value']),
    );
    const env = JSON.parse(result.content[0].text) as Record<string, string>;
    assert.equal(env.WS_FOLDER, workspace);
    assert.equal(env.SECRET_FROM_INPUT, 's3cret value');
  });

  test('--config without the input value is a usage error naming the input', { timeout: 30_000 }, async () => {
    const run = await cli(['info', '--config', configFile, '--server', 'everything'], { env: { ...process.env, MCP_INPUT_X: undefined } });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /input "x"/);
    assert.match(run.stderr, /--input x=/);
  });

  test('a bad server definition exits 2 naming the file and the server', { timeout: 30_000 }, async () => {
    const run = await cli(['info', '--config', configFile, '--server', 'broken']);
    assert.equal(run.code, 2, run.stderr);
    assert.ok(run.stderr.includes(configFile), run.stderr);
    assert.match(run.stderr, /server "broken"/);
    assert.equal(run.stdout, '');
  });

  test('a config file that is not JSON, or missing, exits 2 naming the file', { timeout: 30_000 }, async () => {
    const bad = path.join(workspace, 'bad.json');
    fs.writeFileSync(bad, '{ "servers": { "a": ');
    const run = await cli(['info', '--config', bad, '--server', 'a']);
    assert.equal(run.code, 2, run.stderr);
    assert.ok(run.stderr.includes(bad), run.stderr);
    const missing = path.join(workspace, 'missing.json');
    const gone = await cli(['info', '--config', missing]);
    assert.equal(gone.code, 2);
    assert.ok(gone.stderr.includes(missing), gone.stderr);
  });

  test('a missing command exits 1, says command not found and shows PATH', { timeout: 30_000 }, async () => {
    const run = await cli(['info', '--stdio', 'mcp-workbench-no-such-command-xyz --flag']);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /command not found: "mcp-workbench-no-such-command-xyz"/);
    assert.ok(run.stderr.includes(`PATH=${process.env.PATH ?? ''}`), run.stderr);
  });

  test('usage errors exit 2', { timeout: 60_000 }, async () => {
    const cases: { args: string[]; message: RegExp }[] = [
      { args: [], message: /Usage:/ },
      { args: ['frobnicate', '--stdio', STDIO], message: /unknown subcommand "frobnicate"/ },
      { args: ['tools', '--bogus'], message: /unknown option --bogus/ },
      { args: ['tools'], message: /exactly one of --stdio/ },
      { args: ['tools', '--stdio', STDIO, '--url', 'http://localhost:1/mcp'], message: /exactly one of --stdio/ },
      { args: ['tools', '--timeout', 'soon', '--stdio', STDIO], message: /--timeout needs a positive number/ },
      { args: ['call', '--stdio', STDIO], message: /call needs a tool name/ },
      { args: ['call', 'echo', '{not json', '--stdio', STDIO], message: /tool arguments must be a JSON object/ },
      { args: ['tools', '--stdio', 'node "unterminated'], message: /unterminated " quote/ },
    ];
    const runs = await Promise.all(cases.map(({ args }) => cli(args)));
    cases.forEach(({ args, message }, index) => {
      const run = runs[index];
      assert.equal(run.code, 2, `${JSON.stringify(args)} → ${run.code}; stderr:\n${run.stderr}`);
      assert.match(run.stderr, message, JSON.stringify(args));
    });
    const help = await cli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage:/);
  });

  test('a tool error exits 1 and a server error is labelled as such', { timeout: 30_000 }, async () => {
    const run = await cli(['prompt', 'no-such-prompt', '--stdio', STDIO]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /error from server: .*no-such-prompt/);
  });
});
