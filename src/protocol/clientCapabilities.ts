import type { ActiveExtensions } from './extensions/activeExtensions';
import type { ClientHost } from './host';
import type { ClientCapabilities } from './types';

/** What this client declares: the host services it was lent (roots, sampling, elicitation) and its enabled extensions. */
export function clientCapabilities(host: ClientHost, extensions: ActiveExtensions): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  if (host.roots) capabilities.roots = { listChanged: host.roots.onDidChangeRoots !== undefined };
  if (host.sampling) capabilities.sampling = host.sampling.supportsTools ? { tools: {} } : {};
  if (host.elicitation) {
    const modes = host.elicitation.modes;
    capabilities.elicitation = Object.fromEntries(modes.map((mode) => [mode, {}]));
  }
  Object.assign(capabilities, extensions.coreCapabilities());
  const declared = extensions.capabilities();
  if (declared) capabilities.extensions = declared;
  return capabilities;
}
