import { DIALECTS } from '../../../workbench/config/dialects';
import { parseServerEntry } from '../../../workbench/config/mcpConfig';

/**
 * Which file a new server goes to by default (vscode-free, so a unit test covers it): where the current VS Code
 * writes. VS Code 1.140 writes new servers to the workspace-root `.mcp.json`, which refuses `inputs`, `${…}`, `cwd`,
 * `envFile` and the rest (field-2026-12.md §1.2), so an entry that needs any of them defaults to `.vscode/mcp.json`;
 * an MCPB bundle is unpacked on this computer, so only the person's own settings can name it.
 */

export type AddFileKind = 'dotMcp' | 'vscodeWorkspace' | 'user';

export interface AddFileChoice {
  preferred: AddFileKind;
  /** Why `.mcp.json` cannot hold the entry (empty when it can). */
  dotMcpRefused: string[];
}

export function preferredAddFile(
  name: string,
  entry: object,
  options: { inputs?: readonly unknown[]; bundle?: boolean } = {},
): AddFileChoice {
  const definition = parseServerEntry(name, entry);
  const refused =
    typeof definition === 'string'
      ? [definition]
      : (() => {
          const written = DIALECTS['dot-mcp'].write(definition);
          return 'refused' in written ? written.refused : [];
        })();
  // The write names each use of an input; declared inputs no value uses still have no place in `.mcp.json`.
  const dotMcpRefused =
    refused.length === 0 && (options.inputs?.length ?? 0) > 0
      ? ['"inputs" (prompted values, such as a secret) are not supported']
      : refused;
  if (options.bundle) return { preferred: 'user', dotMcpRefused };
  return { preferred: dotMcpRefused.length > 0 ? 'vscodeWorkspace' : 'dotMcp', dotMcpRefused };
}
