import {
  applyEdits,
  findNodeAtLocation,
  getNodeValue,
  modify,
  parseTree,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import { ConfigEditError, detectFormatting } from '../config/jsoncEdit';

/**
 * The entry another MCP client needs to reach a gateway, in each client's own config file: which file, under which
 * key, in which shape. Host-neutral: the extension's Connect Another Client writes it, a CLI could print it.
 */

/** The clients a gateway entry can be written for. */
export type GatewayClientKind = 'claudeCode' | 'cursor' | 'vscodeUser' | 'copilotCli';

/** What an agent is configured with: the gateway's URL and the header carrying its secret. */
export interface GatewayEndpoint {
  readonly name: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

interface ClientFormat {
  /** The top-level key the client reads its servers from. */
  readonly key: 'mcpServers' | 'servers';
  /** Whether the client wants `"type": "http"` (Cursor infers it from `url`). */
  readonly typed: boolean;
  /** Copilot CLI exposes only the tools an entry lists; `["*"]` is every tool, as its own `/mcp add` writes. */
  readonly allTools: boolean;
}

const FORMATS: { readonly [Kind in GatewayClientKind]: ClientFormat } = {
  claudeCode: { key: 'mcpServers', typed: true, allTools: false },
  cursor: { key: 'mcpServers', typed: false, allTools: false },
  vscodeUser: { key: 'servers', typed: true, allTools: false },
  copilotCli: { key: 'mcpServers', typed: true, allTools: true },
};

/** One server's entry for `kind`. */
export function clientEntry(kind: GatewayClientKind, endpoint: GatewayEndpoint): Record<string, unknown> {
  const format = FORMATS[kind];
  return {
    ...(format.typed ? { type: 'http' } : {}),
    url: endpoint.url,
    headers: { ...endpoint.headers },
    ...(format.allTools ? { tools: ['*'] } : {}),
  };
}

/** What copying to the clipboard gives: an `mcpServers` object most clients accept as it is. */
export function clipboardSnippet(endpoints: readonly GatewayEndpoint[]): string {
  const servers: Record<string, unknown> = {};
  for (const endpoint of endpoints) servers[endpoint.name] = clientEntry('claudeCode', endpoint);
  return `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`;
}

/** The result of writing entries into a client's file. */
export interface ClientFileEdit {
  /** The file's new text. */
  readonly text: string;
  /** Names whose existing entry is replaced (the confirmation says so: it may be the person's own). */
  readonly replaced: string[];
}

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true } as const;

/**
 * Adds (or replaces) each endpoint's entry in a client's config file, keeping every other entry, the comments and the
 * formatting. `text` is the file's content ('' when it does not exist). A file that is not valid JSONC, or whose
 * top level or servers key is not an object, is refused (ConfigEditError): rewriting what could not be read could
 * drop what the person wrote.
 */
export function writeClientEntries(
  kind: GatewayClientKind,
  text: string,
  endpoints: readonly GatewayEndpoint[],
): ClientFileEdit {
  const format = FORMATS[kind];
  const errors: ParseError[] = [];
  const root: Node | undefined = parseTree(text, errors, PARSE_OPTIONS);
  if (errors.length > 0) throw new ConfigEditError('the file is not valid JSON with comments; fix it first');
  if (root !== undefined && root.type !== 'object') throw new ConfigEditError('the file does not hold a JSON object');
  const container = root && findNodeAtLocation(root, [format.key]);
  if (container !== undefined && container.type !== 'object')
    throw new ConfigEditError(`"${format.key}" in the file is not an object`);
  const existing = new Set(
    container ? Object.keys((getNodeValue(container) ?? {}) as Record<string, unknown>) : ([] as string[]),
  );
  const detected = detectFormatting(text);
  const formattingOptions = { tabSize: detected.tabSize, insertSpaces: detected.insertSpaces, eol: detected.eol };
  // Empty, or only comments: the comments stay, an object starts after them.
  let next = root !== undefined ? text : text.trim() === '' ? '{}' : `${text.trimEnd()}${detected.eol}{}`;
  const replaced: string[] = [];
  for (const endpoint of endpoints) {
    if (existing.has(endpoint.name)) replaced.push(endpoint.name);
    const edits = modify(next, [format.key, endpoint.name], clientEntry(kind, endpoint), { formattingOptions });
    next = applyEdits(next, edits);
  }
  if (!next.endsWith(detected.eol)) next += detected.eol;
  return { text: next, replaced };
}
