import { findNodeAtLocation, getNodeValue, parseTree, type ParseError } from 'jsonc-parser';
import type { ConversationTurn } from './conversation';
import { checkEvalFile, MCPEVAL_FORMAT_VERSION, type EvalFile, type EvalRequest, type ExpectedCall } from './format';

/**
 * Save as Eval (issue 41): a playground request becomes an eval request: the person's text, each tool call the model
 * made as an expected call with its arguments exact (the person loosens them in the file with the recorded tests'
 * rules), and it is appended to a `*.mcpeval.json` by JSONC edits, so the rest of an existing file (its comments,
 * order and formatting) is never rewritten.
 */

export const MCPEVAL_SCHEMA_URL = 'https://mcp-workbench.dev/schemas/mcpeval.schema.json';

export class SaveAsEvalError extends Error {
  override readonly name = 'SaveAsEvalError';
}

/** A request's name in the file: its first line, shortened. */
function nameOf(request: string): string {
  const line = request.trim().split('\n', 1)[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/**
 * The eval request of one playground turn. Only calls the model made on an offered tool count (a denied one too:
 * the model chose it); with several servers each call names its server. A turn without tool calls has nothing an
 * eval could expect of the tools.
 */
export function evalRequestFromTurn(turn: ConversationTurn, multipleServers: boolean): EvalRequest {
  const calls: ExpectedCall[] = turn.calls
    .filter((call) => !('(arguments cut)' in call.arguments))
    .map((call) => ({
      tool: call.tool,
      ...(multipleServers ? { server: call.server } : {}),
      args: call.arguments,
    }));
  if (calls.length === 0) throw new SaveAsEvalError('the model made no tool call with whole arguments in this request');
  return { name: nameOf(turn.request), request: turn.request, expect: { calls } };
}

/**
 * `text` with `value` added as the last item of the array at `path`: one insertion after the last item (or inside the
 * brackets of an empty array), the value indented like that item's line. jsonc-parser's `modify` with formatting
 * would reformat the line of the item before it; nothing else in the file may change.
 */
function appendToArray(text: string, path: string[], value: unknown): string {
  const array = findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true })!, path);
  if (!array || array.type !== 'array') throw new SaveAsEvalError(`"${path.join('.')}" is not an array`);
  const last = array.children?.at(-1);
  const anchor = last ? last.offset : array.offset;
  const lineStart = text.lastIndexOf('\n', anchor) + 1;
  const lineIndent = /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
  const indent = last ? lineIndent : `${lineIndent}  `;
  const item = JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
  if (last) {
    const at = last.offset + last.length;
    // An array written on one line (`"models": ["a"]`) stays on one line.
    if (!text.slice(array.offset, last.offset).includes('\n'))
      return `${text.slice(0, at)}, ${JSON.stringify(value)}${text.slice(at)}`;
    return `${text.slice(0, at)},\n${indent}${item}${text.slice(at)}`;
  }
  const at = array.offset + 1;
  return `${text.slice(0, at)}\n${indent}${item}\n${lineIndent}${text.slice(at)}`;
}

/**
 * The file's text with `request` appended (and `model` added to its `models` when the file lists models without it).
 * `existing` undefined or blank: a new file. A name already in the file gets " (2)", " (3)". The result is checked as
 * the runner reads it; a file that is not a valid eval is refused as it is, untouched.
 */
export function appendEvalRequest(existing: string | undefined, request: EvalRequest, model: string): string {
  if (existing === undefined || existing.trim() === '') {
    const file: EvalFile = {
      $schema: MCPEVAL_SCHEMA_URL,
      mcpeval: MCPEVAL_FORMAT_VERSION,
      models: [model],
      requests: [request],
    };
    return `${JSON.stringify(file, null, 2)}\n`;
  }
  const errors: ParseError[] = [];
  const tree = parseTree(existing, errors, { allowTrailingComma: true });
  const parsed = tree ? (getNodeValue(tree) as unknown) : undefined;
  if (errors.length > 0) throw new SaveAsEvalError('the file is not valid JSON');
  try {
    checkEvalFile(parsed);
  } catch (error) {
    throw new SaveAsEvalError(`the file is not a valid eval: ${(error as Error).message}`);
  }
  const file = parsed as EvalFile;
  const names = new Set(file.requests.map((item) => item.name ?? item.request));
  const base = request.name ?? request.request;
  let name = base;
  for (let suffix = 2; names.has(name); suffix++) name = `${base} (${suffix})`;
  const text = appendToArray(existing, ['requests'], { ...request, name });
  return Array.isArray(file.models) && !file.models.includes(model) ? appendToArray(text, ['models'], model) : text;
}
