import { defineFeature } from '../../platform/feature';
import { readResourceWithFeedback } from './readResource';
import { readResource, readResourceTemplate, toggleSubscription, type ResourcesContext } from './resourceCommands';
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
    return {
      commands: {
        'mcpWorkbench.readResource': (argument) => readResource(context, argument),
        'mcpWorkbench.readResourceTemplate': (argument) => readResourceTemplate(context, argument),
        'mcpWorkbench.subscribeResource': (argument) => toggleSubscription(context, argument, true),
        'mcpWorkbench.unsubscribeResource': (argument) => toggleSubscription(context, argument, false),
      },
      exports: { documents },
    };
  },
});
