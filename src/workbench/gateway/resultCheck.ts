/**
 * The check every server result passes before the gateway hands it to an agent (`run` in agentServer.ts, on the
 * direct path and the SDK's alike). The upstream client already refuses what breaks JSON-RPC itself (a result that
 * is not an object, a `_meta` that is not one, an error without an integer code, a message over its cap); this adds
 * the shape of each spec method's result. Why: the SDK that serves the agents checks a `tools/call` result against its
 * own schema and answers a bad one with `-32602` (the agent's params blamed) and a schema dump, and answers a result
 * it cannot encode (a `resultType` of the server's) with a bare "Internal error", while the direct path handed the
 * same results on, a 2026-07-28 `input_required` one with the server's own requestState; an agent's own SDK then
 * refused them locally. Here a malformed result becomes one answer on every path: `-32603` naming the server and what
 * was wrong (test/component/workbench/gateway/malformedAnswers.test.ts).
 *
 * Hand-written, not the SDK's schemas: it runs on every directly served call, whose point is not to pay a schema
 * parse per result (CONTRIBUTING, "Dependencies"). It checks what the spec requires of each result and its items
 * (required fields and their types, the known content types), not every optional field's format.
 */
import { isPlainObject } from './directPath';

/** What is wrong with a server's result of `method`, in a few words, or undefined when it may reach the agent. */
export function resultProblem(method: string, result: unknown): string | undefined {
  if (!isPlainObject(result)) return `the result is ${describe(result)}, not an object`;
  if (result._meta !== undefined && !isPlainObject(result._meta)) return `_meta is ${describe(result._meta)}`;
  // The gateway's client has read the server's result in the server's era (its rounds and tasks are the client's):
  // a resultType still in it is not one to hand an agent (an input_required one would carry the server's
  // requestState, which is never an agent's to hold).
  if (result.resultType !== undefined && result.resultType !== 'complete')
    return 'it has a resultType other than complete';
  const check = CHECKS[method];
  return check ? check(result) : undefined;
}

type Check = (result: Record<string, unknown>) => string | undefined;

const TOOL_HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

const CHECKS: Readonly<Record<string, Check>> = {
  'tools/call': (result) => {
    // A 2025-11-25 task-augmented call answers with its task (CreateTaskResult), which has no content.
    if (result.task !== undefined && result.content === undefined) return undefined;
    if (result.content !== undefined) {
      const problem = list(result.content, 'content', contentProblem);
      if (problem) return problem;
    }
    if (result.structuredContent !== undefined && !isPlainObject(result.structuredContent))
      return `structuredContent is ${describe(result.structuredContent)}, not an object`;
    if (result.isError !== undefined && typeof result.isError !== 'boolean') return `isError is not a boolean`;
    return undefined;
  },
  'tools/list': (result) =>
    page(result) ??
    list(result.tools, 'tools', (tool) => {
      if (typeof tool.name !== 'string') return 'has no string name';
      const input = tool.inputSchema;
      if (!isPlainObject(input) || input.type !== 'object') return 'has no inputSchema of type "object"';
      if (input.properties !== undefined && !isPlainObject(input.properties))
        return 'has inputSchema.properties that are not an object';
      if (input.required !== undefined && !stringArray(input.required))
        return 'has inputSchema.required that is not an array of strings';
      if (tool.outputSchema !== undefined && !isPlainObject(tool.outputSchema))
        return 'has an outputSchema that is not an object';
      if (tool.annotations !== undefined) {
        if (!isPlainObject(tool.annotations)) return 'has annotations that are not an object';
        const annotations = tool.annotations;
        if (annotations.title !== undefined && typeof annotations.title !== 'string')
          return 'has an annotations.title that is not a string';
        // Only the spec's hints: a member the spec does not name is the server's own business.
        for (const hint of TOOL_HINTS)
          if (annotations[hint] !== undefined && typeof annotations[hint] !== 'boolean')
            return `has an annotations.${hint} that is not a boolean`;
      }
      const execution = tool.execution;
      if (execution !== undefined && !isPlainObject(execution)) return 'has an execution that is not an object';
      const taskSupport = execution?.taskSupport;
      if (
        taskSupport !== undefined &&
        taskSupport !== 'required' &&
        taskSupport !== 'optional' &&
        taskSupport !== 'forbidden'
      )
        return 'has an unknown execution.taskSupport';
      return described(tool);
    }),
  'prompts/list': (result) =>
    page(result) ??
    list(
      result.prompts,
      'prompts',
      (prompt) =>
        strings(prompt, ['name']) ??
        (prompt.arguments === undefined
          ? undefined
          : list(
              prompt.arguments,
              'arguments',
              (argument) =>
                strings(argument, ['name']) ??
                optionalStrings(argument, ['description']) ??
                (argument.required === undefined || typeof argument.required === 'boolean'
                  ? undefined
                  : 'has a required that is not a boolean'),
            )) ??
        described(prompt),
    ),
  'prompts/get': (result) =>
    optionalStrings(result, ['description']) ??
    list(result.messages, 'messages', (message) => {
      if (message.role !== 'user' && message.role !== 'assistant') return 'has a role other than user or assistant';
      if (!isPlainObject(message.content)) return 'has no content object';
      const problem = contentProblem(message.content);
      return problem && `content ${problem}`;
    }),
  'resources/list': (result) =>
    page(result) ??
    list(result.resources, 'resources', (resource) => strings(resource, ['uri', 'name']) ?? resourceProblem(resource)),
  'resources/templates/list': (result) =>
    page(result) ??
    list(
      result.resourceTemplates,
      'resourceTemplates',
      (template) => strings(template, ['uriTemplate', 'name']) ?? resourceProblem(template),
    ),
  'resources/read': (result) => list(result.contents, 'contents', resourceContentsProblem),
  'completion/complete': (result) => {
    const completion = result.completion;
    if (!isPlainObject(completion)) return `completion is ${describe(completion)}, not an object`;
    const values = completion.values;
    if (!Array.isArray(values) || values.some((value) => typeof value !== 'string'))
      return 'completion.values is not an array of strings';
    if (values.length > 100) return `completion.values has ${values.length} values (at most 100)`;
    if (completion.total !== undefined && !Number.isInteger(completion.total))
      return 'completion.total is not an integer';
    if (completion.hasMore !== undefined && typeof completion.hasMore !== 'boolean')
      return 'completion.hasMore is not a boolean';
    return undefined;
  },
};

/** A paginated result's cursor is a string. */
function page(result: Record<string, unknown>): string | undefined {
  return result.nextCursor === undefined || typeof result.nextCursor === 'string'
    ? undefined
    : `nextCursor is ${describe(result.nextCursor)}, not a string`;
}

/** `value` is an array of objects each of which `item` accepts; the first problem names the field and the index. */
function list(
  value: unknown,
  field: string,
  item: (entry: Record<string, unknown>) => string | undefined,
): string | undefined {
  if (!Array.isArray(value)) return `${field} is ${describe(value)}, not an array`;
  for (let index = 0; index < value.length; index++) {
    const entry: unknown = value[index];
    if (!isPlainObject(entry)) return `${field}[${index}] is ${describe(entry)}, not an object`;
    const problem = item(entry);
    if (problem) return `${field}[${index}] ${problem}`;
  }
  return undefined;
}

/** A content block of a tool result or a prompt message: one of the spec's types with its required fields. */
function contentProblem(block: Record<string, unknown>): string | undefined {
  const type = block.type;
  let problem: string | undefined;
  switch (type) {
    case 'text':
      problem = strings(block, ['text']);
      break;
    case 'image':
    case 'audio':
      problem = strings(block, ['data', 'mimeType']);
      break;
    case 'resource_link':
      problem = strings(block, ['uri', 'name']) ?? resourceProblem(block);
      break;
    case 'resource':
      problem = isPlainObject(block.resource) ? resourceContentsProblem(block.resource) : 'has no resource object';
      break;
    default:
      return typeof type === 'string' ? `has an unknown type (not a content type of MCP)` : 'has no string type';
  }
  return problem ?? annotationsProblem(block.annotations) ?? itemMeta(block);
}

/** A resource's contents: a string uri and a string text or blob. */
function resourceContentsProblem(contents: Record<string, unknown>): string | undefined {
  if (typeof contents.uri !== 'string') return 'has no string uri';
  if (typeof contents.text !== 'string' && typeof contents.blob !== 'string')
    return 'has neither a string text nor blob';
  return optionalStrings(contents, ['mimeType']) ?? itemMeta(contents);
}

function annotationsProblem(annotations: unknown): string | undefined {
  if (annotations === undefined) return undefined;
  if (!isPlainObject(annotations)) return 'has annotations that are not an object';
  const { audience, priority } = annotations;
  if (
    audience !== undefined &&
    (!Array.isArray(audience) || audience.some((role) => role !== 'user' && role !== 'assistant'))
  )
    return 'has an annotations.audience other than user and assistant';
  if (priority !== undefined && (typeof priority !== 'number' || priority < 0 || priority > 1))
    return 'has an annotations.priority outside 0 to 1';
  return undefined;
}

/** A resource, template or resource link: its optional description fields, size and annotations. */
function resourceProblem(resource: Record<string, unknown>): string | undefined {
  if (resource.size !== undefined && typeof resource.size !== 'number') return 'has a size that is not a number';
  return optionalStrings(resource, ['mimeType']) ?? annotationsProblem(resource.annotations) ?? described(resource);
}

/** What tools, prompts and resources share: a title, a description, icons and `_meta`. */
function described(item: Record<string, unknown>): string | undefined {
  const problem = optionalStrings(item, ['title', 'description']);
  if (problem) return problem;
  if (item.icons !== undefined) {
    const icons = list(item.icons, 'icons', (icon) => {
      if (typeof icon.src !== 'string') return 'has no string src';
      if (icon.theme !== undefined && icon.theme !== 'light' && icon.theme !== 'dark') return 'has an unknown theme';
      if (
        icon.sizes !== undefined &&
        (!Array.isArray(icon.sizes) || icon.sizes.some((size) => typeof size !== 'string'))
      )
        return 'has sizes that are not strings';
      return optionalStrings(icon, ['mimeType']);
    });
    if (icons) return `has ${icons}`;
  }
  return itemMeta(item);
}

function stringArray(value: unknown): boolean {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string');
}

function optionalStrings(item: Record<string, unknown>, fields: readonly string[]): string | undefined {
  for (const field of fields)
    if (item[field] !== undefined && typeof item[field] !== 'string') return `has a ${field} that is not a string`;
  return undefined;
}

function strings(item: Record<string, unknown>, fields: readonly string[]): string | undefined {
  for (const field of fields) if (typeof item[field] !== 'string') return `has no string ${field}`;
  return undefined;
}

function itemMeta(item: Record<string, unknown>): string | undefined {
  return item._meta === undefined || isPlainObject(item._meta) ? undefined : `has a _meta that is not an object`;
}

/** The type of a value in words, never the value (it is the server's text). */
function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
