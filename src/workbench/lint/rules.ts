/**
 * Every lint rule: its id, how bad a finding is, and the public text it comes from. docs/lint-rules.md is this table
 * in prose (test/unit/workbench/lint/lintServer.test.ts holds the two together), so a rule is never cited in one place
 * and not the other.
 */

export type LintSeverity = 'error' | 'warning' | 'info';

export interface LintRule {
  /** `<family>/<name>`: the family says whose rule it is (the MCP revision, a provider, a client, the context). */
  readonly id: string;
  readonly severity: LintSeverity;
  /** The public sources of the rule, first the one that decides. */
  readonly sources: readonly string[];
  /** One line: what the rule checks. */
  readonly summary: string;
}

const SPEC_TOOLS = 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools';
const SPEC_SCHEMA =
  'https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/schema/2025-11-25/schema.ts';
const INSPECTOR_LINT = 'https://github.com/modelcontextprotocol/inspector/blob/v2/main/core/json/schemaLint.ts';
const OPENAI_STRICT = 'https://platform.openai.com/docs/guides/structured-outputs#supported-schemas';
const OPENAI_FUNCTIONS = 'https://platform.openai.com/docs/guides/function-calling#strict-mode';
const OPENAI_NAME = 'https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools';
const GEMINI_FUNCTIONS = 'https://ai.google.dev/gemini-api/docs/function-calling#function_declarations';
const GEMINI_SCHEMA = 'https://ai.google.dev/api/caching#Schema';
const ANTHROPIC_TOOLS =
  'https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#specifying-client-tools';
const VSCODE_MCP = 'https://code.visualstudio.com/docs/copilot/customization/mcp-servers';
const VSCODE_TYPES = 'https://github.com/microsoft/vscode/blob/main/src/vs/workbench/contrib/mcp/common/mcpTypes.ts';
const VSCODE_128 = 'https://github.com/microsoft/vscode/issues/294055';
const CLAUDE_CODE_MCP = 'https://code.claude.com/docs/en/mcp';

const RULE_LIST = [
  // The MCP revision the server speaks.
  {
    id: 'mcp/required-field',
    severity: 'error',
    sources: [SPEC_SCHEMA],
    summary:
      'A tool, resource template or prompt lacks a field its revision requires (name, inputSchema, uriTemplate, a prompt argument name), or has it with the wrong type.',
  },
  {
    id: 'mcp/tool-name',
    severity: 'warning',
    sources: [`${SPEC_TOOLS}#tool-names`],
    summary:
      'Tool names SHOULD be 1 to 128 characters of A-Z, a-z, 0-9, _, - and . (2025-11-25 and later; info for older revisions).',
  },
  {
    id: 'mcp/input-schema-object',
    severity: 'error',
    sources: [SPEC_SCHEMA, ANTHROPIC_TOOLS],
    summary: 'inputSchema must be a JSON Schema object with "type": "object" (Anthropic\'s input_schema too).',
  },
  {
    id: 'mcp/output-schema-object',
    severity: 'error',
    sources: [`${SPEC_TOOLS}#output-schema`, SPEC_SCHEMA],
    summary: 'outputSchema, when present, must be an object schema ("type": "object").',
  },
  {
    id: 'mcp/structured-content-invalid',
    severity: 'error',
    sources: [`${SPEC_TOOLS}#output-schema`],
    summary: "A sample result's structuredContent does not conform to the tool's outputSchema (servers MUST conform).",
  },
  {
    id: 'mcp/structured-content-missing',
    severity: 'error',
    sources: [`${SPEC_TOOLS}#output-schema`],
    summary: 'A tool that declares an outputSchema returned a successful sample result without structuredContent.',
  },
  {
    id: 'mcp/structured-content-text',
    severity: 'warning',
    sources: [`${SPEC_TOOLS}#structured-content`],
    summary:
      'structuredContent SHOULD also be serialized as JSON in a TextContent block, for clients that read only content.',
  },
  {
    id: 'mcp/duplicate-name',
    severity: 'error',
    sources: [SPEC_SCHEMA, `${SPEC_TOOLS}#tool-names`],
    summary:
      'Two tools (or prompts, or resource templates) of one server share a name: a call by name reaches only one.',
  },
  // JSON Schema portability, as MCP Inspector 2.12's --strict checks it (its rule ids in the docs' table).
  {
    id: 'schema/boolean-schema',
    severity: 'error',
    sources: [INSPECTOR_LINT, GEMINI_SCHEMA],
    summary:
      'A bare true or false where a schema object is expected: the OpenAPI subset and several clients cannot express it.',
  },
  {
    id: 'schema/type-array',
    severity: 'warning',
    sources: [INSPECTOR_LINT, GEMINI_SCHEMA],
    summary:
      '"type" is an array; a single-type dialect (the OpenAPI subset Gemini uses) rejects the tool or drops the constraint.',
  },
  {
    id: 'schema/remote-ref',
    severity: 'warning',
    sources: [INSPECTOR_LINT, GEMINI_FUNCTIONS],
    summary: '$ref points outside the document; no client fetches remote schemas.',
  },
  {
    id: 'schema/untyped-schema',
    severity: 'warning',
    sources: [INSPECTOR_LINT, GEMINI_SCHEMA],
    summary: 'A schema with no validation keyword at all accepts any value (the object spelling of true).',
  },
  {
    id: 'schema/too-large',
    severity: 'warning',
    sources: ['https://github.com/mcp-workbench/mcp-workbench/blob/main/docs/lint-rules.md#bounds'],
    summary: 'The schema is deeper or larger than the lint reads; the rest of it was not checked.',
  },
  // What the model providers' tool calling accepts.
  {
    id: 'openai/strict-additional-properties',
    severity: 'warning',
    sources: [OPENAI_STRICT, OPENAI_FUNCTIONS],
    summary:
      'Strict function calling needs "additionalProperties": false on every object schema; a client falls back to non-strict calls.',
  },
  {
    id: 'openai/strict-required',
    severity: 'warning',
    sources: [OPENAI_STRICT],
    summary:
      'Strict function calling needs every property listed in "required" (an optional one is a union with null).',
  },
  {
    id: 'openai/strict-unsupported-keyword',
    severity: 'warning',
    sources: [OPENAI_STRICT],
    summary:
      'A keyword strict structured outputs do not support (allOf, not, if/then/else, dependent*, patternProperties, minLength, …).',
  },
  {
    id: 'provider/tool-name',
    severity: 'warning',
    sources: [ANTHROPIC_TOOLS, OPENAI_NAME],
    summary:
      'Anthropic and OpenAI accept tool names matching ^[a-zA-Z0-9_-]{1,64}$ only; a client must rewrite any other.',
  },
  {
    id: 'gemini/root-composition',
    severity: 'warning',
    sources: [GEMINI_FUNCTIONS, OPENAI_STRICT],
    summary: 'anyOf/oneOf/allOf at the root of inputSchema: function parameters must be a plain object schema.',
  },
  // What the clients do with a server's list.
  {
    id: 'vscode/tool-name-prefix',
    severity: 'warning',
    sources: [VSCODE_TYPES, VSCODE_MCP],
    summary:
      'VS Code shows a tool to the model as mcp_<server>_<tool>, characters outside [a-zA-Z0-9_-] replaced and cut to 64: the name the model sees differs, or is cut.',
  },
  {
    id: 'vscode/sanitized-collision',
    severity: 'error',
    sources: [VSCODE_TYPES],
    summary:
      'Two tool names of the server become the same name once VS Code replaces their characters: one of them is lost.',
  },
  {
    id: 'vscode/tool-limit',
    severity: 'warning',
    sources: [VSCODE_128, VSCODE_MCP],
    summary:
      'More than 128 tools: VS Code sends at most 128 tools with a request (built-in tools included) and virtualizes the rest.',
  },
  {
    id: 'client/name-collision',
    severity: 'warning',
    sources: [VSCODE_MCP, CLAUDE_CODE_MCP],
    summary:
      'Another running server offers a tool of the same name: clients that do not prefix show the model two tools of one name.',
  },
  {
    id: 'client/description-missing',
    severity: 'warning',
    sources: [`${SPEC_TOOLS}#tool`, ANTHROPIC_TOOLS],
    summary: 'No description: the model chooses the tool from its name alone.',
  },
  {
    id: 'client/description-too-long',
    severity: 'warning',
    sources: [CLAUDE_CODE_MCP],
    summary:
      'A description over 2,048 characters: Claude Code cuts tool descriptions at 2 KB; the rest never reaches the model.',
  },
  // What the list costs a model's context (an estimate: characters / 4 of the JSON a client sends).
  {
    id: 'context/list-tokens',
    severity: 'info',
    sources: [CLAUDE_CODE_MCP],
    summary:
      'The estimated tokens of the whole tool list (name, description, inputSchema of each tool as JSON, characters / 4).',
  },
  {
    id: 'context/deferred',
    severity: 'warning',
    sources: [CLAUDE_CODE_MCP, 'https://github.com/microsoft/vscode/issues/319330'],
    summary:
      'The tool list is over 20,000 tokens (10% of a 200k context): Claude Code defers the tools behind tool search, where some are rarely found.',
  },
  {
    id: 'context/tool-tokens',
    severity: 'warning',
    sources: [CLAUDE_CODE_MCP],
    summary: 'One tool costs over 1,000 tokens (5% of the 20,000 Claude Code loads up front).',
  },
] as const satisfies readonly LintRule[];

export type LintRuleId = (typeof RULE_LIST)[number]['id'];

export const LINT_RULES: ReadonlyMap<LintRuleId, LintRule> = new Map(RULE_LIST.map((rule) => [rule.id, rule]));

export function ruleOf(id: LintRuleId): LintRule {
  return LINT_RULES.get(id) as LintRule;
}
