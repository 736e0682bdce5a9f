/**
 * What two other clients would do differently with a server's tools, for doctor's last step. The limits, and where
 * they are from (../shared/reference/field-2026-12.md gathers them):
 *   - VS Code sends at most 128 tools with a chat request, and its own built-in tools count against the 128
 *     (microsoft/vscode#294055); each MCP tool reaches the model under a name VS Code makes from the server's and the
 *     tool's (microsoft/vscode#296591 shows the prefixes).
 *   - Claude Code names an MCP tool `mcp__<server>__<tool>` (code.claude.com/docs/en/mcp).
 *   - Both hand the name to a model API whose tool names must match ^[a-zA-Z0-9_-]{1,64}$ (OpenAI function names,
 *     Anthropic tool names): a name with other characters is rewritten, one past 64 characters is cut, so two tools
 *     can end up under one name.
 */

export const VS_CODE_TOOL_LIMIT = 128;
const MODEL_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MODEL_TOOL_NAME_MAX = 64;

export interface ClientView {
  client: 'VS Code' | 'Claude Code';
  /** The name the client gives this server's tool before the model sees it. */
  exposedName(server: string, tool: string): string;
}

const CLIENTS: readonly ClientView[] = [
  { client: 'VS Code', exposedName: (server, tool) => `mcp_${server}_${tool}` },
  { client: 'Claude Code', exposedName: (server, tool) => `mcp__${server}__${tool}` },
];

export interface ClientFindings {
  /** Over a client's tool limit: the client drops or defers tools. */
  overLimit?: string;
  /** Tool names a client rewrites, per client. */
  rewritten: { client: string; tools: string[] }[];
}

export function clientFindings(server: string, toolNames: readonly string[]): ClientFindings {
  const findings: ClientFindings = { rewritten: [] };
  if (toolNames.length > VS_CODE_TOOL_LIMIT)
    findings.overLimit = `VS Code sends at most ${VS_CODE_TOOL_LIMIT} tools with a request, its own built-in tools included: ${toolNames.length} tools from this server alone are over it, so VS Code leaves some out`;
  for (const view of CLIENTS) {
    const tools = toolNames.filter((tool) => {
      const exposed = view.exposedName(server, tool);
      return !MODEL_TOOL_NAME.test(exposed) || exposed.length > MODEL_TOOL_NAME_MAX;
    });
    if (tools.length > 0) findings.rewritten.push({ client: view.client, tools });
  }
  return findings;
}
