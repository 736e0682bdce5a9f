/** `mcp-workbench registry search|show|add` (dist/cli.js) against the fixture registry over real HTTP on 127.0.0.1. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startFixtureRegistry, type FixtureRegistry } from '../../fixtures/registry/registry';
import { REPO_ROOT } from '../../support/testSupport';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, ...env }, timeout: 30_000, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number')
          reject(new Error(`the CLI did not exit normally (${error.message}); stderr:\n${stderr}`));
        else resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}

let registry: FixtureRegistry;
let home: string;
before(async () => {
  registry = await startFixtureRegistry({ maxPageSize: 2 });
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-cli-'));
});
after(() => registry.close());

const configWith = (text: string) => {
  const file = path.join(fs.mkdtempSync(path.join(home, 'ws-')), '.vscode', 'mcp.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
};

describe('registry search', () => {
  test('prints one JSON array with every page followed, and warns about entries it skipped', async () => {
    const before = registry.requests.length;
    const run = await cli(['registry', 'search', '--registry', registry.url]);
    assert.equal(run.code, 0, run.stderr);
    const list = JSON.parse(run.stdout) as { name: string; version: string; runsOn: string[]; status: string }[];
    assert.ok(
      registry.requests.slice(before).filter((url) => url.includes('cursor=')).length >= 4,
      'pages were followed',
    );
    assert.deepEqual(list.find((item) => item.name === 'io.github.example/hosted')?.runsOn, ['remote']);
    assert.deepEqual(list.find((item) => item.name === 'io.github.example/bundle')?.runsOn, ['MCPB']);
    assert.equal(list.find((item) => item.name === 'io.github.example/old-thing')?.status, 'deprecated');
    assert.equal(list.filter((item) => item.name === 'io.github.example/weather').length, 1);
    assert.match(
      run.stderr,
      /skipped io\.github\.example\/broken from http:\/\/127\.0\.0\.1:\d+: .*packages must be an array/,
    );
  });

  test('filters by the search text', async () => {
    const run = await cli(['registry', 'search', 'pypi', '--registry', registry.url]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      (JSON.parse(run.stdout) as { name: string }[]).map((item) => item.name),
      ['io.github.example/pyserver'],
    );
  });
});

describe('registry show', () => {
  test('the latest version, or the one given with --version', async () => {
    const latest = await cli(['registry', 'show', 'io.github.example/weather', '--registry', registry.url]);
    assert.equal(latest.code, 0, latest.stderr);
    assert.equal((JSON.parse(latest.stdout) as { server: { version: string } }).server.version, '1.2.0');
    const old = await cli([
      'registry',
      'show',
      'io.github.example/weather',
      '--version',
      '1.0.0',
      '--registry',
      registry.url,
    ]);
    assert.equal(
      (JSON.parse(old.stdout) as { server: { version: string }; official: { isLatest: boolean } }).official.isLatest,
      false,
    );
  });

  test('an unknown server exits 1 naming it and the registry', async () => {
    const run = await cli(['registry', 'show', 'io.github.example/nope', '--registry', registry.url]);
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      new RegExp(`io\\.github\\.example/nope is not in the MCP registry at ${registry.url.replace(/\./g, '\\.')}`),
    );
  });
});

describe('registry add', () => {
  test('writes the entry and its inputs into mcp.json, keeping comments, and prints what it wrote', async () => {
    const config = configWith('{\n  // team servers\n  "servers": {}\n}\n');
    const run = await cli([
      'registry',
      'add',
      'io.github.example/hosted',
      '--registry',
      registry.url,
      '--config',
      config,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const printed = JSON.parse(run.stdout) as {
      name: string;
      entry: unknown;
      inputs: { id: string; password?: boolean }[];
    };
    assert.equal(printed.name, 'hosted');
    assert.deepEqual(printed.entry, {
      type: 'http',
      url: 'https://hosted.example.com/mcp',
      headers: { Authorization: 'Bearer ${input:hosted-token}', 'X-Region': 'eu' },
    });
    const text = fs.readFileSync(config, 'utf8');
    assert.match(text, /\/\/ team servers/);
    assert.match(text, /"id": "hosted-token"/);
    assert.match(text, /"password": true/);
    // Added again: a new key, new input ids.
    const again = await cli([
      'registry',
      'add',
      'io.github.example/hosted',
      '--registry',
      registry.url,
      '--config',
      config,
    ]);
    assert.equal((JSON.parse(again.stdout) as { name: string }).name, 'hosted-2');
  });

  test('--as, --version and --via choose the key, the version and the package or remote', async () => {
    const config = configWith('{}');
    const run = await cli([
      'registry',
      'add',
      'io.github.example/hosted',
      '--as',
      'legacy',
      '--via',
      'remote',
      '--version',
      '3.1.0',
      '--registry',
      registry.url,
      '--config',
      config,
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal((JSON.parse(run.stdout) as { name: string }).name, 'legacy');
    const missing = await cli([
      'registry',
      'add',
      'io.github.example/hosted',
      '--via',
      'npm',
      '--registry',
      registry.url,
      '--config',
      config,
    ]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /io\.github\.example\/hosted 3\.1\.0 has no npm way to run/);
  });

  test('an MCPB bundle is verified and unpacked, and the server it adds starts', async () => {
    const xdg = path.join(home, 'xdg');
    const config = configWith('{}');
    const run = await cli(
      ['registry', 'add', 'io.github.example/bundle', '--registry', registry.url, '--config', config],
      { XDG_CONFIG_HOME: xdg },
    );
    assert.equal(run.code, 0, run.stderr);
    // The bundle is on this computer only: the person is told that the entry works for them only.
    assert.match(
      run.stderr,
      /warning: the MCPB bundle was unpacked into .*io\.github\.example_bundle@1\.0\.0 on this computer; .* runs it from there, so the entry works for you only/,
    );
    const tools = await cli(['tools', '--config', config, '--server', 'bundle']);
    assert.equal(tools.code, 0, tools.stderr);
    assert.deepEqual(
      (JSON.parse(tools.stdout) as { name: string }[]).map((tool) => tool.name),
      ['count', 'fail', 'quit'],
    );
  });

  test('a deprecated entry warns first; unknown, schema-rejected and tampered entries exit 1 and leave the config byte for byte', async () => {
    const original = '{\n  // untouched\n  "servers": { "a": { "command": "node" } }\n}\n';
    const deprecated = await cli([
      'registry',
      'add',
      'io.github.example/old-thing',
      '--registry',
      registry.url,
      '--config',
      configWith(original),
    ]);
    assert.equal(deprecated.code, 0);
    assert.match(
      deprecated.stderr,
      /warning: io\.github\.example\/old-thing 0\.9\.0 is deprecated in the registry: use io\.github\.example\/weather/,
    );
    for (const [name, message] of [
      ['nope', /io\.github\.example\/nope is not in the MCP registry/],
      ['broken', /io\.github\.example\/broken.*packages must be an array/],
      ['sneaky', /io\.github\.example\/sneaky.*contains "\$\{"/],
      ['tampered-bundle', /io\.github\.example\/tampered-bundle.*does not match its fileSha256/],
    ] as const) {
      const config = configWith(original);
      const run = await cli(
        ['registry', 'add', `io.github.example/${name}`, '--registry', registry.url, '--config', config],
        { XDG_CONFIG_HOME: path.join(home, 'xdg-t') },
      );
      assert.equal(run.code, 1, `${name}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.equal(fs.readFileSync(config, 'utf8'), original, `${name} left the file as it was`);
    }
    const taken = configWith(original);
    const clash = await cli([
      'registry',
      'add',
      'io.github.example/weather',
      '--as',
      'a',
      '--registry',
      registry.url,
      '--config',
      taken,
    ]);
    assert.equal(clash.code, 1);
    assert.match(clash.stderr, /a server named "a" already exists/);
    assert.equal(fs.readFileSync(taken, 'utf8'), original);
  });

  test('an entry whose runtime arguments would run something else exits 1 naming each argument and why, and leaves the config byte for byte', async () => {
    const original = '{\n  // untouched\n  "servers": {}\n}\n';
    for (const [name, message] of [
      [
        'privileged',
        /io\.github\.example\/privileged is not added: its runtime argument "--privileged": gives the container privileges over the host; runtime argument "-v \/:\/host": mounts a folder or file of the host into the container; runtime argument "--entrypoint \/bin\/sh": replaces the program the container image runs/,
      ],
      [
        'from-git',
        /io\.github\.example\/from-git is not added: its runtime argument "--from git\+http:\/\/evil\.example\/harmless\.git": makes the launcher fetch the package from another registry/,
      ],
      [
        'other-package',
        /io\.github\.example\/other-package is not added: its runtime argument "--package=evil-pkg": selects another package than the one the entry is listed under/,
      ],
    ] as const) {
      const config = configWith(original);
      const run = await cli([
        'registry',
        'add',
        `io.github.example/${name}`,
        '--registry',
        registry.url,
        '--config',
        config,
      ]);
      assert.equal(run.code, 1, `${name}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.equal(run.stdout, '');
      assert.equal(fs.readFileSync(config, 'utf8'), original, `${name} left the file as it was`);
    }
    const shown = await cli(['registry', 'show', 'io.github.example/privileged', '--registry', registry.url]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.deepEqual((JSON.parse(shown.stdout) as { arguments: unknown }).arguments, {
      'OCI docker.io/example/harmless@1.0.0': [
        'refused: runtime argument "--privileged": gives the container privileges over the host',
        'refused: runtime argument "-v /:/host": mounts a folder or file of the host into the container',
        'refused: runtime argument "--entrypoint /bin/sh": replaces the program the container image runs',
      ],
    });
  });

  test('an unusual runtime option is written as given, with a warning naming it', async () => {
    const config = configWith('{}');
    const run = await cli([
      'registry',
      'add',
      'io.github.example/unusual',
      '--registry',
      registry.url,
      '--config',
      config,
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stderr,
      /warning: io\.github\.example\/unusual: unusual runtime argument "--frobnicate fast": is not an option MCP Workbench knows for this launcher; written as given/,
    );
    assert.deepEqual((JSON.parse(run.stdout) as { entry: { args: string[] } }).entry.args, [
      '-y',
      '--frobnicate',
      'fast',
      '@example/unusual-mcp@1.0.0',
    ]);
  });

  test('usage errors exit 2', async () => {
    for (const args of [
      ['registry'],
      ['registry', 'frobnicate'],
      ['registry', 'add', 'io.github.example/hosted', '--registry', registry.url],
      ['registry', 'show'],
      ['registry', 'search', 'a', 'b'],
    ]) {
      const run = await cli(args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
    }
  });

  test('--help documents the registry subcommand', async () => {
    const help = await cli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /registry search \[text\]/);
    assert.match(help.stdout, /registry show <name> \[--version v\]/);
    assert.match(help.stdout, /registry add <name> --config <mcp\.json> \[--as <key>\]/);
  });

  test('an unreachable registry exits 1 naming its URL', async () => {
    const run = await cli(['registry', 'search', '--registry', 'http://127.0.0.1:9']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /the MCP registry at http:\/\/127\.0\.0\.1:9 could not be reached/);
  });
});
