import {
  applyEdits,
  createScanner,
  findNodeAtLocation,
  modify,
  parseTree,
  stripComments,
  type Edit,
  type FormattingOptions,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import { describeJsonErrorCode, formatJsonSyntaxProblem, jsonSyntaxProblem } from './jsonSyntax';

/**
 * Edits VS Code's `mcp.json` as text, so the user's comments, ordering and formatting survive. Each function checks
 * the file is valid JSONC first and throws `ConfigEditError` otherwise: rewriting a file we could not fully parse
 * could silently drop what the user wrote.
 */

export interface EditFormatting {
  tabSize?: number;
  insertSpaces?: boolean;
  eol?: string;
}

export class ConfigEditError extends Error {
  override readonly name = 'ConfigEditError';
}

export interface InputEntry {
  type: 'promptString' | 'pickString';
  id: string;
  description?: string;
  password?: boolean;
  default?: string;
  options?: (string | { label?: string; value: string })[];
}

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true } as const;

export function addServerToConfig(text: string, name: string, entry: object, options: EditFormatting = {}): string {
  if (name.trim() === '') throw new ConfigEditError('a server name cannot be empty');
  const prepared = prepare(text, options);
  const key = serversKey(prepared.root);
  if (findNodeAtLocation(prepared.root, [key, name])) {
    throw new ConfigEditError(
      `a server named "${name}" already exists in "${key}"; choose another name or remove it first`,
    );
  }
  const container = findNodeAtLocation(prepared.root, [key]);
  return edit(
    prepared,
    container
      ? appendMember(prepared, container, entry, name)
      : modify(prepared.text, [key], { [name]: entry }, { formattingOptions: prepared.formatting }),
  );
}

/**
 * Adds `name: entry` to the object at `mapPath` (`["mcpServers"]`, `["projects", "/repo", "mcpServers"]`, `[]` for a
 * bare map), for the other clients' files (dialects/); creates the path when it is missing.
 */
export function addServerAtPath(
  text: string,
  mapPath: readonly string[],
  name: string,
  entry: object,
  options: EditFormatting = {},
): string {
  if (name.trim() === '') throw new ConfigEditError('a server name cannot be empty');
  const prepared = prepare(text, options, mapPath[0]);
  if (findNodeAtLocation(prepared.root, [...mapPath, name]))
    throw new ConfigEditError(`a server named "${name}" already exists; choose another name or remove it first`);
  const container = mapPath.length === 0 ? prepared.root : findNodeAtLocation(prepared.root, [...mapPath]);
  if (container && container.type !== 'object')
    throw new ConfigEditError(`"${mapPath.join('.')}" is not an object; fix it first: nothing was changed`);
  return edit(
    prepared,
    container
      ? appendMember(prepared, container, entry, name)
      : modify(prepared.text, [...mapPath, name], entry, { formattingOptions: prepared.formatting }),
  );
}

export function removeServerFromConfig(text: string, name: string, options: EditFormatting = {}): string {
  const prepared = prepare(text, options);
  const key = serversKey(prepared.root);
  if (!findNodeAtLocation(prepared.root, [key, name]))
    throw new ConfigEditError(`there is no server named "${name}" to remove`);
  const value = findNodeAtLocation(prepared.root, [key, name]);
  return edit(
    prepared,
    (value?.parent && removeMemberLines(prepared.text, value.parent)) ||
      modify(prepared.text, [key, name], undefined, {}),
  );
}

/** Renames in place: only the key's text changes, so the entry keeps its position, formatting and comments. */
export function renameServer(text: string, oldName: string, newName: string, options: EditFormatting = {}): string {
  if (newName.trim() === '') throw new ConfigEditError('a server name cannot be empty');
  const prepared = prepare(text, options);
  const key = serversKey(prepared.root);
  const value = findNodeAtLocation(prepared.root, [key, oldName]);
  const keyNode = value?.parent?.children?.[0];
  if (!value || !keyNode) throw new ConfigEditError(`there is no server named "${oldName}" to rename`);
  if (oldName === newName) return text;
  if (findNodeAtLocation(prepared.root, [key, newName]))
    throw new ConfigEditError(`cannot rename "${oldName}": a server named "${newName}" already exists`);
  return edit(prepared, [{ offset: keyNode.offset, length: keyNode.length, content: JSON.stringify(newName) }]);
}

/** Adds an input definition; new `inputs` arrays go first in the file, where VS Code puts them. */
export function addInputToConfig(text: string, input: InputEntry, options: EditFormatting = {}): string {
  if (input.id.trim() === '') throw new ConfigEditError('an input needs a non-empty "id"');
  const prepared = prepare(text, options);
  const inputs = findNodeAtLocation(prepared.root, ['inputs']);
  if (inputs && inputs.type !== 'array')
    throw new ConfigEditError('"inputs" is not an array; fix it before adding an input');
  if (!inputs) {
    return edit(
      prepared,
      modify(prepared.text, ['inputs'], [input], {
        formattingOptions: prepared.formatting,
        getInsertionIndex: () => 0,
      }),
    );
  }
  const ids = (inputs.children ?? []).map((item) => findNodeAtLocation(item, ['id'])?.value as unknown);
  if (ids.includes(input.id)) throw new ConfigEditError(`an input with id "${input.id}" already exists`);
  return edit(prepared, appendMember(prepared, inputs, input));
}

/** Detects how the file is indented and which line ending it uses, so inserted text looks like the rest. */
export function detectFormatting(text: string): Required<EditFormatting> {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indents = text
    .split(/\r?\n/)
    // Lines inside block comments (" * text") would look like a one-space indent.
    .map((line) => /^([ \t]+)[^\s*/]/.exec(line)?.[1])
    .filter((indent): indent is string => indent !== undefined);
  if (indents.length === 0) return { tabSize: 4, insertSpaces: false, eol }; // what VS Code writes for a new mcp.json
  if (indents.some((indent) => indent.startsWith('\t'))) return { tabSize: 4, insertSpaces: false, eol };
  // The smallest indent is one level; a file indented by 4 whose first nested line is deeper still yields 4.
  const tabSize = Math.min(...indents.map((indent) => indent.length));
  return { tabSize: Math.max(1, Math.min(tabSize, 8)), insertSpaces: true, eol };
}

interface Prepared {
  text: string;
  root: Node;
  formatting: FormattingOptions;
}

function prepare(original: string, options: EditFormatting, skeletonKey = 'servers'): Prepared {
  const detected = detectFormatting(original);
  const formatting: FormattingOptions = {
    tabSize: options.tabSize ?? detected.tabSize,
    insertSpaces: options.insertSpaces ?? detected.insertSpaces,
    eol: options.eol ?? detected.eol,
  };
  let text = original;
  if (stripComments(text).trim() === '') {
    // Empty, or only comments: keep the comments and start an object after them.
    const eol = formatting.eol ?? '\n';
    const unit = formatting.insertSpaces ? ' '.repeat(formatting.tabSize ?? 4) : '\t';
    const skeleton = `{${eol}${unit}${JSON.stringify(skeletonKey)}: {}${eol}}${eol}`;
    text = text.trim() === '' ? skeleton : `${text.trimEnd()}${eol}${skeleton}`;
  }
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, PARSE_OPTIONS);
  if (errors.length > 0) {
    throw new ConfigEditError(
      `mcp.json is not valid JSONC (${formatJsonSyntaxProblem(jsonSyntaxProblem(text, errors[0]))}); ` +
        'fix it first: nothing was changed',
    );
  }
  if (!root || root.type !== 'object')
    throw new ConfigEditError('mcp.json must contain a JSON object; nothing was changed');
  for (const key of ['servers', 'mcpServers']) {
    const node = findNodeAtLocation(root, [key]);
    if (node && node.type !== 'object')
      throw new ConfigEditError(`"${key}" in mcp.json is not an object; fix it first: nothing was changed`);
  }
  return { text, root, formatting };
}

/**
 * Appends a property (when `name` is given) or an array item after the last member, indented like it, keeping a
 * trailing comma and a comment at the end of that line where they are. jsonc-parser's `modify` with formatting
 * would instead reformat every line the edit touches, e.g. expand the user's one-line server entry above.
 */
function appendMember(prepared: Prepared, container: Node, value: unknown, name?: string): Edit[] {
  const { text, formatting } = prepared;
  const members = container.children ?? [];
  const last = members[members.length - 1];
  const lastLineStart = last ? text.lastIndexOf('\n', last.offset - 1) + 1 : 0;
  const indent = last ? text.slice(lastLineStart, last.offset) : '';
  if (!last || !/^[ \t]*$/.test(indent)) {
    // Empty container or members sharing a line: no layout to follow, so let jsonc-parser format the insertion.
    const path = name === undefined ? [...pathOf(container), members.length] : [...pathOf(container), name];
    return modify(text, path, value, { formattingOptions: formatting, isArrayInsertion: name === undefined });
  }
  const eol = formatting.eol ?? '\n';
  const unit = formatting.insertSpaces ? ' '.repeat(formatting.tabSize ?? 4) : '\t';
  const lastEnd = last.offset + last.length;
  const comma = commaAfter(text, lastEnd);
  const trailingComma = comma !== undefined;
  const afterLast = comma !== undefined ? comma + 1 : lastEnd;
  // Insert at the end of that line, after any `// comment`, unless other tokens follow on the same line.
  const rest = restOfLine(text, afterLast);
  const at = rest.blank ? rest.end : afterLast;
  const body = JSON.stringify(value, null, unit)
    .split('\n')
    .join(eol + indent);
  const member = (name === undefined ? '' : `${JSON.stringify(name)}: `) + body;
  const edits: Edit[] = [];
  if (!trailingComma) edits.push({ offset: lastEnd, length: 0, content: ',' });
  edits.push({ offset: at, length: 0, content: eol + indent + member + (trailingComma ? ',' : '') });
  return edits;
}

/**
 * Removes a member that sits on lines of its own, with its trailing comma and a `// comment` at the end of its last
 * line (it belongs to the member), but keeps comment lines above it, which often head a group of servers.
 * jsonc-parser's `modify` would delete from the end of the previous member, taking that member's comment with it.
 * Returns undefined when the layout is unusual (members sharing a line), so the caller falls back to `modify`.
 */
function removeMemberLines(text: string, member: Node): Edit[] | undefined {
  const container = member.parent;
  const lineStart = text.lastIndexOf('\n', member.offset - 1) + 1;
  if (!container || !/^[ \t]*$/.test(text.slice(lineStart, member.offset))) return undefined;
  const ownComma = commaAfter(text, member.offset + member.length);
  const rest = restOfLine(text, ownComma !== undefined ? ownComma + 1 : member.offset + member.length);
  if (!rest.blank) return undefined;
  const lineBreak = /^\r?\n/.exec(text.slice(rest.end))?.[0] ?? '';
  const edits: Edit[] = [{ offset: lineStart, length: rest.end + lineBreak.length - lineStart, content: '' }];
  const siblings = container.children ?? [];
  const index = siblings.indexOf(member);
  // The member was last and had no comma: the one before it now ends the container and must lose its comma.
  if (ownComma === undefined && index === siblings.length - 1 && index > 0) {
    const previous = siblings[index - 1];
    const previousComma = commaAfter(text, previous.offset + previous.length);
    if (previousComma !== undefined) edits.unshift({ offset: previousComma, length: 1, content: '' });
  }
  return edits;
}

/** The offset of the comma that follows `offset`, skipping whitespace and comments, if the next token is one. */
function commaAfter(text: string, offset: number): number | undefined {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  let kind = scanner.scan();
  while (TRIVIA.has(kind)) kind = scanner.scan();
  return kind === COMMA_TOKEN ? scanner.getTokenOffset() : undefined;
}

// jsonc-parser's SyntaxKind is a const enum, which isolatedModules cannot read; these are its stable values.
const COMMA_TOKEN = 5;
const TRIVIA = new Set<number>([12, 13, 14, 15]); // line comment, block comment, line break, whitespace

/** Where the line containing `offset` ends (before the line break), and whether only blanks or a `//` comment remain. */
function restOfLine(text: string, offset: number): { end: number; blank: boolean } {
  const lineEnd = text.slice(offset).search(/\r?\n/);
  const rest = lineEnd === -1 ? text.slice(offset) : text.slice(offset, offset + lineEnd);
  return { end: offset + rest.length, blank: /^[ \t]*(\/\/.*)?$/.test(rest) };
}

function pathOf(node: Node): (string | number)[] {
  const path: (string | number)[] = [];
  let current: Node | undefined = node;
  while (current?.parent) {
    const parent: Node = current.parent;
    if (parent.type === 'property') path.unshift(String(parent.children?.[0]?.value));
    else if (parent.type === 'array') path.unshift(parent.children?.indexOf(current) ?? 0);
    current = parent.type === 'property' ? parent.parent : parent;
  }
  return path;
}

/** `servers` is VS Code's key; a file that only has `mcpServers` keeps using it, because that is what is read. */
function serversKey(root: Node): string {
  if (findNodeAtLocation(root, ['servers'])) return 'servers';
  return findNodeAtLocation(root, ['mcpServers']) ? 'mcpServers' : 'servers';
}

function edit(prepared: Prepared, edits: Edit[]): string {
  const result = applyEdits(prepared.text, edits);
  const errors: ParseError[] = [];
  parseTree(result, errors, PARSE_OPTIONS);
  // Defensive: an edit that breaks the file must never be written back.
  if (errors.length > 0)
    throw new ConfigEditError(
      `internal error: the edited mcp.json would not parse (${describeJsonErrorCode(errors[0].error)})`,
    );
  return result;
}
