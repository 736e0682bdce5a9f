import { parse as parseJsonc } from 'jsonc-parser';
import { addInputToConfig, addServerToConfig, type EditFormatting } from '../config/jsoncEdit';
import { parseMcpConfig } from '../config/mcpConfig';
import type { MappedServer } from './mapping';

/**
 * Writes a mapped registry server into mcp.json text through the JSONC editor (comments and formatting kept):
 * the entry under `servers`, then each input it needs. Either all of it is written or, when any step is refused
 * (a taken name, a file that does not parse), the error is thrown and the caller writes nothing.
 */
export function writeMappedServer(
  text: string,
  key: string,
  mapped: MappedServer,
  formatting: EditFormatting = {},
): string {
  let result = addServerToConfig(text, key, mapped.entry, formatting);
  for (const input of mapped.inputs) result = addInputToConfig(result, input, formatting);
  return result;
}

/** Server keys and input ids already in the file, so new ones can be made unique. */
export function namesInConfig(text: string): { servers: string[]; inputIds: string[] } {
  const parsed = parseMcpConfig(text);
  const root = parseJsonc(text, [], { allowTrailingComma: true }) as { inputs?: unknown } | undefined;
  const inputIds = Array.isArray(root?.inputs)
    ? root.inputs.flatMap((input: unknown) =>
        typeof (input as { id?: unknown })?.id === 'string' ? [(input as { id: string }).id] : [],
      )
    : [];
  return {
    servers: [
      ...parsed.servers.map((server) => server.name),
      ...parsed.problems.flatMap((problem) => (problem.server ? [problem.server] : [])),
    ],
    inputIds,
  };
}

/** `base`, or `base-2`, `base-3`…: the first not taken (case-insensitively, as VS Code treats keys). */
export function uniqueKey(base: string, taken: readonly string[]): string {
  const lower = new Set(taken.map((name) => name.toLowerCase()));
  let key = base;
  for (let n = 2; lower.has(key.toLowerCase()); n++) key = `${base}-${n}`;
  return key;
}
