import type { JsonObject } from '../types';

/**
 * Checks a sampling/createMessage request against the spec's structural rules before the host sees it
 * (client/sampling.mdx, tool-use loop). Returns the problem, or undefined when the request is acceptable.
 */
export function validateSamplingRequest(params: JsonObject, supportsTools: boolean): string | undefined {
  if (!Array.isArray(params.messages)) return 'sampling/createMessage needs a messages array';
  if (typeof params.maxTokens !== 'number') return 'sampling/createMessage needs maxTokens';
  if ((params.tools !== undefined || params.toolChoice !== undefined) && !supportsTools) {
    return 'this client did not declare sampling.tools, so tools and toolChoice cannot be used';
  }
  const pendingToolUses = new Set<string>();
  for (const [index, message] of (params.messages as JsonObject[]).entries()) {
    const blocks = Array.isArray(message?.content)
      ? (message.content as JsonObject[])
      : [message?.content as JsonObject];
    const toolResults = blocks.filter((block) => block?.type === 'tool_result');
    if (toolResults.length > 0 && toolResults.length !== blocks.length) {
      return `message ${index} mixes tool_result with other content; a tool-result message must contain only tool results`;
    }
    for (const block of blocks) {
      if (block?.type === 'tool_use' && typeof block.id === 'string') pendingToolUses.add(block.id);
      if (block?.type === 'tool_result') {
        const id = block.toolUseId;
        if (typeof id !== 'string' || !pendingToolUses.delete(id)) {
          return `message ${index} has a tool_result for unknown toolUseId ${describeId(id)}`;
        }
      }
    }
  }
  return undefined;
}

/** A server-sent id for an error message: never serialized whole (it may be a huge or deeply nested value). */
function describeId(id: unknown): string {
  if (typeof id === 'string') return JSON.stringify(id.length > 100 ? `${id.slice(0, 100)}…` : id);
  if (Array.isArray(id)) return 'an array';
  if (typeof id === 'object' && id !== null) return 'an object';
  return String(id);
}
