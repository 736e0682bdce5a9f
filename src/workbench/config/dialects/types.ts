import type { ConfigProblem, InputDefinition, ServerDefinition, TextSpot } from '../mcpConfig';

/**
 * The files people keep MCP servers in, one dialect per client format. Each reads a file as that client reads it and
 * writes entries it accepts; what MCP Workbench cannot honour is a note on the server's row, never dropped silently.
 */

export type DialectId =
  | 'vscode-workspace'
  | 'dot-mcp'
  | 'github'
  | 'vscode-user'
  | 'code-workspace'
  | 'copilot'
  | 'cursor'
  | 'claude-code'
  | 'claude-desktop'
  | 'codex'
  | 'devcontainer'
  | 'standard';

/** Larger files are refused with a problem, before they are read: no config is anywhere near this. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

export interface ReadOrigin {
  /** The file's path, for messages. */
  path: string;
  /** The folder the file belongs to (Claude Code's `~/.claude.json` reads `projects[<folder>]`). */
  workspaceFolder?: string;
  /** Used for `${pathSeparator}`; defaults to '/'. */
  pathSeparator?: string;
}

export interface DialectServer {
  definition: ServerDefinition;
  /** What MCP Workbench cannot honour, or reads differently from that client: said on the server's row. */
  notes: string[];
  /** Where the entry's name is in the text, so the row opens the file at it. */
  at?: TextSpot;
  /**
   * Copilot's `tools` allow-list: only these tools of the server are offered (absent: every tool; `["*"]` reads as
   * absent). The host applies it: the extension hides the others and refuses a call to them.
   */
  allowedTools?: string[];
}

export interface DialectRead {
  servers: DialectServer[];
  inputs: InputDefinition[];
  problems: ConfigProblem[];
}

/** The entry as the target client's file holds it, or every reason it cannot hold it. */
export type WriteResult = { entry: Record<string, unknown>; notes: string[] } | { refused: string[] };

export interface Dialect {
  id: DialectId;
  /** The client and file, for rows and pickers: "Claude Code (~/.claude.json)". */
  label: string;
  /** Client name for notes: "Cursor". */
  client: string;
  read(text: string, origin: ReadOrigin): DialectRead;
  write(definition: ServerDefinition): WriteResult;
  /**
   * Adds one entry (as `write` made it), keeping the file's comments, order and other keys; throws ConfigEditError
   * when the file does not parse or the name is taken. Absent for a dialect read here but never written (Codex).
   */
  add?(text: string, name: string, entry: Record<string, unknown>, origin: ReadOrigin): string;
}

/** The refusal for a file over MAX_CONFIG_BYTES (the node reader refuses before reading; `read` checks the text). */
export function tooLargeProblem(bytes: number): ConfigProblem {
  return {
    message: `the file is ${Math.round(bytes / 1024)} KB, over the ${MAX_CONFIG_BYTES / 1024} KB a config file may have: not read`,
  };
}
