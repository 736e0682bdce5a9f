import { SchemaValidator } from '../../protocol/validation/schemaValidation';
import { versionAtLeast } from '../../protocol/versions';
import { FindingSink, quote, targetOf, type LintFinding } from './findings';
import { lintSchema } from './schemaLint';

/**
 * `lint`: will every client accept this server's tools? The rules of the MCP revision the server speaks, what the
 * model providers' tool calling accepts, what the clients do with the list, and what it costs a model's context.
 * Host-neutral: the CLI (`mcp-workbench lint`) and the extension (badges, Problems) run this same function on the
 * same lists, so they find the same things. Everything it reads comes from the server and is treated as untrusted:
 * shapes are checked before use, schema walks are bounded (schemaLint.ts), findings are capped (findings.ts).
 */

export interface LintInput {
  /** The server's name in the configuration (clients build their tool names from it). */
  serverName: string;
  /** The revision the session speaks (`2025-11-25`, `2026-07-28`, …). */
  protocolVersion: string;
  /** tools/list as received; items are checked, not assumed to be tools. */
  tools: readonly unknown[];
  templates?: readonly unknown[];
  prompts?: readonly unknown[];
  /** A tools/call result to check against its tool (outputSchema, the text mirror). */
  sample?: { toolName: string; result: unknown };
  /** The tool names of the other servers running beside it (for names that collide across servers). */
  otherServers?: readonly { name: string; toolNames: readonly string[] }[];
}

export interface ToolCost {
  name: string;
  /** Estimated tokens; undefined when the tool could not be serialized (nested too deeply). */
  tokens: number | undefined;
}

export interface LintReport {
  findings: LintFinding[];
  context: { totalTokens: number; tools: ToolCost[] };
  /** Findings left out by the caps (findings.ts). */
  dropped: number;
}

/** Tool names per the spec's SEP-986 (2025-11-25): 1 to 128 of these characters. */
const SPEC_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** What Anthropic's and OpenAI's tool calling accept as a name. */
const PROVIDER_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const TOOL_NAMES_SINCE = '2025-11-25';
/** VS Code's built-in client: `mcp_` + the server's prefix + `_` + the tool, characters replaced, at most 64. */
const VSCODE_TOOL_PREFIX = 'mcp_';
const VSCODE_MAX_TOOL_NAME = 64;
const VSCODE_MAX_TOOLS = 128;
/** Claude Code cuts a tool's description at 2 KB. */
const MAX_DESCRIPTION_CHARS = 2_048;
/** Claude Code loads MCP tools up front only while they fit in 10% of the context window (200k tokens). */
const DEFER_TOKENS = 20_000;
const TOOL_TOKENS = 1_000;

type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The documented estimate of what a tool costs a model's context: the characters of the JSON a client sends for it
 * (name, description, input schema) divided by 4, rounded up. Providers' tokenizers differ by tens of percent either
 * way; no tokenizer is bundled (none is both small and kept for every provider), so this is an order of magnitude.
 */
export function estimateTokens(tool: unknown): number | undefined {
  if (!isRecord(tool)) return undefined;
  try {
    const sent = JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.inputSchema });
    return Math.ceil(sent.length / 4);
  } catch {
    return undefined; // a value nested deeper than the stack (RangeError)
  }
}

/** The name VS Code's own client gives the model for a server's tool. */
export function vscodeToolName(serverName: string, toolName: string): string {
  return `${VSCODE_TOOL_PREFIX}${vscodeSanitize(serverName)}_${vscodeSanitize(toolName)}`;
}

function vscodeSanitize(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]/g, '_');
}

let sharedValidator: SchemaValidator | undefined;

export function lintServer(input: LintInput): LintReport {
  const steps = lintServerSteps(input, Infinity);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * lintServer in steps, for a host that must keep answering while a server with thousands of tools is linted (the
 * extension host: the Servers view's rows wait for it): it pauses after every `toolsPerStep` tools (25: about a millisecond when idle) and returns the
 * same report at the end. The caller decides how long a slice runs (features/lint/serverLint.ts, slices.ts).
 */
export function* lintServerSteps(input: LintInput, toolsPerStep = 25): Generator<void, LintReport, void> {
  const sink = new FindingSink();
  const costs: ToolCost[] = [];
  const namedTools = new Map<string, JsonRecord>();
  const sanitized = new Map<string, string>();
  const seen = new Set<string>();
  const otherNames = new Map<string, string>();
  for (const other of input.otherServers ?? [])
    for (const name of other.toolNames) if (!otherNames.has(name)) otherNames.set(name, other.name);
  let totalTokens = 0;
  for (let index = 0; index < input.tools.length; index++) {
    if (index > 0 && index % toolsPerStep === 0) yield;
    const tool = input.tools[index];
    const name = isRecord(tool) && typeof tool.name === 'string' ? tool.name : undefined;
    const target = targetOf('tool', name ?? `#${index}`);
    if (!isRecord(tool) || name === undefined || name === '') {
      sink.add('mcp/required-field', target, 'name', 'The tool has no name (a non-empty string).');
      continue;
    }
    if (seen.has(name)) {
      sink.add(
        'mcp/duplicate-name',
        target,
        'name',
        `Another tool of this server is also named ${quote(name)}.`,
        'Rename one of them.',
      );
    } else namedTools.set(name, tool);
    seen.add(name);
    lintToolName(input, name, target, sink, sanitized);
    const other = otherNames.get(name);
    if (other !== undefined)
      sink.add(
        'client/name-collision',
        target,
        'name',
        `The server ${quote(other)} offers a tool of the same name.`,
        'Give the tool a name with a prefix of its own.',
      );
    lintDescription(tool.description, target, sink, 'warning');
    if (!isRecord(tool.inputSchema)) {
      sink.add(
        'mcp/required-field',
        target,
        'inputSchema',
        'The tool has no inputSchema object.',
        'Add "inputSchema": {"type": "object"}.',
      );
    } else {
      if (tool.inputSchema.type !== 'object')
        sink.add(
          'mcp/input-schema-object',
          target,
          'inputSchema.type',
          `inputSchema's type is ${quote(JSON.stringify(tool.inputSchema.type) ?? 'absent')}, not "object".`,
          'Set "type": "object" at the root of inputSchema.',
        );
      const root = tool.inputSchema;
      if (['anyOf', 'oneOf', 'allOf'].some((key) => Object.hasOwn(root, key)))
        sink.add(
          'gemini/root-composition',
          target,
          'inputSchema',
          'inputSchema combines schemas at its root (anyOf/oneOf/allOf): function parameters must be one object schema.',
          'Merge the alternatives into one object whose properties are optional, or split the tool.',
        );
      lintSchema(root, 'inputSchema', target, sink);
    }
    if (tool.outputSchema !== undefined) {
      if (!isRecord(tool.outputSchema) || tool.outputSchema.type !== 'object')
        sink.add(
          'mcp/output-schema-object',
          target,
          'outputSchema',
          'outputSchema is not an object schema ("type": "object").',
          'Wrap the value: {"type": "object", "properties": {"result": <schema>}}.',
        );
      lintSchema(tool.outputSchema, 'outputSchema', target, sink);
    }
    const tokens = estimateTokens(tool);
    costs.push({ name, tokens });
    if (tokens !== undefined) {
      totalTokens += tokens;
      if (tokens > TOOL_TOKENS)
        sink.add(
          'context/tool-tokens',
          target,
          '',
          `About ${tokens} tokens (characters / 4 of its name, description and inputSchema).`,
          'Shorten the description; move long reference text into a resource.',
        );
    }
  }
  lintList(input, totalTokens, sink);
  lintTemplates(input.templates ?? [], sink);
  lintPrompts(input.prompts ?? [], sink);
  if (input.sample) lintSample(input.sample, namedTools.get(input.sample.toolName), sink);
  return { findings: sink.findings, context: { totalTokens, tools: costs }, dropped: sink.dropped };
}

function lintToolName(
  input: LintInput,
  name: string,
  target: string,
  sink: FindingSink,
  sanitized: Map<string, string>,
): void {
  if (!SPEC_TOOL_NAME.test(name)) {
    const since = versionAtLeast(input.protocolVersion, TOOL_NAMES_SINCE);
    sink.add(
      'mcp/tool-name',
      target,
      'name',
      `${quote(name)} is not 1 to 128 characters of A-Z, a-z, 0-9, _, - and .${since ? '' : ` (a rule since ${TOOL_NAMES_SINCE}; this server speaks ${input.protocolVersion})`}.`,
      `Rename it to ${quote(name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 128) || '_')}.`,
      since ? undefined : 'info',
    );
  }
  if (!PROVIDER_TOOL_NAME.test(name))
    sink.add(
      'provider/tool-name',
      target,
      'name',
      `${quote(name)} does not match ^[a-zA-Z0-9_-]{1,64}$, which Anthropic's and OpenAI's tool calling require: each client rewrites it its own way.`,
      `Rename it to ${quote(name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || '_')}.`,
    );
  const shown = vscodeToolName(input.serverName, name);
  // Only the tool's own characters count: the server's name is the person's entry (or, from the CLI, a command or
  // host:port), the same on every tool, and not the author's to fix.
  if (vscodeSanitize(name) !== name || shown.length > VSCODE_MAX_TOOL_NAME) {
    sink.add(
      'vscode/tool-name-prefix',
      target,
      'name',
      shown.length > VSCODE_MAX_TOOL_NAME
        ? `VS Code shows it to the model as ${quote(shown.slice(0, VSCODE_MAX_TOOL_NAME))}, cut from ${shown.length} characters to ${VSCODE_MAX_TOOL_NAME}.`
        : `VS Code shows it to the model as ${quote(shown)}.`,
      shown.length > VSCODE_MAX_TOOL_NAME ? 'Shorten the tool name (or the server name).' : undefined,
    );
  }
  const key = shown.slice(0, VSCODE_MAX_TOOL_NAME);
  const before = sanitized.get(key);
  if (before !== undefined && before !== name)
    sink.add(
      'vscode/sanitized-collision',
      target,
      'name',
      `In VS Code, ${quote(name)} and ${quote(before)} both become ${quote(key)}.`,
      'Rename one of them so they differ in letters, digits, _ or - within the first characters.',
    );
  else sanitized.set(key, name);
}

function lintDescription(description: unknown, target: string, sink: FindingSink, missing: 'warning' | 'info'): void {
  if (typeof description !== 'string' || description.trim() === '') {
    sink.add('client/description-missing', target, 'description', 'No description.', undefined, missing);
    return;
  }
  if (description.length > MAX_DESCRIPTION_CHARS)
    sink.add(
      'client/description-too-long',
      target,
      'description',
      `The description has ${description.length} characters; Claude Code keeps the first ${MAX_DESCRIPTION_CHARS}.`,
      'Put what decides the choice of the tool first, and keep the description under 2 KB.',
    );
}

function lintList(input: LintInput, totalTokens: number, sink: FindingSink): void {
  const count = input.tools.length;
  if (count === 0) return;
  if (count > VSCODE_MAX_TOOLS)
    sink.add(
      'vscode/tool-limit',
      'server',
      'tools',
      `${count} tools: VS Code sends at most ${VSCODE_MAX_TOOLS} tools with a request, its built-in tools included; the rest are grouped behind virtual tools the model must open first.`,
      'Offer fewer tools, or group rarely used ones behind one tool.',
    );
  sink.add(
    'context/list-tokens',
    'server',
    'tools',
    `The tool list costs about ${totalTokens} tokens for ${count} tool${count === 1 ? '' : 's'} (characters / 4).`,
  );
  if (totalTokens > DEFER_TOKENS)
    sink.add(
      'context/deferred',
      'server',
      'tools',
      `About ${totalTokens} tokens is over ${DEFER_TOKENS} (10% of a 200k context): Claude Code defers these tools behind tool search, and VS Code past its threshold.`,
      'Shorten descriptions and schemas, or split the server.',
    );
}

function lintTemplates(templates: readonly unknown[], sink: FindingSink): void {
  const seen = new Set<string>();
  templates.forEach((template, index) => {
    const name = isRecord(template) && typeof template.name === 'string' ? template.name : undefined;
    const target = targetOf('template', name ?? `#${index}`);
    if (!isRecord(template) || name === undefined || name === '') {
      sink.add('mcp/required-field', target, 'name', 'The resource template has no name.');
      return;
    }
    if (typeof template.uriTemplate !== 'string' || template.uriTemplate === '')
      sink.add('mcp/required-field', target, 'uriTemplate', 'The resource template has no uriTemplate.');
    else if (seen.has(template.uriTemplate))
      sink.add(
        'mcp/duplicate-name',
        target,
        'uriTemplate',
        `Another template has the uriTemplate ${quote(template.uriTemplate)}.`,
      );
    else seen.add(template.uriTemplate);
    lintDescription(template.description, target, sink, 'info');
  });
}

function lintPrompts(prompts: readonly unknown[], sink: FindingSink): void {
  const seen = new Set<string>();
  prompts.forEach((prompt, index) => {
    const name = isRecord(prompt) && typeof prompt.name === 'string' ? prompt.name : undefined;
    const target = targetOf('prompt', name ?? `#${index}`);
    if (!isRecord(prompt) || name === undefined || name === '') {
      sink.add('mcp/required-field', target, 'name', 'The prompt has no name.');
      return;
    }
    if (seen.has(name))
      sink.add(
        'mcp/duplicate-name',
        target,
        'name',
        `Another prompt is also named ${quote(name)}.`,
        'Rename one of them.',
      );
    seen.add(name);
    lintDescription(prompt.description, target, sink, 'info');
    if (prompt.arguments === undefined) return;
    if (!Array.isArray(prompt.arguments)) {
      sink.add('mcp/required-field', target, 'arguments', 'arguments is not an array.');
      return;
    }
    const argumentNames = new Set<string>();
    prompt.arguments.forEach((argument, i) => {
      if (!isRecord(argument) || typeof argument.name !== 'string' || argument.name === '') {
        sink.add('mcp/required-field', target, `arguments[${i}].name`, 'A prompt argument has no name.');
        return;
      }
      if (argumentNames.has(argument.name))
        sink.add(
          'mcp/duplicate-name',
          target,
          `arguments[${i}].name`,
          `Two arguments are named ${quote(argument.name)}.`,
        );
      argumentNames.add(argument.name);
    });
  });
}

function lintSample(
  sample: { toolName: string; result: unknown },
  tool: JsonRecord | undefined,
  sink: FindingSink,
): void {
  const target = targetOf('tool', sample.toolName);
  if (!isRecord(sample.result) || sample.result.isError === true) return;
  const result = sample.result;
  const structured = result.structuredContent;
  if (structured !== undefined) {
    const content = Array.isArray(result.content) ? result.content : [];
    const mirrored = content.some(
      (block) =>
        isRecord(block) && block.type === 'text' && typeof block.text === 'string' && sameJson(block.text, structured),
    );
    if (!mirrored)
      sink.add(
        'mcp/structured-content-text',
        target,
        'result.content',
        'The result has structuredContent but no text block with the same JSON: clients that read only content (and pass it to the model) see none of it.',
        'Add {"type": "text", "text": JSON.stringify(structuredContent)} to content.',
      );
  }
  if (!tool || !isRecord(tool.outputSchema)) return;
  if (structured === undefined) {
    sink.add(
      'mcp/structured-content-missing',
      target,
      'result.structuredContent',
      'The tool declares an outputSchema but the result has no structuredContent.',
    );
    return;
  }
  sharedValidator ??= new SchemaValidator();
  const verdict = sharedValidator.validate(tool.outputSchema, structured);
  switch (verdict.kind) {
    case 'valid':
      return;
    case 'invalid':
      sink.add(
        'mcp/structured-content-invalid',
        target,
        'result.structuredContent',
        `structuredContent does not match outputSchema: ${verdict.errors.slice(0, 5).join('; ')}`,
      );
      return;
    case 'unchecked':
      sink.add(
        'mcp/structured-content-invalid',
        target,
        'result.structuredContent',
        `structuredContent could not be checked against outputSchema: ${verdict.reason}`,
        undefined,
        'info',
      );
      return;
  }
}

/** Whether a text block is the JSON of `value` (any spacing). */
function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}
