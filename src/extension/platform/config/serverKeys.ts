import { findNodeAtLocation, parseTree } from 'jsonc-parser';

/** Where a server's entry starts in an mcp.json text: the offset and length of its key under `"servers"`. */
interface ServerKeyLocation {
  name: string;
  offset: number;
  length: number;
}

/**
 * The keys of `"servers"` in an mcp.json text (comments and trailing commas allowed), in file order, so each
 * entry can carry MCP Workbench's own lens. A text that does not parse far enough yields what it can. No vscode
 * import: it runs in unit tests.
 */
export function serverKeyLocations(text: string): ServerKeyLocation[] {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  const servers = root ? findNodeAtLocation(root, ['servers']) : undefined;
  if (!servers || servers.type !== 'object') return [];
  const locations: ServerKeyLocation[] = [];
  for (const property of servers.children ?? []) {
    const key = property.children?.[0];
    if (property.type !== 'property' || !key || typeof key.value !== 'string') continue;
    locations.push({ name: key.value, offset: key.offset, length: key.length });
  }
  return locations;
}
