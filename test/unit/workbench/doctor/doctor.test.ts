import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { McpClient } from '../../../../src/protocol/client';
import { VS_CODE_TOOL_LIMIT, clientFindings } from '../../../../src/workbench/doctor/clientLimits';
import { runDoctor, type DoctorHost } from '../../../../src/workbench/doctor/doctor';
import { doctorMarkdown } from '../../../../src/workbench/doctor/doctorReport';

const SECRET = 'sk-live-0123456789abcdef';

/** A host whose steps before the start are scripted; a test that reaches the start fails. */
function host(overrides: Partial<DoctorHost> = {}): DoctorHost {
  return {
    resolve: async (definition) => ({ resolved: definition, secrets: [] }),
    planLaunch: async (server) => ({
      kind: 'ready',
      launch: { command: `/usr/bin/${server.command}`, args: server.args },
    }),
    createClient: (): McpClient => assert.fail('no client in this test'),
    inputFix: (id) => `give ${id}`,
    ...overrides,
  };
}

const WORDS = { title: 'Doctor', passed: 'passed', failed: 'failed', fix: 'Fix', summary: 'summary' };

describe('runDoctor', () => {
  test('a file that does not parse stops at the config step', async () => {
    const report = await runDoctor({ kind: 'config', file: '/w/mcp.json', text: '{"servers": {' }, host());
    assert.deepEqual(
      report.steps.map(({ step, ok }) => [step, ok]),
      [['config', false]],
    );
    assert.match(report.steps[0].detail, /\/w\/mcp.json does not parse/);
  });

  test('several servers and none named: the config step lists them', async () => {
    const text = JSON.stringify({ servers: { a: { command: 'x' }, b: { url: 'https://h/mcp' } } });
    const report = await runDoctor({ kind: 'config', file: '/w/mcp.json', text }, host());
    assert.match(report.steps[0].detail, /defines 2 servers \(a, b\) and none was named/);
    assert.match(report.steps[0].fix ?? '', /--server <name>/);
  });

  test('an input without a value: the host says how to give it', async () => {
    const text = JSON.stringify({ servers: { a: { command: 'x', env: { KEY: '${input:key}' } } } });
    const failing = host({
      resolve: async () => {
        throw Object.assign(new Error('cannot resolve ${input:key}: no value was given'), {
          detail: { kind: 'input-without-value', input: 'key' },
        });
      },
    });
    const report = await runDoctor({ kind: 'config', file: '/w/mcp.json', text }, failing);
    assert.deepEqual(report.steps.at(-1), {
      step: 'variables',
      ok: false,
      detail: 'of ${input:key}: cannot resolve ${input:key}: no value was given',
      fix: 'give key',
    });
  });

  test('a command not on PATH names it and the folders searched; resolved secrets are masked in every step', async () => {
    const text = JSON.stringify({ servers: { a: { command: 'nodee', args: ['--key', '${env:KEY}'] } } });
    const report = await runDoctor(
      { kind: 'config', file: '/w/mcp.json', text },
      host({
        resolve: async (definition) => ({
          resolved: { ...definition, command: `nodee-${SECRET}` } as typeof definition,
          secrets: [SECRET],
        }),
        planLaunch: async (server) => ({
          kind: 'not-found',
          searched: ['/usr/bin', '/bin'],
          hint: `${server.command} not found on PATH`,
        }),
      }),
    );
    const command = report.steps.at(-1);
    assert.equal(command?.step, 'command');
    assert.equal(command?.ok, false);
    assert.match(command?.detail ?? '', /the command "nodee-••••" was not found/);
    assert.match(command?.fix ?? '', /correct "command".*Folders searched: \/usr\/bin, \/bin/);
    assert.doesNotMatch(JSON.stringify(report), new RegExp(SECRET));
    assert.match(report.steps[1].detail, /resolved \$\{env:KEY\} \(values masked\)/);
  });

  test('an HTTP entry whose url is not a URL stops at the url step', async () => {
    const report = await runDoctor(
      {
        kind: 'definition',
        definition: { kind: 'http', name: 'h', url: 'not a url', headers: {}, transport: 'auto' },
        origin: '--url',
      },
      host(),
    );
    assert.deepEqual(
      report.steps.map(({ step, ok }) => [step, ok]),
      [
        ['config', true],
        ['variables', true],
        ['url', false],
      ],
    );
  });
});

describe('clientFindings', () => {
  test('over VS Code’s 128 tools, and the names VS Code and Claude Code rewrite', () => {
    const many = Array.from({ length: VS_CODE_TOOL_LIMIT + 1 }, (_, index) => `tool_${index}`);
    assert.match(clientFindings('srv', many).overLimit ?? '', /129 tools from this server alone are over it/);
    assert.equal(clientFindings('srv', many.slice(1)).overLimit, undefined);
    const findings = clientFindings('srv', ['ok_name', 'has.dot', 'x'.repeat(55)]);
    assert.deepEqual(findings.rewritten, [
      { client: 'VS Code', tools: ['has.dot'] },
      { client: 'Claude Code', tools: ['has.dot', 'x'.repeat(55)] },
    ]);
  });
});

describe('doctorMarkdown', () => {
  test('a server’s words stay inside code fences longer than any backticks they hold', () => {
    const markdown = doctorMarkdown(
      {
        server: 'evil',
        steps: [
          { step: 'start', ok: false, detail: 'stderr: ```\n[click](https://x.example) <img src=x>', fix: 'run it' },
        ],
      },
      WORDS,
    );
    assert.match(markdown, /^````text\nstderr: ```\n\[click\]\(https:\/\/x\.example\) <img src=x>\n````$/m);
    assert.match(markdown, /^## ✗ start — failed$/m);
  });
});
