import { defineFeature } from '../../platform/feature';
import { AppHost } from './appHost';

/** MCP Apps: a called tool's app drawn beside its result, and again from History. */
export const appsFeature = defineFeature({
  name: 'apps',
  activate({ services, own, extension }) {
    const host = new AppHost(extension);
    own(host);
    services.offer('apps', host);
    return { commands: {}, exports: undefined };
  },
});
