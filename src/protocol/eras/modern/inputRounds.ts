import { LocalError, errorMessage } from '../../errors';
import type { ClientHost, RequestContext } from '../../host';
import type { CreateMessageRequest, ElicitRequest, JsonObject } from '../../types';
import { validateSamplingRequest } from '../../validation/samplingValidation';
import { readResult, type InputRequest } from './results';

/**
 * The client side of Multi Round-Trip Requests (basic/patterns/mrtr.mdx): when a result says
 * `input_required`, fulfil every input request through the host's services, then retry the original request
 * (a new JSON-RPC request, so a new id) with `inputResponses` and the server's `requestState` echoed
 * verbatim, until the server answers with a complete result or the round bound is reached.
 */

export const DEFAULT_MAX_INPUT_ROUNDS = 10;

export interface InputRoundOptions {
  serverName: string;
  /** The original request's method, for messages. */
  method: string;
  host: ClientHost;
  signal?: AbortSignal;
  maxRounds?: number;
}

/** Answers one input request with the host's service, or explains why it cannot be answered. */
async function fulfilOne(key: string, request: InputRequest, options: InputRoundOptions, context: RequestContext): Promise<JsonObject> {
  const { serverName, method, host } = options;
  const params = request.params ?? {};
  const needs = (what: string) =>
    new LocalError('invalid-result', `${serverName}: ${method} asked for ${what} (input request ${JSON.stringify(key)}), which this client did not declare`);
  switch (request.method) {
    case 'elicitation/create': {
      const elicitation = host.elicitation;
      if (!elicitation) throw needs('elicitation');
      const mode = params.mode === undefined ? 'form' : params.mode;
      if (mode !== 'form' && mode !== 'url') throw new LocalError('invalid-result', `${serverName}: input request ${JSON.stringify(key)} has unknown elicitation mode ${JSON.stringify(mode)}`);
      if (!elicitation.modes.includes(mode)) throw needs(`${mode}-mode elicitation`);
      if (typeof params.message !== 'string') throw new LocalError('invalid-result', `${serverName}: elicitation input request ${JSON.stringify(key)} has no message`);
      if (mode === 'url' && typeof params.url !== 'string') throw new LocalError('invalid-result', `${serverName}: URL-mode elicitation input request ${JSON.stringify(key)} has no url`);
      // decline and cancel are answers too: the ElicitResult goes back to the server, which decides.
      return (await elicitation.elicit({ ...(params as unknown as ElicitRequest), mode }, context)) as unknown as JsonObject;
    }
    case 'sampling/createMessage': {
      const sampling = host.sampling;
      if (!sampling) throw needs('sampling');
      const problem = validateSamplingRequest(params, Boolean(sampling.supportsTools));
      if (problem) throw new LocalError('invalid-result', `${serverName}: sampling input request ${JSON.stringify(key)} is invalid: ${problem}`);
      try {
        return (await sampling.createMessage(params as unknown as CreateMessageRequest, context)) as unknown as JsonObject;
      } catch (error) {
        // A sampling result has no "declined" shape to send back, so a refusal ends the request here.
        if (context.signal.aborted) throw error;
        throw new LocalError('input-declined', `${serverName}: ${method} needed a sampling answer (input request ${JSON.stringify(key)}) that was not given: ${errorMessage(error)}`, { cause: error });
      }
    }
    case 'roots/list': {
      const roots = host.roots;
      if (!roots) throw needs('roots');
      return { roots: await roots.listRoots() };
    }
    default:
      throw new LocalError('invalid-result', `${serverName}: ${method} asked for ${JSON.stringify(request.method)} (input request ${JSON.stringify(key)}), which is not an input request this client knows`);
  }
}

/** Fulfils every input request, one at a time so the person sees one question after another. */
export async function fulfilInputRequests(requests: Record<string, InputRequest>, options: InputRoundOptions): Promise<Record<string, JsonObject>> {
  const context: RequestContext = { serverName: options.serverName, signal: options.signal ?? new AbortController().signal };
  const responses: Record<string, JsonObject> = {};
  for (const [key, request] of Object.entries(requests)) {
    if (context.signal.aborted) throw new LocalError('cancelled', `${options.serverName}: ${options.method} was cancelled while gathering input`);
    responses[key] = await fulfilOne(key, request, options, context);
  }
  return responses;
}

/**
 * The retry's params: the original params plus this round's `inputResponses` and the `requestState`
 * exactly as received. Either is omitted when there is nothing to send; neither leaks into other requests
 * because each call builds from the original params.
 */
export function retryParams(original: JsonObject | undefined, responses: Record<string, JsonObject> | undefined, requestState: string | undefined): JsonObject {
  const params: JsonObject = { ...(original ?? {}) };
  delete params.inputResponses;
  delete params.requestState;
  if (responses !== undefined && Object.keys(responses).length > 0) params.inputResponses = responses;
  if (requestState !== undefined) params.requestState = requestState;
  return params;
}

/**
 * Sends the request and drives it to a complete result. `send` issues one JSON-RPC request (so every call
 * gets a new id) and resolves with its raw result.
 */
export async function runWithInputRounds(options: InputRoundOptions, params: JsonObject | undefined, send: (params: JsonObject | undefined) => Promise<JsonObject>): Promise<JsonObject> {
  const maxRounds = options.maxRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
  let read = readResult(options.serverName, options.method, await send(params));
  for (let round = 1; ; round++) {
    if (read.kind === 'complete') return read.result;
    if (round > maxRounds) {
      throw new LocalError('input-rounds-exceeded', `${options.serverName}: ${options.method} still required input after ${maxRounds} rounds; giving up`);
    }
    const responses = read.inputRequests === undefined ? undefined : await fulfilInputRequests(read.inputRequests, options);
    read = readResult(options.serverName, options.method, await send(retryParams(params, responses, read.requestState)));
  }
}
