import { defineFeature } from '../../platform/feature';
import { readResourceWithFeedback } from './readResource';
import type { ResourcesContext } from './resourceCommands';
import { ResourceDocuments } from './resourceDocuments';

/** Read Resource (and from a template), resource documents kept current, subscriptions. */
export const resourcesFeature = defineFeature({
  name: 'resources',
  activate({ platform, services, own }) {
    const documents = new ResourceDocuments(platform.manager, platform.catalog, platform.historyRecorder);
    own(documents);
    services.offer('resources', {
      open: async (controller, uri) => {
        await readResourceWithFeedback(documents, controller, uri);
      },
    });
    const context: ResourcesContext = {
      manager: platform.manager,
      catalog: platform.catalog,
      documents,
      subscriptions: platform.subscriptions,
    };
    // The commands' code (with the URI template expansion) loads when one first runs, not with the extension.
    const commands = () => import('./resourceCommands.js');
    return {
      commands: {
        'mcpWorkbench.readResource': async (argument) => (await commands()).readResource(context, argument),
        'mcpWorkbench.readResourceTemplate': async (argument) =>
          (await commands()).readResourceTemplate(context, argument),
        'mcpWorkbench.subscribeResource': async (argument) =>
          (await commands()).toggleSubscription(context, argument, true),
        'mcpWorkbench.unsubscribeResource': async (argument) =>
          (await commands()).toggleSubscription(context, argument, false),
      },
      exports: { documents },
    };
  },
});
