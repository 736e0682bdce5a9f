/**
 * Copilot's `tools` allow-list, applied where the extension offers a server's tools (vscode-free, so a unit test
 * covers it): a server defined in `.github/mcp.json` or `~/.copilot/mcp-config.json` with `"tools": ["a", "b"]` offers
 * Copilot only a and b, and the same file read here offers the person the same tools. A list that hid nothing from
 * this client while hiding tools from Copilot would make a tool look available to the agent that is not.
 */

/** The tools the allow-list offers (all when there is none); the ones it hides are logged by name. */
export function offeredTools<T extends { name: string }>(
  tools: readonly T[],
  allowed: readonly string[] | undefined,
  log?: { info(line: string): void },
): T[] {
  if (allowed === undefined) return [...tools];
  const hidden = tools.filter((tool) => !allowed.includes(tool.name)).map((tool) => tool.name);
  if (hidden.length > 0) log?.info(`Hidden by the "tools" allow-list: ${hidden.join(', ')}`);
  return tools.filter((tool) => allowed.includes(tool.name));
}

export function toolAllowed(name: string, allowed: readonly string[] | undefined): boolean {
  return allowed === undefined || allowed.includes(name);
}

/** Whether a tool list is the one already shown (each is within the input limits, so one stringify each is bounded). */
export function sameToolList(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
