/**
 * Dev mode's host-neutral parts: `"dev"` parsed from mcp.json (VS Code's shape), the watch globs and their `!`
 * excludes, the restart throttle (a burst of changes is one restart, with the files named), and the debugger's
 * command lines; the debug launch is proven on a real node process that opens its inspector on the planned port.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as http from 'node:http';
import { describe, test } from 'node:test';
import { FREE_PORT_PLACEHOLDER, planDebugLaunch, withDebugger } from '../../src/extension/dev/debugLaunch';
import { launchFingerprint } from '../../src/workbench/node/launchFingerprint';
import { freeLoopbackPort } from '../../src/extension/dev/freePort';
import { RestartThrottle, describeChanges } from '../../src/extension/dev/restartThrottle';
import { parseMcpConfig } from '../../src/workbench/config/mcpConfig';
import { globToRegExp, matchesAny } from '../../src/workbench/config/globMatch';
import { assertProcessGone, waitFor } from './testSupport';

const stdio = (dev: unknown) => JSON.stringify({ servers: { app: { command: 'node', args: ['server.js'], dev } } });

describe('dev mode: "dev" in mcp.json', () => {
  test('a single glob, an array with excludes, and debug node', () => {
    const single = parseMcpConfig(stdio({ watch: 'src/**/*.ts' }));
    assert.deepEqual(single.servers[0].dev, { watch: ['src/**/*.ts'], exclude: [] });
    const parsed = parseMcpConfig(stdio({ watch: ['src/**', '!src/generated/**', 'package.json'], debug: { type: 'node' } }));
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(parsed.servers[0].dev, { watch: ['src/**', 'package.json'], exclude: ['src/generated/**'], debug: { type: 'node' } });
  });

  test('debugpy with its path; an HTTP server may watch too; other options are kept as they are', () => {
    const parsed = parseMcpConfig(
      JSON.stringify({
        servers: {
          py: { command: 'python3', args: ['srv.py'], era: 'legacy', dev: { debug: { type: 'debugpy', debugpyPath: '/opt/debugpy' } } },
          remote: { type: 'http', url: 'http://127.0.0.1:1/mcp', dev: { watch: 'server/**' } },
        },
      }),
    );
    assert.deepEqual(parsed.problems, []);
    const py = parsed.servers.find((server) => server.name === 'py')!;
    assert.deepEqual(py.dev, { watch: [], exclude: [], debug: { type: 'debugpy', debugpyPath: '/opt/debugpy' } });
    assert.equal(py.era, 'legacy');
    assert.deepEqual(parsed.servers.find((server) => server.name === 'remote')!.dev, { watch: ['server/**'], exclude: [] });
    assert.equal(parseMcpConfig(stdio(undefined)).servers[0].dev, undefined, 'no "dev", no dev mode');
  });

  test('bad "dev" values are problems naming the server and the cause; other servers still load', () => {
    for (const [dev, cause] of [
      ['yes', /"dev" must be an object/],
      [{ watch: 3 }, /"dev.watch" must be a glob/],
      [{ watch: ['ok/**', ''] }, /"dev.watch" must be a glob/],
      [{ debug: { type: 'gdb' } }, /"dev.debug" must be \{"type": "node"\}/],
    ] as const) {
      const parsed = parseMcpConfig(JSON.stringify({ servers: { bad: { command: 'node', dev }, good: { command: 'node' } } }));
      assert.equal(parsed.problems.length, 1, JSON.stringify(dev));
      assert.equal(parsed.problems[0].server, 'bad');
      assert.match(parsed.problems[0].message, cause);
      assert.deepEqual(parsed.servers.map((server) => server.name), ['good']);
    }
  });
});

describe('dev mode: watch globs', () => {
  test('** spans folders, * and ? stay within one, {a,b} and [..] work', () => {
    const ts = globToRegExp('src/**/*.ts');
    assert.ok(ts.test('src/a.ts') && ts.test('src/deep/er/b.ts'));
    assert.ok(!ts.test('lib/a.ts') && !ts.test('src/a.js') && !ts.test('src/a.ts.map'));
    assert.ok(globToRegExp('*.{js,mjs}').test('server.mjs') && !globToRegExp('*.{js,mjs}').test('dir/server.mjs'));
    assert.ok(globToRegExp('v?.txt').test('v1.txt') && !globToRegExp('v?.txt').test('v10.txt'));
    assert.ok(globToRegExp('file[0-9].txt').test('file7.txt') && !globToRegExp('file[0-9].txt').test('filex.txt'));
    assert.ok(globToRegExp('src/generated/**').test('src/generated/x/y.ts'));
    assert.ok(globToRegExp('a.b').test('a.b') && !globToRegExp('a.b').test('axb'), 'a dot is literal');
  });

  test('excludes are matched on the relative path, whatever the separator', () => {
    const excludes = ['src/generated/**', '**/*.test.ts'].map(globToRegExp);
    assert.ok(matchesAny('src\\generated\\api.ts', excludes));
    assert.ok(matchesAny('src/x/a.test.ts', excludes));
    assert.ok(!matchesAny('src/x/a.ts', excludes));
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
  const server = { kind: 'stdio' as const, name: 'app', command: 'node', args: ['server.js', '--flag'], env: {}, cwd: '/tmp' };

  test('node gets --inspect-brk on the loopback port before its script; other commands are not wrapped', () => {
    const plan = planDebugLaunch(server, { type: 'node' }, 9231, 'app');
    assert.equal(plan.kind, 'debug');
    if (plan.kind !== 'debug') return;
    assert.deepEqual(withDebugger(server, plan, 'run').args, ['--inspect-brk=127.0.0.1:9231', 'server.js', '--flag']);
    assert.equal(plan.attach.type, 'node');
    assert.equal(plan.attach.request, 'attach');
    assert.equal(plan.attach.port, 9231);
    assert.equal(plan.attach.address, '127.0.0.1');
    const npx = planDebugLaunch({ ...server, command: 'npx' }, { type: 'node' }, 9231, 'app');
    assert.equal(npx.kind, 'not-possible');
  });

  test('python is wrapped with debugpy (or the given debugpyPath), waiting for the client', () => {
    const plan = planDebugLaunch({ ...server, command: '/usr/bin/python3', args: ['srv.py'] }, { type: 'debugpy' }, 5678, 'py');
    assert.ok(plan.kind === 'debug');
    assert.deepEqual(withDebugger({ ...server, args: ['srv.py'] }, plan, 'run').args, ['-m', 'debugpy', '--listen', '127.0.0.1:5678', '--wait-for-client', 'srv.py']);
    assert.deepEqual(plan.attach.connect, { host: '127.0.0.1', port: 5678 });
    const withPath = planDebugLaunch({ ...server, command: 'python', args: ['srv.py'] }, { type: 'debugpy', debugpyPath: '/opt/debugpy' }, 5678, 'py');
    assert.ok(withPath.kind === 'debug');
    assert.deepEqual(withDebugger(server, withPath, 'run').args.slice(0, 2), ['/opt/debugpy', '--listen']);
    assert.equal(planDebugLaunch({ ...server, command: 'uv' }, { type: 'debugpy' }, 5678, 'py').kind, 'not-possible');
  });

  test('the consent is remembered by the debugger\'s flags with the port as a placeholder: a new port is the same consent, adding the debugger is not', () => {
    const definition = { ...server, dev: { watch: [], exclude: [], debug: { type: 'node' as const } } };
    const onPort = (port: number) => {
      const plan = planDebugLaunch(definition, { type: 'node' }, port, 'app');
      assert.ok(plan.kind === 'debug');
      return plan;
    };
    const first = onPort(9231);
    const second = onPort(40123);
    // What the consent shows is what runs: the flag with this start's port.
    assert.deepEqual(withDebugger(definition, first, 'run').args, ['--inspect-brk=127.0.0.1:9231', 'server.js', '--flag']);
    assert.deepEqual(withDebugger(definition, first, 'fingerprint').args, [`--inspect-brk=127.0.0.1:${FREE_PORT_PLACEHOLDER}`, 'server.js', '--flag']);
    const remembered = (plan: ReturnType<typeof onPort>) => launchFingerprint('ws:app', withDebugger(definition, plan, 'fingerprint'), []);
    assert.equal(remembered(first), remembered(second), 'a restart on another port does not ask again');
    assert.notEqual(remembered(first), launchFingerprint('ws:app', server, []), 'adding the debugger asks again');
    assert.notEqual(remembered(first), launchFingerprint('ws:app', withDebugger(definition, first, 'run'), []), 'the port is not part of what is remembered');
    // An HTTP server is never wrapped.
    const http = { kind: 'http' as const, name: 'remote', url: 'http://127.0.0.1:1/mcp', headers: {}, transport: 'auto' as const };
    assert.deepEqual(withDebugger(http, first, 'run'), http);
  });

  test('the planned node command line opens the inspector on the free loopback port', { timeout: 20_000 }, async () => {
    const port = await freeLoopbackPort();
    const plan = planDebugLaunch({ ...server, command: process.execPath, args: ['-e', 'console.log("ran")'] }, { type: 'node' }, port, 'app');
    assert.ok(plan.kind === 'debug');
    const planned = withDebugger({ ...server, command: process.execPath, args: ['-e', 'console.log("ran")'] }, plan, 'run');
    const child = spawn(planned.command, planned.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let targets: { type: string; webSocketDebuggerUrl: string }[] = [];
      for (let attempt = 0; attempt < 150 && targets.length === 0; attempt++) {
        targets = await new Promise((resolve) => {
          http.get(`http://127.0.0.1:${port}/json/list`, (response) => {
            let body = '';
            response.on('data', (chunk: Buffer) => (body += chunk.toString()));
            response.on('end', () => resolve(JSON.parse(body)));
          }).on('error', () => setTimeout(() => resolve([]), 100));
        });
      }
      assert.equal(targets.length, 1, 'one debug target on 127.0.0.1');
      assert.equal(targets[0].type, 'node');
      assert.match(targets[0].webSocketDebuggerUrl, new RegExp(`^ws://127\\.0\\.0\\.1:${port}/`));
    } finally {
      child.kill();
      if (child.pid !== undefined) await assertProcessGone(child.pid, 'the inspected node');
    }
  });
});
