import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import Ajv, { type ErrorObject } from 'ajv';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { importServers } from '../../../src/workbench/node/importers';
import { IMPORT_FIXTURES, importFixturePath } from '../../fixtures/configs/importFixtures';
import { repoRoot } from '../../support/paths';

const ROOT = repoRoot;
const schema: unknown = JSON.parse(readFileSync(path.join(ROOT, 'schemas', 'mcp.schema.json'), 'utf8'));
// strictRequired is off because if/then adds "required" for properties declared beside it, which is standard JSON Schema.
const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
// Keywords VS Code's JSON language service understands; ajv only needs to know they are not typos.
ajv.addVocabulary([
  'allowComments',
  'allowTrailingCommas',
  'deprecationMessage',
  'markdownDescription',
  'enumDescriptions',
]);
const validate = ajv.compile(schema as object);

function jsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  assert.deepEqual(errors, [], 'sample must be valid JSONC');
  return value;
}

function errorsOf(value: unknown): ErrorObject[] {
  return validate(value) ? [] : (validate.errors ?? []);
}

function assertValid(value: unknown, label: string): void {
  assert.deepEqual(
    errorsOf(value).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`),
    [],
    label,
  );
}

/** The error list an editor would show for `value`, reduced to "path: message". */
function problems(value: unknown): string[] {
  return errorsOf(value)
    .filter((e) => e.keyword !== 'if')
    .map(
      (e) =>
        `${e.instancePath}: ${e.keyword === 'additionalProperties' ? `unknown property "${String(e.params.additionalProperty)}"` : e.message}`,
    );
}

test('the README example is valid', () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const block = /```jsonc\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(block, 'README has a jsonc example');
  assertValid(jsonc(block), 'README');
});

test('the VS Code example from the config-format reference and the commented fixture are valid', () => {
  assertValid(
    jsonc(`{
      "inputs": [
        { "type": "promptString", "id": "perplexity-key", "description": "Perplexity API Key", "password": true }
      ],
      "servers": {
        "perplexity": { "type": "stdio", "command": "npx", "args": ["-y", "server-perplexity-ask"],
                        "env": { "PERPLEXITY_API_KEY": "\${input:perplexity-key}" } },
        "fetch":      { "command": "uvx", "args": ["mcp-server-fetch"], "envFile": "\${workspaceFolder}/.env" },
        "github":     { "type": "http", "url": "https://api.githubcopilot.com/mcp" },
        "legacy":     { "type": "sse", "url": "http://localhost:3000/sse", "headers": { "VERSION": "1.2" } }
      }
    }`),
    'reference example',
  );
  assertValid(
    jsonc(readFileSync(path.join(ROOT, 'test', 'fixtures', 'configs', 'vscode-mcp.jsonc'), 'utf8')),
    'fixture',
  );
});

test('valid VS Code fields we do not use are accepted: dev, sandbox, gallery, version, oauth, null env, pickString', () => {
  assertValid(
    {
      inputs: [
        {
          type: 'pickString',
          id: 'region',
          description: 'Region',
          options: ['eu', { label: 'US East', value: 'us-east-1' }],
          default: 'eu',
        },
        { type: 'promptString', id: 'token', password: true },
      ],
      servers: {
        local: {
          type: 'stdio',
          command: 'node',
          args: ['build/index.js'],
          env: { PORT: 3000, DEBUG: null, NAME: 'x' },
          cwd: '${workspaceFolder}',
          dev: { watch: 'build/**/*.js', debug: { type: 'node' } },
          sandboxEnabled: true,
          sandbox: {
            filesystem: { allowWrite: ['${workspaceFolder}'] },
            network: { allowedDomains: ['api.example.com'] },
          },
          gallery: true,
          version: '1.2.3',
        },
        remote: {
          type: 'http',
          url: 'https://mcp.example.com/mcp',
          oauth: { clientId: 'abc' },
          dev: { watch: ['a', 'b'] },
          gallery: 'https://gallery',
        },
        untyped: { url: 'unix:///tmp/mcp.sock#/mcp' },
      },
    },
    'full',
  );
  assertValid({}, 'empty object');
  assertValid({ mcpServers: { a: { command: 'x' } } }, 'mcpServers compatibility');
});

test('oauth: a pre-registered client with its secret from a password input, or a Client ID Metadata Document', () => {
  assertValid(
    {
      inputs: [{ type: 'promptString', id: 'client-secret', description: 'OAuth client secret', password: true }],
      servers: {
        registered: {
          type: 'http',
          url: 'https://mcp.example.com/mcp',
          oauth: { clientId: 'abc', clientSecret: '${input:client-secret}', scopes: ['mcp:read'] },
        },
        cimd: {
          type: 'http',
          url: 'https://mcp.example.com/mcp',
          oauth: { clientMetadataUrl: 'https://client.example/mcp-client.json' },
        },
      },
    },
    'oauth',
  );
  assert.deepEqual(
    problems({
      servers: { s: { type: 'http', url: 'https://x', oauth: { clientMetadataUrl: 'http://client.example/c.json' } } },
    }),
    ['/servers/s/oauth/clientMetadataUrl: must match pattern "^https://[^/]+/."'],
  );
});

test('typos are flagged by name', () => {
  assert.deepEqual(problems({ servers: { fs: { comand: 'npx', args: ['-y'] } } }), [
    "/servers/fs: must have required property 'command'",
    '/servers/fs: unknown property "comand"',
  ]);
  assert.deepEqual(problems({ servers: { fs: { command: 'npx', arg: ['-y'], enviroment: {} } } }), [
    '/servers/fs: unknown property "arg"',
    '/servers/fs: unknown property "enviroment"',
  ]);
  assert.deepEqual(problems({ servers: { gh: { type: 'http', url: 'https://x', header: {} } } }), [
    '/servers/gh: unknown property "header"',
  ]);
  assert.deepEqual(problems({ server: {} }), [': unknown property "server"']);
  assert.deepEqual(problems({ inputs: [{ type: 'promptString', id: 'k', pasword: true }] }), [
    '/inputs/0: unknown property "pasword"',
  ]);
});

test('wrong types and missing required fields are errors', () => {
  assert.deepEqual(problems({ servers: { gh: { type: 'http' } } }), ["/servers/gh: must have required property 'url'"]);
  assert.deepEqual(problems({ servers: { a: { command: 'x', env: { NESTED: { a: 1 } } } } }), [
    '/servers/a/env/NESTED: must be string,number,null',
  ]);
  assert.deepEqual(problems({ servers: { a: { command: 'x', args: '-y pkg' } } }), ['/servers/a/args: must be array']);
  assert.deepEqual(problems({ servers: { a: { command: '' } } }), [
    '/servers/a/command: must NOT have fewer than 1 characters',
  ]);
  assert.deepEqual(problems({ servers: { a: { type: 'websocket', url: 'wss://x' } } }), [
    '/servers/a/type: must be equal to one of the allowed values',
  ]);
  assert.deepEqual(problems({ servers: { a: { type: 'stdio', url: 'https://x' } } }), [
    '/servers/a/type: must be equal to one of the allowed values',
  ]);
  assert.deepEqual(problems({ inputs: [{ type: 'pickString', id: 'p' }] }), [
    "/inputs/0: must have required property 'options'",
  ]);
  assert.deepEqual(problems({ inputs: [{ type: 'secret', id: 'p' }] }), [
    '/inputs/0/type: must be equal to one of the allowed values',
  ]);
  assert.deepEqual(problems({ inputs: {} }), ['/inputs: must be array']);
  assert.deepEqual(problems({ servers: { a: { command: 'x', headers: { A: 'b' } } } }), [
    '/servers/a: unknown property "headers"',
  ]);
});

test('"era" takes auto, 2026-07-28, handshake or its earlier name legacy on stdio and http servers, and nothing else', () => {
  for (const era of ['auto', '2026-07-28', 'handshake', 'legacy']) {
    assertValid({ servers: { a: { command: 'x', era }, b: { type: 'http', url: 'https://x', era } } }, `era ${era}`);
  }
  assert.deepEqual(problems({ servers: { a: { command: 'x', era: '2025-11-25' } } }), [
    '/servers/a/era: must be equal to one of the allowed values',
  ]);
});

test('what the importers write is valid against the schema', () => {
  const servers: Record<string, unknown> = {};
  for (const [kind, file] of IMPORT_FIXTURES) {
    for (const candidate of importServers(kind, readFileSync(importFixturePath(file), 'utf8'), file, {
      takenNames: Object.keys(servers),
    }).found) {
      servers[candidate.name] = candidate.entry;
    }
  }
  assert.ok(Object.keys(servers).length >= 20);
  assertValid({ servers }, 'imported');
});

test('"cwd" and "dev" are described: where watch globs are relative to, and why VS Code 1.100 underlines the keys', () => {
  const definitions = (
    schema as {
      definitions: Record<string, { properties?: Record<string, { description?: string }>; description?: string }>;
    }
  ).definitions;
  const cwd = definitions.stdioServer.properties?.cwd?.description ?? '';
  assert.match(cwd, /defaults to the workspace folder/);
  assert.match(cwd, /"watch" globs are relative to it/);
  assert.match(cwd, /VS Code 1\.100 and earlier underline this key/);
  const dev = definitions.dev;
  assert.match(dev.description ?? '', /VS Code 1\.100 and earlier underline this key/);
  assert.match(
    dev.properties?.watch?.description ?? '',
    /Relative to the server's "cwd" when it has one, else to the workspace folder/,
  );
  assert.match(dev.properties?.debug?.description ?? '', /node.*debugpy/);
});
