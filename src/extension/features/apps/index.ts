import { defineFeature } from '../../platform/feature';
import { AppHost } from './appHost';

/** MCP Apps: a called tool's app drawn beside its result, and again from History; the app's own calls go to History. */
export const appsFeature = defineFeature({
  name: 'apps',
  activate({ services, own, extension, platform }) {
    const host = new AppHost(extension, platform.historyRecorder);
    own(host);
    services.offer('apps', host);
    return { commands: {}, exports: undefined };
  },
});
