/** The registry client and the server.json → mcp.json mapping, against the fixture registry over real HTTP. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startFixtureRegistry, type FixtureRegistry } from '../../../fixtures/registry/registry';
import { nodeBundleFolder } from '../../../../src/cli/registry';
import { parseMcpConfig } from '../../../../src/workbench/config/mcpConfig';
import { RegistryClient, RegistryError } from '../../../../src/workbench/registry/client';
import { namesInConfig, writeMappedServer } from '../../../../src/workbench/registry/configWrite';
import { exportServerJson } from '../../../../src/workbench/registry/exportServerJson';
import {
  ArgumentsRefusedError,
  mapServer,
  reviewRunOption,
  runOptions,
  statusNotice,
} from '../../../../src/workbench/registry/mapping';
import { prepareServer } from '../../../../src/workbench/registry/prepare';
import { RegistryEntryError, validateServerJson } from '../../../../src/workbench/registry/validate';

let registry: FixtureRegistry;
let client: RegistryClient;

before(async () => {
  registry = await startFixtureRegistry({ maxPageSize: 3 });
  client = new RegistryClient({ baseUrl: registry.url, pageSize: 3 });
});
after(() => registry.close());

const latest = async (name: string) => (await client.get(`io.github.example/${name}`)).server;

describe('registry client', () => {
  test('follows nextCursor through every page, keeping only the latest versions, and names rejected entries', async () => {
    const before = registry.requests.length;
    const all = await client.searchAll(undefined);
    const pages = registry.requests.slice(before);
    assert.ok(pages.length >= 4, `expected several pages, got ${pages.join(', ')}`);
    assert.ok(pages.slice(1).every((url) => url.includes('cursor=')));
    const names = all.entries.map((entry) => entry.server.name);
    assert.equal(new Set(names).size, names.length, 'each server once (latest only)');
    assert.ok(names.includes('io.github.example/weather') && names.includes('io.github.example/hosted'));
    assert.equal(
      all.entries.find((entry) => entry.server.name === 'io.github.example/weather')?.server.version,
      '1.2.0',
    );
    assert.deepEqual(all.rejected.map((rejected) => rejected.name).sort(), [
      'io.github.example/broken',
      'io.github.example/sneaky',
    ]);
    assert.match(
      all.rejected.find((r) => r.name.endsWith('sneaky'))?.reason ?? '',
      /headers\[0\]\.value contains "\$\{"/,
    );
  });

  test('searches names and descriptions', async () => {
    const found = await client.searchAll('container image');
    assert.deepEqual(
      found.entries.map((entry) => entry.server.name),
      ['io.github.example/containers'],
    );
  });

  test('lists versions and fetches one; latest unless a version is picked', async () => {
    const versions = await client.versions('io.github.example/weather');
    assert.deepEqual(
      versions.entries.map((entry) => entry.server.version),
      ['1.0.0', '1.2.0'],
    );
    const old = await client.get('io.github.example/weather', '1.0.0');
    assert.deepEqual(mapServer(old.server, { key: 'w' }).entry, {
      type: 'stdio',
      command: 'npx',
      args: ['-y', '@example/weather-mcp@1.0.0'],
    });
    assert.equal((await client.get('io.github.example/weather')).server.version, '1.2.0');
  });

  test('an unknown server, an unknown version, an unreachable registry and a schema-rejected entry each name the URL and the server', async () => {
    await assert.rejects(
      client.get('io.github.example/nope'),
      (error: RegistryError) =>
        error.kind === 'not-found' &&
        error.message.includes('io.github.example/nope') &&
        error.message.includes(registry.url),
    );
    await assert.rejects(
      client.get('io.github.example/weather', '9.9.9'),
      (error: RegistryError) => error.kind === 'not-found' && error.message.includes('io.github.example/weather'),
    );
    await assert.rejects(
      client.get('io.github.example/broken'),
      (error: RegistryError) =>
        error.kind === 'invalid-entry' &&
        /io\.github\.example\/broken.*packages must be an array.*127\.0\.0\.1/.test(error.message),
    );
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await assert.rejects(
      new RegistryClient({ baseUrl: `http://127.0.0.1:${port}` }).get('io.github.example/weather'),
      (error: RegistryError) => error.kind === 'unreachable' && error.message.includes(`http://127.0.0.1:${port}`),
    );
  });

  test('a page larger than the cap stops reading and says which limit', async () => {
    const small = new RegistryClient({ baseUrl: registry.url, limits: { maxDocumentBytes: 100 } });
    await assert.rejects(
      small.searchPage(undefined),
      (error: RegistryError) =>
        error.kind === 'invalid-response' &&
        /exceeds the limit of 800 bytes \(setting maxDocumentBytes\)/.test(error.message),
    );
  });

  test('only http(s) registry URLs are accepted', () => {
    assert.throws(
      () => new RegistryClient({ baseUrl: 'file:///etc/passwd' }),
      /not usable: file: URLs are not allowed/,
    );
    assert.equal(new RegistryClient({ baseUrl: 'https://r.example.com/v0.1/' }).baseUrl, 'https://r.example.com');
  });
});

describe('server.json → mcp.json', () => {
  test('npm: npx -y identifier@version, runtime then package arguments (named, positional, variables), env, secrets and required values as inputs', async () => {
    const mapped = mapServer(await latest('weather'), { key: 'weather' });
    assert.deepEqual(mapped.entry, {
      type: 'stdio',
      command: 'npx',
      args: [
        '-y',
        '--prefer-offline',
        '@example/weather-mcp@1.2.0',
        '--units',
        'metric',
        '--config',
        '${input:weather-dir}/weather.json',
        '${input:weather-city}',
      ],
      env: { WEATHER_API_KEY: '${input:weather-WEATHER_API_KEY}', WEATHER_REGION: 'eu', WEATHER_LOG: 'info' },
    });
    assert.deepEqual(mapped.inputs, [
      { type: 'promptString', id: 'weather-dir', description: 'Weather: Folder of the weather settings' },
      { type: 'promptString', id: 'weather-city', description: 'Weather: The default city' },
      {
        type: 'promptString',
        id: 'weather-WEATHER_API_KEY',
        description: 'Weather: Your weather API key',
        password: true,
      },
    ]);
  });

  test('PyPI: uvx identifier==version; a required value with choices is a pickString', async () => {
    const mapped = mapServer(await latest('pyserver'), { key: 'py' });
    assert.deepEqual(mapped.entry, {
      type: 'stdio',
      command: 'uvx',
      args: ['example-mcp-server==0.4.0', '${input:py-workspace}'],
      env: { LOG_LEVEL: '${input:py-LOG_LEVEL}' },
    });
    assert.deepEqual(mapped.inputs[1], {
      type: 'pickString',
      id: 'py-LOG_LEVEL',
      description: 'io.github.example/pyserver: LOG_LEVEL',
      options: ['debug', 'info'],
      default: 'info',
    });
  });

  test('OCI: docker run -i --rm, runtime arguments, -e for each variable, image:version, package arguments', async () => {
    const mapped = mapServer(await latest('containers'), { key: 'c' });
    assert.deepEqual(mapped.entry, {
      type: 'stdio',
      command: 'docker',
      args: [
        'run',
        '-i',
        '--rm',
        '--network',
        'none',
        '-e',
        'API_TOKEN',
        'docker.io/example/containers-mcp:2.0.0',
        '--read-only',
      ],
      env: { API_TOKEN: '${input:c-API_TOKEN}' },
    });
    assert.equal(mapped.inputs[0].password, true);
  });

  test('NuGet: dnx identifier@version --yes -- package arguments', async () => {
    assert.deepEqual(mapServer(await latest('dotnet-tools'), { key: 'd' }).entry, {
      type: 'stdio',
      command: 'dnx',
      args: ['Example.Mcp.Server@0.3.1', '--yes', '--', 'serve'],
    });
  });

  test('remotes: Streamable HTTP as "http" with headers (a secret variable through a password input), SSE as "sse"', async () => {
    const server = await latest('hosted');
    const http1 = mapServer(server, { key: 'hosted' });
    assert.deepEqual(http1.entry, {
      type: 'http',
      url: 'https://hosted.example.com/mcp',
      headers: { Authorization: 'Bearer ${input:hosted-token}', 'X-Region': 'eu' },
    });
    assert.deepEqual(http1.inputs, [
      { type: 'promptString', id: 'hosted-token', description: 'Hosted: Your API token', password: true },
    ]);
    const sse = mapServer(server, { key: 'hosted', option: runOptions(server)[1] });
    assert.deepEqual(sse.entry, {
      type: 'sse',
      url: 'https://legacy.example.com/sse',
      headers: { 'X-Api-Key': '${input:hosted-X-Api-Key}' },
    });
  });

  test('input ids never collide with ones the file already has', async () => {
    const mapped = mapServer(await latest('hosted'), { key: 'hosted', takenInputIds: ['hosted-token'] });
    assert.equal(mapped.inputs[0].id, 'hosted-token-2');
    assert.equal((mapped.entry.headers as Record<string, string>).Authorization, 'Bearer ${input:hosted-token-2}');
  });

  test('MCPB: downloaded, checked against fileSha256, unpacked; the entry runs the manifest command in that folder', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpb-'));
    const server = await latest('bundle');
    const mapped = await prepareServer(server, { key: 'bundle', bundleFolder: (s) => nodeBundleFolder(s, base) });
    const root = path.join(base, 'io.github.example_bundle@1.0.0');
    assert.deepEqual(mapped.entry, { type: 'stdio', command: 'node', args: [`${root}/server/index.mjs`] });
    assert.equal(mapped.bundleRoot, root, 'the host learns the entry runs from a folder on this computer only');
    assert.ok(fs.readFileSync(path.join(root, 'server', 'index.mjs'), 'utf8').includes('count'));
    const tampered = await latest('tampered-bundle');
    const tamperedBase = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpb-'));
    await assert.rejects(
      prepareServer(tampered, { key: 't', bundleFolder: (s) => nodeBundleFolder(s, tamperedBase) }),
      /does not match its fileSha256.*nothing was installed/,
    );
    assert.deepEqual(fs.readdirSync(tamperedBase), [], 'nothing unpacked');
  });

  test('deprecated entries say so; deleted ones are refused', async () => {
    const old = await client.get('io.github.example/old-thing');
    assert.deepEqual(statusNotice(old), {
      kind: 'deprecated',
      message: 'io.github.example/old-thing 0.9.0 is deprecated in the registry: use io.github.example/weather',
    });
    assert.deepEqual(statusNotice(await client.get('io.github.example/weather')), { kind: 'ok' });
    assert.throws(
      () => statusNotice({ ...old, official: { status: 'deleted' } }),
      /was deleted from the registry; it is not added/,
    );
  });

  test('hostile values: no launcher but the package type’s, no option-like identifier, no ${…}, no non-http URL', () => {
    const base = { name: 'evil.example/x', description: 'x', version: '1.0.0' };
    const pkg = { registryType: 'npm', identifier: 'ok', version: '1.0.0', transport: { type: 'stdio' } };
    assert.equal(
      mapServer(validateServerJson({ ...base, packages: [{ ...pkg, runtimeHint: 'bash' }] }), { key: 'x' }).entry
        .command,
      'npx',
    );
    assert.throws(
      () => validateServerJson({ ...base, packages: [{ ...pkg, identifier: '--call=rm' }] }),
      (e: Error) => e instanceof RegistryEntryError && /evil\.example\/x.*identifier/.test(e.message),
    );
    assert.throws(() => validateServerJson({ ...base, packages: [{ ...pkg, runtimeHint: 'sh -c' }] }), /runtimeHint/);
    assert.throws(
      () =>
        validateServerJson({
          ...base,
          packages: [{ ...pkg, packageArguments: [{ type: 'positional', value: '${env:HOME}' }] }],
        }),
      /packageArguments\[0\]\.value contains "\$\{"/,
    );
    assert.throws(
      () => validateServerJson({ ...base, remotes: [{ type: 'sse', url: 'javascript:alert(1)' }] }),
      /remotes\[0\]\.url is not an acceptable http\(s\) URL/,
    );
    assert.throws(
      () => validateServerJson({ ...base, remotes: [{ type: 'sse', url: 'https://good.example@evil.example/' }] }),
      /user name/,
    );
    assert.throws(
      () => mapServer(validateServerJson({ ...base, packages: [{ ...pkg, registryType: 'cargo' }] }), { key: 'x' }),
      /"cargo" cannot be run/,
    );
    assert.throws(
      () =>
        mapServer(
          validateServerJson({
            ...base,
            packages: [{ ...pkg, transport: { type: 'streamable-http', url: 'http://localhost:{port}/mcp' } }],
          }),
          { key: 'x' },
        ),
      /serves streamable-http.*choose a remote/,
    );
    assert.throws(() => validateServerJson({ ...base, name: 'no-slash' }), /reverse-DNS/);
  });

  test('runtime arguments that would run something else than the label refuse the entry, naming each argument and why', async () => {
    const cases: [string, RegExp][] = [
      [
        'privileged',
        /io\.github\.example\/privileged is not added: its runtime argument "--privileged": gives the container privileges over the host; runtime argument "-v \/:\/host": mounts a folder or file of the host into the container; runtime argument "--entrypoint \/bin\/sh": replaces the program/,
      ],
      ['from-git', /runtime argument "--from git\+http:\/\/evil\.example\/harmless\.git": makes the launcher fetch/],
      ['other-package', /runtime argument "--package=evil-pkg": selects another package/],
    ];
    for (const [name, message] of cases) {
      const server = await latest(name);
      assert.throws(
        () => mapServer(server, { key: name }),
        (error: Error) => error instanceof ArgumentsRefusedError && message.test(error.message),
        name,
      );
      assert.equal(reviewRunOption(server, runOptions(server)[0])?.findings[0].verdict, 'refused', name);
    }
  });

  test('an unusual runtime option is written, and the review names it for the host to show', async () => {
    const server = await latest('unusual');
    const mapped = mapServer(server, { key: 'u' });
    assert.deepEqual(mapped.entry.args, ['-y', '--frobnicate', 'fast', '@example/unusual-mcp@1.0.0']);
    assert.deepEqual(mapped.review?.findings, [
      { verdict: 'unusual', reason: 'unknown-option', place: 'runtime', argument: '--frobnicate fast' },
    ]);
    assert.deepEqual(reviewRunOption(server, runOptions(server)[0])?.findings, mapped.review?.findings);
    assert.deepEqual(mapServer(await latest('containers'), { key: 'c' }).review?.findings, []);
  });

  test('an environment variable the launcher reads, or a shell in an MCPB bundle’s arguments, refuses the entry before any download', async () => {
    const base = { name: 'evil.example/x', description: 'x', version: '1.0.0' };
    const env = validateServerJson({
      ...base,
      packages: [
        {
          registryType: 'npm',
          identifier: 'ok',
          version: '1.0.0',
          transport: { type: 'stdio' },
          environmentVariables: [{ name: 'npm_config_registry', value: 'http://evil.example/' }],
        },
      ],
    });
    assert.throws(
      () => mapServer(env, { key: 'x' }),
      /environment variable "npm_config_registry": configures the launcher/,
    );
    const requested: string[] = [];
    const bundle = validateServerJson({
      ...base,
      packages: [
        {
          registryType: 'mcpb',
          identifier: 'https://bundles.example.com/x.mcpb',
          version: '1.0.0',
          fileSha256: '0'.repeat(64),
          transport: { type: 'stdio' },
          packageArguments: [
            { type: 'positional', value: 'sh' },
            { type: 'positional', value: '-c' },
          ],
        },
      ],
    });
    await assert.rejects(
      prepareServer(bundle, {
        key: 'x',
        bundleFolder: (s) => nodeBundleFolder(s, fs.mkdtempSync(path.join(os.tmpdir(), 'mcpb-'))),
        fetch: (async (url: string) => {
          requested.push(url);
          throw new Error('not fetched');
        }) as unknown as typeof fetch,
      }),
      /package argument "sh -c": runs a shell command/,
    );
    assert.deepEqual(requested, [], 'nothing was downloaded');
  });

  test('writing keeps the file’s comments and adds the inputs the entry refers to; the result parses as mcp.json', async () => {
    const text = '{\n  // my servers\n  "servers": {\n    "mine": { "command": "node" } // keep me\n  }\n}\n';
    const mapped = mapServer(await latest('hosted'), { key: 'hosted', takenInputIds: namesInConfig(text).inputIds });
    const written = writeMappedServer(text, 'hosted', mapped);
    assert.match(written, /\/\/ my servers/);
    assert.match(written, /\/\/ keep me/);
    const parsed = parseMcpConfig(written);
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(
      parsed.servers.map((s) => s.name),
      ['mine', 'hosted'],
    );
    assert.deepEqual(
      parsed.inputs.map((i) => [i.id, i.password]),
      [['hosted-token', true]],
    );
    assert.throws(() => writeMappedServer(written, 'hosted', mapped), /already exists/);
  });
});

describe('Export as server.json / Import server.json', () => {
  test('an npx entry exports as an npm package without the values of its environment; importing it maps back to the same command', () => {
    const [definition] = parseMcpConfig(
      JSON.stringify({
        servers: {
          weather: {
            command: 'npx',
            args: ['-y', '@example/weather-mcp@1.2.0', '--units', 'metric'],
            env: { WEATHER_API_KEY: 'sk-live-123' },
          },
        },
      }),
    ).servers;
    const exported = exportServerJson(definition, { namespace: 'io.github.me' });
    assert.equal(exported.document.name, 'io.github.me/weather');
    assert.equal(exported.document.version, '1.2.0');
    assert.doesNotMatch(JSON.stringify(exported.document), /sk-live-123/);
    const imported = validateServerJson(exported.document);
    const mapped = mapServer(imported, { key: 'weather' });
    assert.deepEqual(mapped.entry, {
      type: 'stdio',
      command: 'npx',
      args: ['-y', '@example/weather-mcp@1.2.0', '--units', 'metric'],
      env: { WEATHER_API_KEY: '${input:weather-WEATHER_API_KEY}' },
    });
    assert.equal(mapped.inputs[0].password, true);
  });

  test('docker, uvx and http entries export as OCI, PyPI and remotes; an unknown launcher is named in the notes', () => {
    const { servers } = parseMcpConfig(
      JSON.stringify({
        servers: {
          d: { command: 'docker', args: ['run', '-i', '--rm', '-e', 'TOKEN', 'ghcr.io/me/img:2.1.0'] },
          p: { command: 'uvx', args: ['my-server==0.2.0'] },
          h: { type: 'sse', url: 'https://example.com/sse', headers: { Authorization: 'Bearer ${input:t}' } },
          n: { command: 'node', args: ['server.js'] },
        },
      }),
    );
    const [d, p, h, n] = servers.map((server) => exportServerJson(server));
    assert.deepEqual((d.document.packages as object[])[0], {
      registryType: 'oci',
      identifier: 'ghcr.io/me/img',
      version: '2.1.0',
      transport: { type: 'stdio' },
    });
    assert.deepEqual((p.document.packages as object[])[0], {
      registryType: 'pypi',
      identifier: 'my-server',
      version: '0.2.0',
      transport: { type: 'stdio' },
    });
    assert.deepEqual(h.document.remotes, [
      {
        type: 'sse',
        url: 'https://example.com/sse',
        headers: [{ name: 'Authorization', description: 'The Authorization header', isRequired: true, isSecret: true }],
      },
    ]);
    assert.match(n.notes.join('\n'), /"node" is not a launcher of a published package/);
  });
});
