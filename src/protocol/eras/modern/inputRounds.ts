import type { JsonObject } from '../../types';

/**
 * The retry of a Multi Round-Trip Request (basic/patterns/mrtr.mdx): McpClient's request loop answers every
 * input request through the host's services and sends the original request again, on a new JSON-RPC id,
 * with the params built here. The round bound is the loop's attempt limit.
 */

/**
 * The retry's params: the original params plus this round's `inputResponses` and the server's
 * `requestState` exactly as received (a string passed through untouched, never parsed). Either is omitted
 * when there is nothing to send, and neither leaks into other requests: each retry is built from the params
 * of its own request, and anything a previous round added is replaced.
 */
export function retryParams(
  original: JsonObject | undefined,
  responses: Record<string, JsonObject> | undefined,
  requestState: string | undefined,
): JsonObject {
  const params: JsonObject = { ...(original ?? {}) };
  delete params.inputResponses;
  delete params.requestState;
  if (responses !== undefined && Object.keys(responses).length > 0) params.inputResponses = responses;
  if (requestState !== undefined) params.requestState = requestState;
  return params;
}
