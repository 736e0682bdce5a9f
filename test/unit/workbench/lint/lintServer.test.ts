import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
  MAX_FINDINGS,
  MAX_FINDINGS_PER_RULE_AND_TARGET,
  atLeast,
  bySeverity,
} from '../../../../src/workbench/lint/findings';
import { estimateTokens, lintServer, vscodeToolName, type LintInput } from '../../../../src/workbench/lint/lintServer';
import { LINT_RULES, type LintRuleId } from '../../../../src/workbench/lint/rules';
import { repoRoot } from '../../../support/paths';

const strictObject = (properties: Record<string, unknown>) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});
const cleanTool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: `Does ${name}.`,
  inputSchema: strictObject({ text: { type: 'string' } }),
  ...extra,
});

function lint(tools: unknown[], extra: Partial<LintInput> = {}) {
  return lintServer({ serverName: 'srv', protocolVersion: '2025-11-25', tools, ...extra });
}

function rulesOf(report: ReturnType<typeof lint>): LintRuleId[] {
  return report.findings.map((finding) => finding.rule);
}

/** One server per rule that breaks it (and, as far as it can, nothing else of the rule's family). */
const BREAKERS: Record<LintRuleId, () => ReturnType<typeof lint>> = {
  'mcp/required-field': () => lint([{ description: 'nameless', inputSchema: strictObject({}) }]),
  'mcp/tool-name': () => lint([cleanTool('has space')]),
  'mcp/input-schema-object': () => lint([cleanTool('t', { inputSchema: { type: 'array' } })]),
  'mcp/output-schema-object': () => lint([cleanTool('t', { outputSchema: { type: 'string' } })]),
  'mcp/structured-content-invalid': () =>
    lint([cleanTool('t', { outputSchema: strictObject({ n: { type: 'number' } }) })], {
      sample: {
        toolName: 't',
        result: { content: [{ type: 'text', text: '{"n":"x"}' }], structuredContent: { n: 'x' } },
      },
    }),
  'mcp/structured-content-missing': () =>
    lint([cleanTool('t', { outputSchema: strictObject({ n: { type: 'number' } }) })], {
      sample: { toolName: 't', result: { content: [{ type: 'text', text: 'no' }] } },
    }),
  'mcp/structured-content-text': () =>
    lint([cleanTool('t')], { sample: { toolName: 't', result: { content: [], structuredContent: { n: 1 } } } }),
  'mcp/duplicate-name': () => lint([cleanTool('t'), cleanTool('t')]),
  'schema/boolean-schema': () => lint([cleanTool('t', { inputSchema: strictObject({ any: true }) })]),
  'schema/type-array': () => lint([cleanTool('t', { inputSchema: strictObject({ n: { type: ['string', 'null'] } }) })]),
  'schema/remote-ref': () =>
    lint([cleanTool('t', { inputSchema: strictObject({ n: { $ref: 'https://x.test/s.json' } }) })]),
  'schema/untyped-schema': () => lint([cleanTool('t', { inputSchema: strictObject({ n: { description: 'any' } }) })]),
  'schema/too-large': () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 2_000; i++) properties[`p${i}`] = { type: 'string' };
    return lint([cleanTool('t', { inputSchema: strictObject(properties) })]);
  },
  'openai/strict-additional-properties': () =>
    lint([cleanTool('t', { inputSchema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } })]),
  'openai/strict-required': () =>
    lint([cleanTool('t', { inputSchema: { ...strictObject({ a: { type: 'string' } }), required: [] } })]),
  'openai/strict-unsupported-keyword': () =>
    lint([cleanTool('t', { inputSchema: strictObject({ a: { type: 'string', maxLength: 3 } }) })]),
  'provider/tool-name': () => lint([cleanTool('a.b')]),
  'gemini/root-composition': () =>
    lint([
      cleanTool('t', { inputSchema: { ...strictObject({ a: { type: 'string' } }), anyOf: [{ required: ['a'] }] } }),
    ]),
  'vscode/tool-name-prefix': () => lint([cleanTool('x'.repeat(70))]),
  'vscode/sanitized-collision': () => lint([cleanTool('a.b'), cleanTool('a_b')]),
  'vscode/tool-limit': () => lint(Array.from({ length: 129 }, (_, i) => cleanTool(`t${i}`))),
  'client/name-collision': () =>
    lint([cleanTool('search')], { otherServers: [{ name: 'other', toolNames: ['search'] }] }),
  'client/description-missing': () => lint([{ name: 't', inputSchema: strictObject({}) }]),
  'client/description-too-long': () => lint([cleanTool('t', { description: 'x'.repeat(2_049) })]),
  'context/list-tokens': () => lint([cleanTool('t')]),
  'context/deferred': () =>
    lint(Array.from({ length: 40 }, (_, i) => cleanTool(`t${i}`, { description: 'y'.repeat(2_000) }))),
  'context/tool-tokens': () => lint([cleanTool('t', { description: 'z'.repeat(4_100) })]),
};

describe('lintServer', () => {
  for (const [rule, breaker] of Object.entries(BREAKERS) as [LintRuleId, () => ReturnType<typeof lint>][]) {
    it(`finds ${rule} in a server that breaks it`, () => {
      const findings = breaker().findings.filter((finding) => finding.rule === rule);
      assert.ok(findings.length > 0, `no ${rule} finding`);
      for (const finding of findings) assert.ok(finding.message.length > 0);
    });
  }

  it('has a breaker for every rule', () => {
    assert.deepEqual(Object.keys(BREAKERS).sort(), [...LINT_RULES.keys()].sort());
  });

  it('finds nothing but the cost note in a clean server', () => {
    const report = lint(
      [cleanTool('search'), cleanTool('fetch', { outputSchema: strictObject({ n: { type: 'number' } }) })],
      {
        sample: {
          toolName: 'fetch',
          result: { content: [{ type: 'text', text: '{"n": 1}' }], structuredContent: { n: 1 } },
        },
        templates: [{ name: 'file', uriTemplate: 'file:///{path}', description: 'A file.' }],
        prompts: [{ name: 'greet', description: 'Greets.', arguments: [{ name: 'who' }] }],
      },
    );
    assert.deepEqual(rulesOf(report), ['context/list-tokens']);
  });

  it('takes the tool-name rule as a note for a revision before 2025-11-25, a warning since', () => {
    const old = lint([cleanTool('has space')], { protocolVersion: '2025-06-18' }).findings.find(
      (f) => f.rule === 'mcp/tool-name',
    );
    const current = lint([cleanTool('has space')], { protocolVersion: '2026-07-28' }).findings.find(
      (f) => f.rule === 'mcp/tool-name',
    );
    assert.equal(old?.severity, 'info');
    assert.equal(current?.severity, 'warning');
  });

  it("gives the Inspector's paths for its four checks, and lets `not` hold a keyword-less schema", () => {
    const report = lint([
      cleanTool('t', {
        inputSchema: strictObject({
          a: { type: ['string', 'null'] },
          'b c': { $ref: 'https://x.test/s.json' },
          d: { type: 'array', items: false },
          e: { not: {} },
          f: { type: 'object', properties: {}, additionalProperties: false },
        }),
      }),
    ]);
    const portability = report.findings.filter((f) => f.rule.startsWith('schema/')).map((f) => `${f.rule} ${f.path}`);
    assert.deepEqual(portability, [
      'schema/type-array inputSchema.properties.a',
      'schema/remote-ref inputSchema.properties["b c"]',
      'schema/boolean-schema inputSchema.properties.d.items',
    ]);
  });

  it('reads a remote-looking $ref as internal when the schema declares an $id', () => {
    const report = lint([
      cleanTool('t', {
        inputSchema: { ...strictObject({ n: { $ref: 'other.json' } }), $id: 'https://x.test/root.json' },
      }),
    ]);
    assert.ok(!rulesOf(report).includes('schema/remote-ref'));
  });

  it('shows the VS Code name of a tool', () => {
    assert.equal(vscodeToolName('my server', 'a.b'), 'mcp_my_server_a_b');
  });

  it("finds vscode/tool-name-prefix for a tool's own name only, not for a server name VS Code rewrites", () => {
    // `lint --url` names a server by its host and port: its characters are the server entry's, not the tools'.
    const report = lint([cleanTool('echo'), cleanTool('a.b')], { serverName: '127.0.0.1:8080' });
    const prefixed = report.findings.filter((finding) => finding.rule === 'vscode/tool-name-prefix');
    assert.deepEqual(
      prefixed.map((finding) => [finding.target, finding.message]),
      [['tool:a.b', 'VS Code shows it to the model as "mcp_127_0_0_1_8080_a_b".']],
    );
  });

  it('estimates a tool as the characters of its JSON / 4', () => {
    const tool = cleanTool('t');
    const chars = JSON.stringify({
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema,
    }).length;
    assert.equal(estimateTokens(tool), Math.ceil(chars / 4));
  });

  it('stops at the depth budget on a schema 100,000 levels deep, without recursion', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100_000; i++)
      schema = { type: 'object', properties: { a: schema }, required: ['a'], additionalProperties: false };
    const started = performance.now();
    const report = lint([cleanTool('t', { inputSchema: schema })]);
    assert.ok(performance.now() - started < 2_000);
    assert.ok(rulesOf(report).includes('schema/too-large'));
    const tooLarge = report.findings.find((f) => f.rule === 'schema/too-large');
    assert.ok((tooLarge?.path.length ?? 0) < 300, 'the path is cut short');
  });

  it('caps the findings of one rule on one tool, and of a server', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 500; i++) properties[`p${i}`] = {};
    const one = lint([cleanTool('t', { inputSchema: strictObject(properties) })]);
    assert.equal(
      one.findings.filter((f) => f.rule === 'schema/untyped-schema').length,
      MAX_FINDINGS_PER_RULE_AND_TARGET,
    );
    assert.ok(one.dropped > 0);
    const many = lint(Array.from({ length: 3_000 }, (_, i) => ({ name: `bad ${i}`, inputSchema: {} })));
    assert.equal(many.findings.length, MAX_FINDINGS);
  });

  it('checks shapes before use: a list of junk is findings, not a crash', () => {
    const report = lintServer({
      serverName: 's',
      protocolVersion: '2025-11-25',
      tools: [null, 42, 'tool', [], { name: 7 }],
      templates: [null, { name: 'x', uriTemplate: 5 }],
      prompts: [null, { name: 'p', arguments: 'no' }, { name: 'q', arguments: [null] }],
      sample: { toolName: 'missing', result: 'nope' },
    });
    assert.ok(
      report.findings.every(
        (f) => f.rule === 'mcp/required-field' || f.rule.startsWith('client/') || f.rule.startsWith('context/'),
      ),
    );
    assert.equal(report.findings.filter((f) => f.rule === 'mcp/required-field').length, 10);
  });

  it('orders errors first and compares severities', () => {
    const sorted = bySeverity(lint([{ name: 'a b', inputSchema: { type: 'array' } }]).findings);
    assert.equal(sorted[0].severity, 'error');
    assert.equal(sorted.at(-1)?.severity, 'info');
    assert.ok(atLeast('error', 'warning') && !atLeast('warning', 'error') && !atLeast('info', 'warning'));
  });

  it('is cited in docs/lint-rules.md: every rule with its sources', () => {
    const docs = fs.readFileSync(path.join(repoRoot, 'docs', 'lint-rules.md'), 'utf8');
    for (const rule of LINT_RULES.values()) {
      const row = docs.split('\n').find((line) => line.startsWith(`| \`${rule.id}\` |`));
      assert.ok(row, `docs/lint-rules.md has no row for ${rule.id}`);
      assert.ok(row.includes(`| ${rule.severity} |`), `${rule.id}: severity`);
      for (const source of rule.sources) assert.ok(row.includes(source), `${rule.id}: ${source}`);
    }
  });
});
