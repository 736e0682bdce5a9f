import { enableExtension, type EnabledExtension } from '../protocolExtension';
import { mcpApps, type AppsServices } from './appsExtension';

export { mcpApps, type AppsApi } from './appsExtension';
export * from './toolUi';
export * from './uiResource';

/** The apps extension, enabled, while the host has apps on (setting mcpWorkbench.apps.enabled); none otherwise. */
export function appsExtensionsFor(enabled: boolean, services: AppsServices = {}): EnabledExtension[] {
  return enabled ? [enableExtension(mcpApps, services)] : [];
}
