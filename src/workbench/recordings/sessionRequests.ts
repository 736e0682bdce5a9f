import type { StepMethod } from './stepMethods';
import { isObject } from '../../protocol/guards';

/**
 * A line of `session` (the CLI's subcommand syntax) as the request a recording holds, and how the line's output
 * becomes the result the method answers (`tools` prints the list; the recording keeps `{"tools": [...]}`, the shape
 * a replay gets from the same method). Undefined for a line that is no request (`info` shows the session's opening).
 * The line has already run, so its arguments are known to parse.
 */
interface SessionRequest {
  method: StepMethod;
  params: Record<string, unknown>;
  resultOf(output: unknown): unknown;
}

export function sessionRequest(subcommand: string, positionals: readonly string[]): SessionRequest | undefined {
  const [first, second, third, fourth = ''] = positionals;
  const as = (
    method: StepMethod,
    params: Record<string, unknown>,
    resultOf: (output: unknown) => unknown = (output) => output,
  ): SessionRequest => ({ method, params, resultOf });
  switch (subcommand) {
    case 'ping':
      return as('ping', {}, () => ({}));
    case 'tools':
      return as('tools/list', {}, (output) => ({ tools: output }));
    case 'call':
      // The CLI adds its own check of structuredContent to the result; the server did not send it.
      return as('tools/call', { name: first, arguments: jsonObject(second) }, (output) => {
        if (typeof output !== 'object' || output === null) return output;
        const { outputValidation: _ours, ...result } = output as Record<string, unknown>;
        return result;
      });
    case 'resources':
      return as('resources/list', {}, (output) => ({ resources: output }));
    case 'templates':
      return as('resources/templates/list', {}, (output) => ({ resourceTemplates: output }));
    case 'read':
      return as('resources/read', { uri: first });
    case 'prompts':
      return as('prompts/list', {}, (output) => ({ prompts: output }));
    case 'prompt': {
      // As the `prompt` line sends them: prompt arguments are strings, other JSON values go as their JSON text.
      const args = Object.fromEntries(
        Object.entries(jsonObject(second)).map(([key, value]) => [
          key,
          typeof value === 'string' ? value : JSON.stringify(value),
        ]),
      );
      return as('prompts/get', { name: first, arguments: args });
    }
    case 'complete':
      return as(
        'completion/complete',
        {
          ref: first === 'prompt' ? { type: 'ref/prompt', name: second } : { type: 'ref/resource', uri: second },
          argument: { name: third, value: fourth },
        },
        (output) => ({ completion: output }),
      );
    case 'set-level':
      return as('logging/setLevel', { level: first }, () => ({}));
    default:
      return undefined;
  }
}

function jsonObject(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  const value: unknown = JSON.parse(text);
  return isObject(value) ? value : {};
}
