import type { ServerController } from '../servers/serverController';

/** `completion/complete` for one argument, or undefined when the server does not offer completions. */
export function completer(
  controller: ServerController,
  ref: { type: 'ref/resource'; uri: string } | { type: 'ref/prompt'; name: string },
  name: string,
  earlier: Record<string, string>,
): ((value: string) => Promise<string[]>) | undefined {
  const client = controller.client;
  if (!client || client.state.kind !== 'ready' || !client.session.capabilities.completions) return undefined;
  return async (value) => {
    const context = Object.keys(earlier).length > 0 ? { ...earlier } : undefined;
    const completion = await client.complete(ref, { name, value }, context);
    return Array.isArray(completion.values) ? completion.values.filter((v): v is string => typeof v === 'string') : [];
  };
}
