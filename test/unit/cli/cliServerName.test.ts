/** How the CLI names a --stdio server, and how a session line is split into words. */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { nearestPackageName, stdioServerName } from '../../../src/cli/serverName';
import { splitSessionLine } from '../../../src/cli/session';
import { splitCommandLine } from '../../../src/workbench/config/commandLine';
import { EVERYTHING_SERVER, REPO_ROOT } from '../../support/testSupport';

/** Names a command line as typed after --stdio; no package.json is consulted unless `packages` says so. */
function nameOf(commandLine: string, packages: Record<string, string> = {}, cwd = '/home/me'): string {
  const [command, ...args] = splitCommandLine(commandLine);
  return stdioServerName(command, args, cwd, (script) => {
    for (const [folder, name] of Object.entries(packages)) if (script.startsWith(folder)) return name;
    return undefined;
  });
}

describe('stdio server names', () => {
  const cases: [string, string][] = [
    ['npx -y @modelcontextprotocol/server-everything', 'server-everything'],
    ['npx -y @modelcontextprotocol/server-filesystem /tmp /home', 'server-filesystem'],
    ['npx --yes mcp-remote@latest https://example.com/mcp', 'mcp-remote'],
    ['npx -y @upstash/context7-mcp@1.0.0', 'context7-mcp'],
    ['npx.cmd -y @scope/tool', 'tool'],
    ['pnpm dlx @scope/tool', 'tool'],
    ['npm exec -- @scope/tool --flag', 'tool'],
    // A scoped package whose own name is generic keeps its scope (issue 23's sweep: three servers named "mcp").
    ['npx -y @azure-devops/mcp my-org', 'azure-devops/mcp'],
    ['npx -y @playwright/mcp@latest --headless', 'playwright/mcp'],
    ['npx -y @pandacss/mcp', 'pandacss/mcp'],
    ['npx -y @sentry/mcp-server --access-token=x', 'sentry/mcp-server'],
    ['bunx some-server', 'some-server'],
    ['uvx mcp-server-fetch', 'mcp-server-fetch'],
    ['uvx --from git+https://github.com/org/repo.git mcp-server-x', 'mcp-server-x'],
    ['uvx mcp-server-time==0.6.2 --local-timezone=UTC', 'mcp-server-time'],
    ['uv --directory /home/me/weather run weather.py', 'weather'],
    ['uv run --with mcp server.py', 'me'],
    ['uv run /srv/weather/server.py', 'weather'],
    ['python -m mcp_server_git --repository .', 'mcp_server_git'],
    ['python3 /srv/notes/src/server.py', 'notes'],
    ['node /srv/tools/counter.mjs', 'counter'],
    ['node --import tsx ./servers/inventory.ts', 'inventory'],
    ['node C:\\Users\\me\\mcp\\weather\\build\\index.js', 'weather'],
    ['"C:\\Program Files\\nodejs\\node.exe" C:\\srv\\github\\dist\\index.js', 'github'],
    ['docker run -i --rm -e GITHUB_PERSONAL_ACCESS_TOKEN ghcr.io/github/github-mcp-server', 'github-mcp-server'],
    ['docker run -i --rm -v /data:/data mcp/fetch:latest', 'fetch'],
    ['/usr/local/bin/github-mcp-server stdio', 'github-mcp-server'],
    ['mcp-server-kubernetes', 'mcp-server-kubernetes'],
    ['cmd /c npx -y @modelcontextprotocol/server-memory', 'server-memory'],
    ['sh -c "npx -y @modelcontextprotocol/server-memory"', 'server-memory'],
    ['env DEBUG=1 npx -y @scope/inner', 'inner'],
    // Nothing to look through: the launcher's own name is all there is.
    ['npx', 'npx'],
    ['python -c "print(1)"', 'python'],
  ];
  for (const [commandLine, expected] of cases) {
    test(`${commandLine} → ${expected}`, () => assert.equal(nameOf(commandLine), expected));
  }

  test('a generic script name is named after the package it belongs to', () => {
    assert.equal(nameOf('node /srv/weather-app/build/index.js', { '/srv/weather-app/': '@acme/weather' }), 'weather');
    // …and after its folder when there is no package.json.
    assert.equal(nameOf('node /srv/weather-app/build/index.js'), 'weather-app');
    assert.equal(
      nameOf('node /opt/node_modules/@playwright/mcp/cli.js', {
        '/opt/node_modules/@playwright/mcp/': '@playwright/mcp',
      }),
      'playwright/mcp',
    );
    // mcp-remote's entry script (what an installed mcp-remote runs) was named "proxy".
    assert.equal(
      nameOf('node /usr/lib/node_modules/mcp-remote/dist/proxy.js https://example.com/mcp', {
        '/usr/lib/node_modules/mcp-remote/': 'mcp-remote',
      }),
      'mcp-remote',
    );
  });

  test('the real package.json of an installed server names its dist/index.js', () => {
    assert.equal(nearestPackageName(EVERYTHING_SERVER), '@modelcontextprotocol/server-everything');
    assert.equal(stdioServerName(process.execPath, [EVERYTHING_SERVER, 'stdio'], REPO_ROOT), 'server-everything');
    const relative = path.relative(REPO_ROOT, EVERYTHING_SERVER);
    assert.equal(stdioServerName('node', [relative, 'stdio'], REPO_ROOT), 'server-everything');
  });
});

describe('session lines', () => {
  test('words, a JSON argument to the end of the line, JSON strings', () => {
    assert.deepEqual(splitSessionLine('tools'), ['tools']);
    assert.deepEqual(splitSessionLine('  call   echo {"message": "hi there"}  '), [
      'call',
      'echo',
      '{"message": "hi there"}',
    ]);
    assert.deepEqual(splitSessionLine('read "file:///a b.txt"'), ['read', 'file:///a b.txt']);
    assert.deepEqual(splitSessionLine('read "say \\"hi\\""'), ['read', 'say "hi"']);
    assert.deepEqual(splitSessionLine('complete prompt p department Eng'), [
      'complete',
      'prompt',
      'p',
      'department',
      'Eng',
    ]);
    assert.deepEqual(splitSessionLine('call x [1, 2]'), ['call', 'x', '[1, 2]']);
    assert.deepEqual(
      splitSessionLine(`call echo '{"message": "hi"}'`),
      ['call', 'echo', '{"message": "hi"}'],
      'a line copied from a shell',
    );
  });

  test('an unterminated or invalid JSON string is a usage error', () => {
    assert.throws(() => splitSessionLine('read "abc'), /unterminated " quote at column 6/);
    assert.throws(() => splitSessionLine('read "\\q"'), /not a valid JSON string/);
    assert.throws(() => splitSessionLine("call echo '{}"), /unterminated ' quote at column 11/);
  });
});
