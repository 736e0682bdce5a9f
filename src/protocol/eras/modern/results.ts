import { LocalError } from '../../errors';
import type { JsonObject } from '../../types';
import { isObject } from '../../guards';

/**
 * Reading `resultType` (2026-07-28 basic/index.mdx, "Responses"): a missing value means "complete" (a server
 * of an earlier revision); "input_required" carries MRTR input requests; anything else is an invalid result.
 * The request fails with a typed local error, but the connection stays usable.
 */

interface InputRequest {
  method: string;
  params?: JsonObject;
}

type ReadResult =
  | { kind: 'complete'; result: JsonObject }
  /** A resultType an enabled protocol extension owns (for example "task"). */
  | { kind: 'extension'; resultType: string; result: JsonObject }
  | {
      kind: 'input_required';
      /** Absent when the server only wants the request retried with its state. */
      inputRequests?: Record<string, InputRequest>;
      /** Opaque: echoed byte for byte, never inspected. */
      requestState?: string;
    };

/**
 * Input requests one round may carry. Each may open a dialog or spend model tokens, so a server asking for
 * more than this in one go is refused rather than obeyed.
 */
const MAX_INPUT_REQUESTS_PER_ROUND = 16;

/** Methods on which a server may answer input_required (basic/patterns/mrtr.mdx, "Supported Requests"). */
const INPUT_REQUIRED_METHODS: ReadonlySet<string> = new Set(['tools/call', 'resources/read', 'prompts/get']);

const NO_EXTENSION_RESULT_TYPES: ReadonlySet<string> = new Set();

export function readResult(
  serverName: string,
  method: string,
  result: JsonObject,
  extensionResultTypes = NO_EXTENSION_RESULT_TYPES,
): ReadResult {
  const resultType = result.resultType;
  if (resultType === undefined || resultType === 'complete') return { kind: 'complete', result };
  if (typeof resultType === 'string' && extensionResultTypes.has(resultType))
    return { kind: 'extension', resultType, result };
  if (resultType !== 'input_required') {
    throw new LocalError(
      'invalid-result',
      `${serverName}: the ${method} result has resultType ${JSON.stringify(resultType)}, which this client does not recognise (it knows "complete" and "input_required"); the result was discarded`,
    );
  }
  if (!INPUT_REQUIRED_METHODS.has(method)) {
    throw new LocalError(
      'invalid-result',
      `${serverName}: answered ${method} with input_required, which the spec allows only on tools/call, resources/read and prompts/get`,
    );
  }
  const { inputRequests, requestState } = result;
  if (requestState !== undefined && typeof requestState !== 'string') {
    throw new LocalError(
      'invalid-result',
      `${serverName}: the ${method} input_required result has a requestState that is not a string`,
    );
  }
  if (inputRequests !== undefined && !isObject(inputRequests)) {
    throw new LocalError(
      'invalid-result',
      `${serverName}: the ${method} input_required result has inputRequests that is not an object`,
    );
  }
  if (inputRequests === undefined && requestState === undefined) {
    throw new LocalError(
      'invalid-result',
      `${serverName}: the ${method} input_required result has neither inputRequests nor requestState`,
    );
  }
  const entries = Object.entries((inputRequests ?? {}) as JsonObject);
  if (entries.length > MAX_INPUT_REQUESTS_PER_ROUND) {
    throw new LocalError(
      'invalid-result',
      `${serverName}: the ${method} result asks for ${entries.length} inputs at once; this client answers at most ${MAX_INPUT_REQUESTS_PER_ROUND} per round`,
    );
  }
  const requests: Record<string, InputRequest> = {};
  for (const [key, entry] of entries) {
    const candidate = entry as JsonObject | null;
    if (typeof candidate !== 'object' || candidate === null || typeof candidate.method !== 'string') {
      throw new LocalError(
        'invalid-result',
        `${serverName}: input request ${JSON.stringify(key)} of the ${method} result has no method`,
      );
    }
    const params = candidate.params;
    if (params !== undefined && !isObject(params)) {
      throw new LocalError(
        'invalid-result',
        `${serverName}: input request ${JSON.stringify(key)} of the ${method} result has params that are not an object`,
      );
    }
    requests[key] = { method: candidate.method, params: params as JsonObject | undefined };
  }
  return {
    kind: 'input_required',
    ...(inputRequests === undefined ? {} : { inputRequests: requests }),
    ...(requestState === undefined ? {} : { requestState: requestState as string }),
  };
}
