import { ErrorCodes, LocalError, McpError } from '../errors';
import type { InputRequest, InputResponses } from '../eras/era';
import type { ClientHost } from '../host';
import type { PersonWaits } from '../jsonrpc/personWaits';
import type { ServerRequestMethod, ServerRequests, Unverified } from '../methods';
import type { JsonObject } from '../types';
import { assertFlatElicitationSchema } from '../validation/elicitationSchema';
import { validateSamplingRequest } from '../validation/samplingValidation';

export type ServerRequestHandlers = {
  [M in ServerRequestMethod]?: (
    params: Unverified<ServerRequests[M]['params']>,
    signal: AbortSignal,
  ) => Promise<ServerRequests[M]['result']>;
};

export const SERVER_REQUEST_METHODS: readonly ServerRequestMethod[] = [
  'ping',
  'roots/list',
  'sampling/createMessage',
  'elicitation/create',
];

interface ServerRequestContext {
  serverName: string;
  host: ClientHost;
  personWaits: PersonWaits;
  /** Whether a URL-mode elicitation must carry an elicitationId (the era says). */
  urlElicitationNeedsId(): boolean;
}

/**
 * The host's services as handlers of the server's requests: server→client requests in the handshake era, input
 * requests of 2026-07-28 results. Every handler that hands work to a person (a sampling review, an elicitation form)
 * runs inside a PersonWaits wait, so the connection's request deadlines wait for the person too.
 */
export function createServerRequestHandlers(context: ServerRequestContext): ServerRequestHandlers {
  const { host, serverName, personWaits } = context;
  const handlers: ServerRequestHandlers = { ping: async () => ({}) };
  const roots = host.roots;
  if (roots) handlers['roots/list'] = async () => ({ roots: await roots.listRoots() });
  const sampling = host.sampling;
  if (sampling) {
    handlers['sampling/createMessage'] = async (params, signal) => {
      const problem = validateSamplingRequest(params, Boolean(sampling.supportsTools));
      if (problem) throw new McpError(ErrorCodes.InvalidParams, problem);
      // validateSamplingRequest checked the shape the handler relies on.
      const request = params as ServerRequests['sampling/createMessage']['params'];
      return personWaits.during(() => sampling.createMessage(request, { serverName, signal }));
    };
  }
  const elicitation = host.elicitation;
  if (elicitation) {
    handlers['elicitation/create'] = async (params, signal) => {
      const mode = params.mode === undefined ? 'form' : params.mode;
      if (mode !== 'form' && mode !== 'url')
        throw new McpError(ErrorCodes.InvalidParams, `unknown elicitation mode ${JSON.stringify(mode)}`);
      if (!elicitation.modes.includes(mode))
        throw new McpError(ErrorCodes.InvalidParams, `elicitation mode "${mode}" was not declared by this client`);
      const message = params.message;
      if (typeof message !== 'string')
        throw new McpError(ErrorCodes.InvalidParams, 'elicitation/create needs a message');
      const needsId = context.urlElicitationNeedsId();
      if (mode === 'url' && (typeof params.url !== 'string' || (needsId && typeof params.elicitationId !== 'string'))) {
        throw new McpError(
          ErrorCodes.InvalidParams,
          needsId ? 'URL-mode elicitation needs url and elicitationId' : 'URL-mode elicitation needs a url',
        );
      }
      // A form may only ask for flat primitive fields (the spec's PrimitiveSchemaDefinition); anything else is
      // refused with -32602 before a person sees it. The form layer still bounds what it renders.
      if (mode === 'form') assertFlatElicitationSchema(params.requestedSchema);
      const request: ServerRequests['elicitation/create']['params'] = {
        ...(params as ServerRequests['elicitation/create']['params']),
        mode,
        message,
      };
      return personWaits.during(() => elicitation.elicit(request, { serverName, signal }));
    };
  }
  return handlers;
}

/** Answers one input request (2026-07-28) with the handler of the same server request. */
function answerInputRequest(
  serverName: string,
  handlers: ServerRequestHandlers,
  input: InputRequest,
  signal: AbortSignal,
): Promise<JsonObject> {
  const missing = () =>
    new LocalError('capability-missing', `${serverName} asked for ${input.method}, which this client does not offer`);
  switch (input.method) {
    case 'ping':
      return handlers.ping ? handlers.ping(input.params, signal) : Promise.reject(missing());
    case 'roots/list':
      return handlers['roots/list'] ? handlers['roots/list'](input.params, signal) : Promise.reject(missing());
    case 'sampling/createMessage':
      return handlers['sampling/createMessage']
        ? handlers['sampling/createMessage'](input.params, signal)
        : Promise.reject(missing());
    case 'elicitation/create':
      return handlers['elicitation/create']
        ? handlers['elicitation/create'](input.params, signal)
        : Promise.reject(missing());
  }
}

/** Answers every input request of one round, in order (each may be a person's dialog). */
export async function answerInputRequests(
  serverName: string,
  handlers: ServerRequestHandlers,
  inputRequests: Readonly<Record<string, InputRequest>>,
  signal: AbortSignal | undefined,
): Promise<InputResponses> {
  const responses: InputResponses = {};
  const scope = signal ?? new AbortController().signal;
  for (const [key, input] of Object.entries(inputRequests)) {
    responses[key] = await answerInputRequest(serverName, handlers, input, scope);
  }
  return responses;
}
