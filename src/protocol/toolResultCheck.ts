import type { CallToolOutcome } from './clientOptions';
import { LocalError } from './errors';
import type { CallToolResult, JsonObject, Tool } from './types';
import type { SchemaValidator } from './validation/schemaValidation';

/**
 * The checks every tools/call result gets, however it came: answered directly, or as the result of the task the call
 * became (2025-11-25 tasks/result, a completed 2026-07-28 task). It must have a content array (else it is refused), and
 * its structuredContent is validated against the outputSchema of the tool as last listed. A task result whose tool is
 * not known (a task this run did not start) gets the content check only.
 */
export function checkToolResult(
  result: JsonObject,
  serverName: string,
  tool: Tool | undefined,
  about: { toolName?: string; taskId?: string },
  validator: SchemaValidator,
): CallToolOutcome {
  // The server and the tool come as arguments, not spread into `about`: this runs for every tools/call result, and
  // the spread object (with its added keys) cost more than the rest of the check.
  const { toolName, taskId } = about;
  if (!Array.isArray(result.content)) {
    const what =
      taskId === undefined
        ? `tools/call result for ${toolName ?? 'a tool'}`
        : `result of task ${taskId}${toolName === undefined ? '' : ` (${toolName})`}`;
    throw new LocalError(
      'protocol-violation',
      `${serverName}: ${taskId === undefined ? what : `the ${what}`} has no content array`,
    );
  }
  const checked = result as CallToolResult;
  if (!tool?.outputSchema || checked.isError) return { result: checked };
  if (checked.structuredContent === undefined) {
    return {
      result: checked,
      outputValidation: {
        kind: 'invalid',
        errors: ['the tool declares an outputSchema but returned no structuredContent'],
      },
    };
  }
  return { result: checked, outputValidation: validator.validate(tool.outputSchema, checked.structuredContent) };
}
