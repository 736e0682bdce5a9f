import type { Tool } from '../../../protocol/types';
import type { ToolRule } from '../../../workbench/gateway/toolPolicy';
import type { AgentToolPolicies } from '../../platform/gateway/agentToolPolicies';
import type { ServerController } from '../../platform/servers/serverController';

/** A tool row of the Servers tree, as its context menu hands it over. */
interface ToolRow {
  kind: 'tool';
  controller: ServerController;
  tool: Tool;
}

function isToolRow(value: unknown): value is ToolRow {
  const row = value as Partial<ToolRow> | undefined;
  return row?.kind === 'tool' && row.controller !== undefined && typeof row.tool?.name === 'string';
}

/**
 * A tool row's Enable/Disable for Agents and Agent Policy → Run / Ask First / Review Result: the rule is stored under
 * the server's identity, and every open gateway of that server applies it at once (agents hear `tools/list_changed`).
 */
export async function setToolRule(
  policies: AgentToolPolicies,
  node: unknown,
  change: Partial<ToolRule>,
): Promise<void> {
  if (!isToolRow(node)) return;
  await policies.set(node.controller.identityKey, node.tool.name, change);
}
