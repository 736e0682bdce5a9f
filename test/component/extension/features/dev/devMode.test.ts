/**
 * Dev mode's host-neutral parts: `"dev"` parsed from mcp.json (VS Code's shape), the watch globs and their `!`
 * excludes, the restart throttle (a burst of changes is one restart, with the files named), and the debugger's
 * command lines; the debug launch is proven on a real node process that opens its inspector on a port the kernel
 * picks and announces it on stderr.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as http from 'node:http';
import Module from 'node:module';
import * as net from 'node:net';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import {
  FREE_PORT_PLACEHOLDER,
  inspectorNews,
  planDebugLaunch,
  withDebugger,
  type DebugPlan,
} from '../../../../../src/extension/platform/servers/debugLaunch';
import { StdioTransport } from '../../../../../src/protocol/node/stdio';
import { launchFingerprint } from '../../../../../src/workbench/node/launchFingerprint';
import { RestartThrottle, describeChanges } from '../../../../../src/extension/features/dev/restartThrottle';
import { parseMcpConfig } from '../../../../../src/workbench/config/mcpConfig';
import {
  compileGlob,
  matchesAny,
  MAX_GLOB_LENGTH,
  type GlobMatcher,
} from '../../../../../src/workbench/config/globMatch';
import { assertProcessGone, waitFor } from '../../../../support/testSupport';
import { repoRoot } from '../../../../support/paths';

const stdio = (dev: unknown) => JSON.stringify({ servers: { app: { command: 'node', args: ['server.js'], dev } } });

describe('dev mode: "dev" in mcp.json', () => {
  test('a single glob, an array with excludes, and debug node', () => {
    const single = parseMcpConfig(stdio({ watch: 'src/**/*.ts' }));
    assert.deepEqual(single.servers[0].dev, { watch: ['src/**/*.ts'], exclude: [] });
    const parsed = parseMcpConfig(
      stdio({ watch: ['src/**', '!src/generated/**', 'package.json'], debug: { type: 'node' } }),
    );
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(parsed.servers[0].dev, {
      watch: ['src/**', 'package.json'],
      exclude: ['src/generated/**'],
      debug: { type: 'node' },
    });
  });

  test('debugpy with its path; an HTTP server may watch too; other options are kept as they are', () => {
    const parsed = parseMcpConfig(
      JSON.stringify({
        servers: {
          py: {
            command: 'python3',
            args: ['srv.py'],
            era: 'legacy',
            dev: { debug: { type: 'debugpy', debugpyPath: '/opt/debugpy' } },
          },
          remote: { type: 'http', url: 'http://127.0.0.1:1/mcp', dev: { watch: 'server/**' } },
        },
      }),
    );
    assert.deepEqual(parsed.problems, []);
    const py = parsed.servers.find((server) => server.name === 'py')!;
    assert.deepEqual(py.dev, { watch: [], exclude: [], debug: { type: 'debugpy', debugpyPath: '/opt/debugpy' } });
    assert.equal(py.era, 'legacy');
    assert.deepEqual(parsed.servers.find((server) => server.name === 'remote')!.dev, {
      watch: ['server/**'],
      exclude: [],
    });
    assert.equal(parseMcpConfig(stdio(undefined)).servers[0].dev, undefined, 'no "dev", no dev mode');
  });

  test('bad "dev" values are problems naming the server and the cause; other servers still load', () => {
    for (const [dev, cause] of [
      ['yes', /"dev" must be an object/],
      [{ watch: 3 }, /"dev.watch" must be a glob/],
      [{ watch: ['ok/**', ''] }, /"dev.watch" must be a glob/],
      [{ debug: { type: 'gdb' } }, /"dev.debug" must be \{"type": "node"\}/],
    ] as const) {
      const parsed = parseMcpConfig(
        JSON.stringify({ servers: { bad: { command: 'node', dev }, good: { command: 'node' } } }),
      );
      assert.equal(parsed.problems.length, 1, JSON.stringify(dev));
      assert.equal(parsed.problems[0].server, 'bad');
      assert.match(parsed.problems[0].message, cause);
      assert.deepEqual(
        parsed.servers.map((server) => server.name),
        ['good'],
      );
    }
  });
});

/** The compiled glob, failing the test if it was refused. */
function glob(pattern: string): GlobMatcher {
  const compiled = compileGlob(pattern);
  assert.equal(compiled.kind, 'glob', `${pattern}: ${compiled.kind === 'refused' ? compiled.reason : ''}`);
  return compiled as GlobMatcher;
}

describe('dev mode: watch globs', () => {
  test('** spans folders, * and ? stay within one, {a,b} and [..] work', () => {
    const ts = glob('src/**/*.ts');
    assert.ok(ts.test('src/a.ts') && ts.test('src/deep/er/b.ts'));
    assert.ok(!ts.test('lib/a.ts') && !ts.test('src/a.js') && !ts.test('src/a.ts.map'));
    assert.ok(glob('*.{js,mjs}').test('server.mjs') && !glob('*.{js,mjs}').test('dir/server.mjs'));
    assert.ok(glob('v?.txt').test('v1.txt') && !glob('v?.txt').test('v10.txt'));
    assert.ok(glob('file[0-9].txt').test('file7.txt') && !glob('file[0-9].txt').test('filex.txt'));
    assert.ok(glob('file[!0-9].txt').test('filex.txt') && !glob('file[!0-9].txt').test('file7.txt'));
    assert.ok(glob('src/generated/**').test('src/generated/x/y.ts'));
    assert.ok(glob('a.b').test('a.b') && !glob('a.b').test('axb'), 'a dot is literal');
    assert.ok(glob('a+b^c$d(e)f|g]h}i,j').test('a+b^c$d(e)f|g]h}i,j'), 'regular-expression syntax is literal');
  });

  test('excludes are matched on the relative path, whatever the separator', () => {
    const excludes = ['src/generated/**', '**/*.test.ts'].map(glob);
    assert.ok(matchesAny('src\\generated\\api.ts', excludes));
    assert.ok(matchesAny('src/x/a.test.ts', excludes));
    assert.ok(!matchesAny('src/x/a.ts', excludes));
  });

  test('a run of stars is one **; an overlong or invalid glob is refused with its reason, not compiled', () => {
    assert.ok(glob('src/****/*.ts').test('src/a/b/c.ts') && glob('src/***').test('src/a/b'));
    assert.ok(!glob('src/****.ts').test('lib/a.ts'));
    const long = compileGlob(`${'a/'.repeat(MAX_GLOB_LENGTH / 2)}x`);
    assert.ok(long.kind === 'refused' && /longer than 1000 characters/.test(long.reason));
    assert.equal(compileGlob('[z-a]').kind, 'refused');
  });

  test(
    'a hostile exclude (a run of stars, then Q) is matched in linear time: the extension host does not freeze',
    { timeout: 30_000 },
    () => {
      // In a child process so that a backtracking matcher fails the test by the deadline instead of hanging the run.
      const script = `
      const { compileGlob, matchesAny } = require(${JSON.stringify(path.join(repoRoot, 'src', 'workbench', 'config', 'globMatch.ts'))});
      const results = [];
      for (const exclude of ['*'.repeat(24) + 'Q', '*'.repeat(200) + 'Q', '*a'.repeat(60) + 'Q']) {
        const compiled = compileGlob(exclude);
        for (const subject of ['a'.repeat(40), 'a'.repeat(10000), 'src/' + 'a/'.repeat(5000)]) results.push(matchesAny(subject, [compiled]));
      }
      process.stdout.write(JSON.stringify(results));`;
      const started = Date.now();
      const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
        encoding: 'utf8',
        timeout: 10_000,
        killSignal: 'SIGKILL',
      });
      assert.equal(child.signal, null, `the matching was still running after ${Date.now() - started} ms`);
      assert.equal(child.status, 0, child.stderr);
      assert.deepEqual(JSON.parse(child.stdout), new Array(9).fill(false));
    },
  );
});

/** A `vscode.Uri` as far as dev mode uses it (file URIs with POSIX paths). */
class StandInUri {
  readonly scheme = 'file';
  constructor(readonly path: string) {}
  get fsPath(): string {
    return this.path;
  }
  static file(fsPath: string): StandInUri {
    return new StandInUri(fsPath);
  }
  static joinPath(base: StandInUri, ...parts: string[]): StandInUri {
    return new StandInUri(path.posix.join(base.path, ...parts));
  }
  with(change: { path: string }): StandInUri {
    return new StandInUri(change.path);
  }
  toString(): string {
    return `file://${this.path}`;
  }
}

/**
 * DevMode on a stand-in for the `vscode` API that records the file watchers it creates (their folder and glob, and
 * their change listeners) and finds `files` for `findFiles` as VS Code would: below the pattern's folder, matching its glob.
 */
function devModeWithStandIn(files: readonly string[] = []) {
  const watched: string[] = [];
  const watchers: { base: string; pattern: string; changed: (uri: StandInUri) => void }[] = [];
  const noop = { dispose: () => undefined };
  const vscode = {
    Uri: StandInUri,
    workspace: {
      getConfiguration: () => ({ get: <T>(_key: string, fallback: T) => fallback }),
      createFileSystemWatcher: (pattern: { base: unknown; pattern: string }) => {
        watched.push(pattern.pattern);
        const watcher = {
          base: pattern.base instanceof StandInUri ? pattern.base.path : String(pattern.base),
          pattern: pattern.pattern,
          changed: (_uri: StandInUri) => undefined as void,
        };
        watchers.push(watcher);
        return {
          onDidChange: (listener: (uri: StandInUri) => void) => {
            watcher.changed = listener;
            return noop;
          },
          onDidCreate: () => noop,
          onDidDelete: () => noop,
          dispose: () => undefined,
        };
      },
      findFiles: async (pattern: { base: StandInUri; pattern: string }) => {
        const base = `${pattern.base.path}/`;
        const matcher = glob(pattern.pattern);
        return files
          .filter((file) => file.startsWith(base) && matcher.test(file.slice(base.length)))
          .map((file) => new StandInUri(file));
      },
    },
    RelativePattern: class {
      constructor(
        readonly base: unknown,
        readonly pattern: string,
      ) {}
    },
  };
  const moduleLoader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = moduleLoader._load;
  moduleLoader._load = function (request, ...rest) {
    return request === 'vscode' ? vscode : load.call(this, request, ...rest);
  };
  let devModule: typeof import('../../../../../src/extension/features/dev/devMode');
  try {
    // Loaded afresh for each stand-in: a cached module would keep the first stand-in's `vscode`.
    delete require.cache[require.resolve('../../../../../src/extension/features/dev/devMode')];
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    devModule = require('../../../../../src/extension/features/dev/devMode');
  } finally {
    moduleLoader._load = load;
  }
  return { watched, watchers, DevMode: devModule.DevMode };
}

describe('dev mode: workspace trust', () => {
  test("a workspace server's watchers and excludes wait for trust; a user server's do not", async () => {
    const { watched, DevMode } = devModeWithStandIn();
    const warnings: string[] = [];
    const started: string[] = [];
    const server = (name: string, scope: 'workspace' | 'user') => {
      const dev = {
        watch: [`${name}/**`, `${name}/${'*'.repeat(24)}Q`, 'y'.repeat(MAX_GLOB_LENGTH + 1)],
        exclude: [`${'*'.repeat(24)}Q`, 'x'.repeat(MAX_GLOB_LENGTH + 1)],
      };
      const controller = {
        id: name,
        entry: { name, definition: { dev }, origin: { scope, folder: { uri: new StandInUri('/ws') } } },
        state: { kind: 'stopped' },
        log: { info: () => undefined, warn: (line: string) => warnings.push(`${name}: ${line}`) },
        mask: (text: string) => text,
        start: async () => void started.push(name),
      };
      return controller;
    };
    const servers = [server('ws', 'workspace'), server('user', 'user')];
    const manager = { servers, onDidChangeServers: () => ({ dispose: () => undefined }) };
    let trusted = false;
    const noop = { dispose: () => undefined };
    const devMode = new DevMode(
      manager as never,
      () => trusted,
      () => noop,
    );
    try {
      await devMode.sync();
      // VS Code's watcher gets a coarse glob its backtracking engine cannot be held on (watcherGlob); an overlong
      // include is not handed over.
      assert.deepEqual(watched, ['user/**', 'user/**'], 'only the user server watches in the untrusted workspace');
      assert.ok(
        warnings.every((line) => line.startsWith('user: ')),
        `the workspace's globs were not compiled: ${warnings.join('\n')}`,
      );
      assert.deepEqual(started, [], 'nothing starts untrusted');

      trusted = true;
      await devMode.workspaceTrustGranted();
      assert.deepEqual(
        watched,
        ['user/**', 'user/**', 'ws/**', 'ws/**'],
        "trust sets up the workspace server's watchers",
      );
      assert.deepEqual(started.sort(), ['user', 'ws']);
      // (The watch's count of matching files may warn too, once the watchers are set up.)
      const refused = warnings.filter((line) => line.startsWith('ws: ') && line.includes(' is ignored: '));
      assert.equal(refused.length, 2, 'the overlong include and exclude are reported once each');
      assert.ok(
        refused.every((line) => /is ignored: it is longer than 1000 characters/.test(line)),
        refused.join('\n'),
      );
    } finally {
      devMode.dispose();
    }
  });
});

describe('dev mode: the folder the watch globs are relative to', () => {
  test("globs are relative to the server's cwd (variables resolved), else the workspace folder; the log names the folder and how many files match", async () => {
    const { watchers, DevMode } = devModeWithStandIn([
      '/elsewhere/myserver/server.mjs',
      '/elsewhere/myserver/lib/util.mjs',
      '/elsewhere/myserver/notes.txt',
      '/ws/tools/srv/main.mjs',
      '/ws/server.mjs',
    ]);
    const lines: string[] = [];
    const server = (name: string, cwd: string | undefined, watch: string) => {
      const definition = { kind: 'stdio', command: 'node', args: [], cwd, dev: { watch: [watch], exclude: [] } };
      return {
        id: name,
        entry: { name, definition, origin: { scope: 'workspace', folder: { uri: new StandInUri('/ws') } } },
        state: { kind: 'running' },
        log: {
          info: (line: string) => lines.push(`${name} info: ${line}`),
          warn: (line: string) => lines.push(`${name} warn: ${line}`),
        },
        mask: (text: string) => text,
        start: async () => undefined,
      };
    };
    const servers = [
      // The trial's server: kept outside the workspace, watched by a glob written from its own folder.
      server('outside', '/elsewhere/myserver', '**/*.mjs'),
      server('inside', '${workspaceFolder}/tools/srv', '*.mjs'),
      server('relative', 'tools/srv', '*.mjs'),
      server('plain', undefined, '*.mjs'),
      server('typo', '/elsewhere/myserver', 'src/**/*.mjs'),
      server('asks', '${input:folder}', '*.mjs'),
    ];
    const devMode = new DevMode(
      { servers, onDidChangeServers: () => ({ dispose: () => undefined }) } as never,
      () => true,
      () => ({ dispose: () => undefined }),
    );
    try {
      await devMode.sync();
      assert.deepEqual(
        watchers.map(({ base, pattern }) => `${base} ${pattern}`),
        [
          '/elsewhere/myserver **',
          '/ws/tools/srv *',
          '/ws/tools/srv *',
          '/ws *',
          '/elsewhere/myserver src/**',
          '/ws *',
        ],
        "VS Code's watchers get coarse globs; the includes are matched here",
      );
      await waitFor(() => lines.filter((line) => / match(es)? now|no file in /.test(line)).length === 6, 'every count');
      const said = (name: string) => lines.filter((line) => line.startsWith(`${name} `)).join('\n');
      assert.match(
        said('outside'),
        /watching \*\*\/\*\.mjs in \/elsewhere\/myserver \(the server's cwd "\/elsewhere\/myserver"\)/,
      );
      assert.match(said('outside'), /2 files in \/elsewhere\/myserver match now \(lib\/util\.mjs, server\.mjs\)/);
      assert.match(said('inside'), /in \/ws\/tools\/srv \(the server's cwd "\$\{workspaceFolder\}\/tools\/srv"\)/);
      assert.match(said('inside'), /1 file in \/ws\/tools\/srv matches now \(main\.mjs\)/);
      assert.match(said('relative'), /1 file in \/ws\/tools\/srv matches now/);
      assert.match(said('plain'), /in \/ws \(the workspace folder\)/);
      assert.match(said('plain'), /1 file in \/ws matches now \(server\.mjs\)/);
      assert.match(
        said('typo'),
        /warn: Dev mode: no file in \/elsewhere\/myserver matches src\/\*\*\/\*\.mjs, so no change restarts the server yet/,
      );
      assert.match(said('asks'), /warn: Dev mode: the server's cwd "\$\{input:folder\}" is not known before it starts/);

      // A save of the server kept outside the workspace restarts it, named relative to its folder.
      const restarts: string[] = [];
      (servers[0] as unknown as { restart: () => Promise<void> }).restart = async () => void restarts.push('outside');
      // The coarse watcher reports notes.txt too; the include (**/*.mjs) leaves it out.
      watchers[0].changed(new StandInUri('/elsewhere/myserver/notes.txt'));
      watchers[0].changed(new StandInUri('/elsewhere/myserver/server.mjs'));
      await waitFor(() => restarts.length === 1, 'the restart after the save', 5_000);
      assert.match(said('outside'), /restarting because server\.mjs changed/);
      assert.doesNotMatch(said('outside'), /notes\.txt/);
    } finally {
      devMode.dispose();
    }
  });

  test('when the coarse glob finds more files than are counted, the log does not claim that none matches', async () => {
    const files = Array.from({ length: 1000 }, (_, index) => `/ws/generated-${index}.txt`);
    const { DevMode } = devModeWithStandIn(files);
    const lines: string[] = [];
    const definition = { kind: 'stdio', command: 'node', args: [], dev: { watch: ['*.mjs'], exclude: [] } };
    const controller = {
      id: 's',
      entry: { name: 's', definition, origin: { scope: 'workspace', folder: { uri: new StandInUri('/ws') } } },
      state: { kind: 'running' },
      log: { info: (line: string) => lines.push(line), warn: (line: string) => lines.push(`warn: ${line}`) },
      mask: (text: string) => text,
      start: async () => undefined,
    };
    const devMode = new DevMode(
      { servers: [controller], onDidChangeServers: () => ({ dispose: () => undefined }) } as never,
      () => true,
      () => ({ dispose: () => undefined }),
    );
    try {
      await devMode.sync();
      await waitFor(() => lines.some((line) => /counted|no file/.test(line)), 'the count line');
      assert.ok(
        lines.includes(
          'Dev mode: more than 1000 files in /ws to look through, so the files matching *.mjs were not counted',
        ),
        lines.join('\n'),
      );
      assert.ok(!lines.some((line) => line.startsWith('warn:')), lines.join('\n'));
    } finally {
      devMode.dispose();
    }
  });

  test('a changed cwd sets the watchers up again in the new folder', async () => {
    const { watchers, DevMode } = devModeWithStandIn();
    const definition = { kind: 'stdio', command: 'node', args: [], cwd: '/a', dev: { watch: ['*.mjs'], exclude: [] } };
    const controller = {
      id: 's',
      entry: { name: 's', definition, origin: { scope: 'workspace', folder: { uri: new StandInUri('/ws') } } },
      state: { kind: 'running' },
      log: { info: () => undefined, warn: () => undefined },
      mask: (text: string) => text,
      start: async () => undefined,
    };
    const devMode = new DevMode(
      { servers: [controller], onDidChangeServers: () => ({ dispose: () => undefined }) } as never,
      () => true,
      () => ({ dispose: () => undefined }),
    );
    try {
      await devMode.sync();
      controller.entry = { ...controller.entry, definition: { ...definition, cwd: '/b' } };
      await devMode.sync();
      assert.deepEqual(
        watchers.map((watcher) => watcher.base),
        ['/a', '/b'],
      );
    } finally {
      devMode.dispose();
    }
  });
});

describe('dev mode: throttled restart', () => {
  test('a burst of changes is one restart naming the files; changes during a restart make exactly one more', async () => {
    const reasons: string[] = [];
    let release: (() => void) | undefined;
    let restarting = false;
    const throttle = new RestartThrottle(
      () => 20,
      async (reason) => {
        reasons.push(reason);
        restarting = true;
        await new Promise<void>((resolve) => (release = resolve));
        restarting = false;
      },
    );
    throttle.change('src/a.ts');
    throttle.change('src/b.ts');
    throttle.change('src/a.ts');
    await waitFor(() => restarting, 'the first restart began');
    assert.deepEqual(reasons, ['src/a.ts, src/b.ts changed']);
    throttle.change('src/c.ts');
    throttle.change('src/d.ts');
    release!();
    await waitFor(() => reasons.length === 2 && restarting, 'the second restart began');
    assert.deepEqual(reasons[1], 'src/c.ts, src/d.ts changed');
    release!();
    await throttle.settled();
    assert.equal(reasons.length, 2, 'no third restart: nothing changed meanwhile');
    throttle.dispose();
  });

  test('a long list of changes is summarized', () => {
    assert.equal(describeChanges(['a', 'b', 'c', 'd', 'e']), 'a, b, c and 2 more changed');
  });
});

describe('dev mode: debugger command lines', () => {
  const server = {
    kind: 'stdio' as const,
    name: 'app',
    command: 'node',
    args: ['server.js', '--flag'],
    env: {},
    cwd: '/tmp',
  };
  const noPortAsked = async (): Promise<number> => assert.fail('node does not need a port chosen before its start');

  test("node gets --inspect-brk on a loopback port of the kernel's choosing before its script; other commands are not wrapped", async () => {
    const plan = await planDebugLaunch(server, { type: 'node' }, 'app', noPortAsked);
    assert.equal(plan.kind, 'debug');
    if (plan.kind !== 'debug') return;
    assert.deepEqual(withDebugger(server, plan, 'run').args, ['--inspect-brk=127.0.0.1:0', 'server.js', '--flag']);
    assert.deepEqual(plan.listen, { kind: 'announced' });
    const attach = plan.attachTo(40123);
    assert.equal(attach.type, 'node');
    assert.equal(attach.request, 'attach');
    assert.equal(attach.port, 40123);
    assert.equal(attach.address, '127.0.0.1');
    const npx = await planDebugLaunch({ ...server, command: 'npx' }, { type: 'node' }, 'app', noPortAsked);
    assert.equal(npx.kind, 'not-possible');
  });

  test('python is wrapped with debugpy (or the given debugpyPath) on a port chosen before the start, waiting for the client', async () => {
    const port5678 = async () => 5678;
    const plan = await planDebugLaunch(
      { ...server, command: '/usr/bin/python3', args: ['srv.py'] },
      { type: 'debugpy' },
      'py',
      port5678,
    );
    assert.ok(plan.kind === 'debug');
    assert.deepEqual(withDebugger({ ...server, args: ['srv.py'] }, plan, 'run').args, [
      '-m',
      'debugpy',
      '--listen',
      '127.0.0.1:5678',
      '--wait-for-client',
      'srv.py',
    ]);
    assert.deepEqual(plan.listen, { kind: 'chosen', port: 5678 });
    assert.deepEqual(plan.attachTo(5678).connect, { host: '127.0.0.1', port: 5678 });
    const withPath = await planDebugLaunch(
      { ...server, command: 'python', args: ['srv.py'] },
      { type: 'debugpy', debugpyPath: '/opt/debugpy' },
      'py',
      port5678,
    );
    assert.ok(withPath.kind === 'debug');
    assert.deepEqual(withDebugger(server, withPath, 'run').args.slice(0, 2), ['/opt/debugpy', '--listen']);
    assert.equal(
      (await planDebugLaunch({ ...server, command: 'uv' }, { type: 'debugpy' }, 'py', port5678)).kind,
      'not-possible',
    );
  });

  test("the consent is remembered by the debugger's flags: node's never change, debugpy's port is a placeholder; adding the debugger asks again", async () => {
    const definition = { ...server, dev: { watch: [], exclude: [], debug: { type: 'node' as const } } };
    const remembered = (plan: Extract<DebugPlan, { kind: 'debug' }>, on: typeof server = definition) =>
      launchFingerprint('ws:app', withDebugger(on, plan, 'fingerprint'), []);
    const node = await planDebugLaunch(definition, { type: 'node' }, 'app', noPortAsked);
    assert.ok(node.kind === 'debug');
    // What the consent shows is what runs, and what is remembered.
    assert.deepEqual(withDebugger(definition, node, 'fingerprint'), withDebugger(definition, node, 'run'));
    assert.notEqual(remembered(node), launchFingerprint('ws:app', server, []), 'adding the debugger asks again');

    const python = { ...server, command: 'python3', args: ['srv.py'] };
    const onPort = async (port: number) => {
      const plan = await planDebugLaunch(python, { type: 'debugpy' }, 'py', async () => port);
      assert.ok(plan.kind === 'debug');
      return plan;
    };
    const first = await onPort(5678);
    const second = await onPort(40123);
    assert.deepEqual(withDebugger(python, first, 'run').args.slice(0, 4), [
      '-m',
      'debugpy',
      '--listen',
      '127.0.0.1:5678',
    ]);
    assert.deepEqual(withDebugger(python, first, 'fingerprint').args.slice(0, 4), [
      '-m',
      'debugpy',
      '--listen',
      `127.0.0.1:${FREE_PORT_PLACEHOLDER}`,
    ]);
    assert.equal(remembered(first, python), remembered(second, python), 'a restart on another port does not ask again');
    assert.notEqual(
      remembered(first, python),
      launchFingerprint('ws:app', withDebugger(python, first, 'run'), []),
      'the port is not part of what is remembered',
    );
    // An HTTP server is never wrapped.
    const http = {
      kind: 'http' as const,
      name: 'remote',
      url: 'http://127.0.0.1:1/mcp',
      headers: {},
      transport: 'auto' as const,
    };
    assert.deepEqual(withDebugger(http, first, 'run'), http);
  });

  test(
    'the planned node command line opens the inspector on a port the kernel picks and announces it as the first line on stderr',
    { timeout: 20_000 },
    async () => {
      const script = { ...server, command: process.execPath, args: ['-e', 'console.error("the script ran")'] };
      const plan = await planDebugLaunch(script, { type: 'node' }, 'app', noPortAsked);
      assert.ok(plan.kind === 'debug');
      const planned = withDebugger(script, plan, 'run');
      const transport = new StdioTransport({ command: planned.command, args: planned.args, shutdownGraceMs: 1000 });
      const lines: string[] = [];
      const announced = new Promise<number>((resolve) => {
        transport.onStderrLine((line) => {
          lines.push(line);
          const news = inspectorNews(line);
          if (news.kind === 'listening') resolve(news.port);
        });
      });
      await transport.start({
        onMessage: () => undefined,
        onUnparsable: () => undefined,
        onWarning: () => undefined,
        onClose: () => undefined,
      });
      try {
        const port = await announced;
        assert.deepEqual(inspectorNews(lines[0]), { kind: 'listening', port }, "node's announcement is the first line");
        const targets = await new Promise<{ type: string; webSocketDebuggerUrl: string }[]>((resolve, reject) => {
          http
            .get(`http://127.0.0.1:${port}/json/list`, (response) => {
              let body = '';
              response.on('data', (chunk: Buffer) => (body += chunk.toString()));
              response.on('end', () => resolve(JSON.parse(body)));
            })
            .on('error', reject);
        });
        assert.equal(targets.length, 1, 'one debug target on the announced port');
        assert.equal(targets[0].type, 'node');
        assert.match(targets[0].webSocketDebuggerUrl, new RegExp(`^ws://127\\.0\\.0\\.1:${port}/`));
        assert.equal(transport.pid !== undefined, true);
      } finally {
        const pid = transport.pid;
        await transport.close();
        if (pid !== undefined) await assertProcessGone(pid, 'the inspected node');
      }
    },
  );

  test(
    "node's own line for an inspector it could not bind is read as a failure, not as a port",
    { timeout: 20_000 },
    async () => {
      const taken = net.createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const { port } = taken.address() as net.AddressInfo;
      try {
        const child = spawn(process.execPath, [`--inspect=127.0.0.1:${port}`, '-e', ''], {
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        await new Promise((resolve) => child.once('close', resolve));
        const news = stderr.split(/\r?\n/).map(inspectorNews);
        assert.ok(
          news.some((item) => item.kind === 'failed'),
          `node said it could not bind: ${stderr}`,
        );
        assert.ok(!news.some((item) => item.kind === 'listening'), stderr);
      } finally {
        taken.close();
      }
    },
  );

  test('only a loopback announcement with a port in range is a port', () => {
    assert.deepEqual(inspectorNews('Debugger listening on ws://127.0.0.1:9229/0f2c8a3e-1111-2222-3333-444455556666'), {
      kind: 'listening',
      port: 9229,
    });
    assert.deepEqual(inspectorNews('Debugger listening on ws://0.0.0.0:9229/x'), { kind: 'other' });
    assert.deepEqual(inspectorNews('Debugger listening on ws://127.0.0.1:99999/x'), { kind: 'other' });
    assert.deepEqual(inspectorNews('Debugger listening on ws://127.0.0.1:0/x'), { kind: 'other' });
    assert.deepEqual(inspectorNews('log: Debugger listening on ws://127.0.0.1:9229/x'), { kind: 'other' });
    assert.deepEqual(inspectorNews('For help, see: https://nodejs.org/en/docs/inspector'), { kind: 'other' });
  });
});
