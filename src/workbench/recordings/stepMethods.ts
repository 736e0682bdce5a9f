import type { McpClient } from '../../protocol/client';
import { LocalError, McpError, errorMessage } from '../../protocol/errors';
import { LOGGING_LEVELS, type CompletionReference, type LoggingLevel } from '../../protocol/types';
import { isObject } from '../../protocol/guards';
import { checkEventsParams } from './eventsStepParams';

/**
 * The requests a recording can hold, and how each is asked again through the client. A list step is the whole
 * list (every page, as the client gathers it) under the method's result key, so a recording does not depend on
 * where a server cuts its pages.
 */
export const STEP_METHODS = [
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  // Not an MCP request: a subscription bounded by count or time (eventsStep.ts).
  'events/subscribe',
] as const;

export type StepMethod = (typeof STEP_METHODS)[number];

export type StepAnswer =
  { result: unknown } | { error: { code?: number; kind?: string; message: string; data?: unknown } };

/** A request whose params cannot be asked (a file edited by hand); the replay stops with a usage error. */
export class StepParamsError extends Error {
  override readonly name = 'StepParamsError';
}

/** Asks one recorded request again and returns the answer in the recorded shape; never throws for the server's failures. */
export async function performStep(
  client: McpClient,
  method: StepMethod,
  params: Record<string, unknown>,
  /** Ends a step that waits (events/subscribe) early: a cancelled run. */
  signal?: AbortSignal,
): Promise<StepAnswer> {
  try {
    return { result: await ask(client, method, params, signal) };
  } catch (error) {
    if (error instanceof StepParamsError) throw error;
    return answerOfError(error);
  }
}

async function ask(
  client: McpClient,
  method: StepMethod,
  params: Record<string, unknown>,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  switch (method) {
    case 'ping':
      await client.ping();
      return {};
    case 'tools/list':
      return { tools: await client.listTools() };
    case 'tools/call':
      return (await client.callTool(text(params, 'name', method), objectParam(params, 'arguments', method))).result;
    case 'resources/list':
      return { resources: await client.listResources() };
    case 'resources/templates/list':
      return { resourceTemplates: await client.listResourceTemplates() };
    case 'resources/read':
      return client.readResource(text(params, 'uri', method));
    case 'prompts/list':
      return { prompts: await client.listPrompts() };
    case 'prompts/get':
      return client.getPrompt(
        text(params, 'name', method),
        objectParam(params, 'arguments', method) as Record<string, string>,
      );
    case 'completion/complete': {
      const ref = params.ref as CompletionReference | undefined;
      const argument = params.argument as { name: string; value: string } | undefined;
      if (!ref || (ref.type !== 'ref/prompt' && ref.type !== 'ref/resource'))
        throw new StepParamsError('completion/complete needs params.ref of type ref/prompt or ref/resource');
      if (!argument || typeof argument.name !== 'string' || typeof argument.value !== 'string')
        throw new StepParamsError('completion/complete needs params.argument with a name and a value');
      const context = (params.context as { arguments?: Record<string, string> } | undefined)?.arguments;
      return { completion: await client.complete(ref, argument, context) };
    }
    case 'logging/setLevel': {
      const level = text(params, 'level', method);
      if (!LOGGING_LEVELS.includes(level as LoggingLevel))
        throw new StepParamsError(`logging/setLevel needs a level among ${LOGGING_LEVELS.join(', ')}`);
      await client.setLoggingLevel(level as LoggingLevel);
      return {};
    }
    case 'events/subscribe': {
      const checked = checkEventsParams(params);
      if ('problem' in checked) throw new StepParamsError(`${method} ${checked.problem}`);
      // Loaded here: the Events client stays out of what reading a recording needs.
      const { performEventsStep } = await import('./eventsStep.js');
      return performEventsStep(client, checked, signal);
    }
    default: {
      const exhaustive: never = method;
      return exhaustive;
    }
  }
}

/** A server's JSON-RPC error by its code, message as sent and data; our own failures by their kind. */
export function answerOfError(error: unknown): StepAnswer {
  if (error instanceof McpError)
    return {
      error: { code: error.code, message: error.rawMessage, ...(error.data === undefined ? {} : { data: error.data }) },
    };
  if (error instanceof LocalError) return { error: { kind: error.kind, message: errorMessage(error) } };
  return { error: { kind: 'internal', message: errorMessage(error) } };
}

function text(params: Record<string, unknown>, key: string, method: StepMethod): string {
  const value = params[key];
  if (typeof value !== 'string') throw new StepParamsError(`${method} needs params.${key} as a string`);
  return value;
}

function objectParam(params: Record<string, unknown>, key: string, method: StepMethod): Record<string, unknown> {
  const value = params[key];
  if (value === undefined) return {};
  if (!isObject(value)) throw new StepParamsError(`${method} needs params.${key} as an object`);
  return value as Record<string, unknown>;
}
