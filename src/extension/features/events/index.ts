import { defineFeature } from '../../platform/feature';
import type { EventsContext } from './eventCommands';
import { EventsSection } from './eventsSection';

/**
 * Events (SEP-3415) a server offers: an Events group under the server with its event types, Subscribe… (arguments,
 * a delivery mode), the subscriptions as rows with Unsubscribe, and a live feed per subscription. The listing, the
 * commands and the feed panel load when first needed, not with the window.
 */
export const eventsFeature = defineFeature({
  name: 'events',
  activate({ platform, services, own, extension }) {
    const code = () => import('./eventCommands.js');
    const section = new EventsSection(async (owner, controller) => (await code()).loadEvents(owner, controller));
    own(section);
    services.offer('eventsSection', section);
    let context: Promise<EventsContext> | undefined;
    const eventsContext = (): Promise<EventsContext> =>
      (context ??= import('./feedPanel.js').then(({ FeedPanels }) => {
        const panels = new FeedPanels(extension.extensionUri);
        own(panels);
        return { section, panels, history: platform.historyRecorder };
      }));
    return {
      commands: {
        'mcpWorkbench.subscribeEvent': async (argument) =>
          (await code()).subscribeEvent(await eventsContext(), argument),
        'mcpWorkbench.unsubscribeEvent': async (argument) => (await code()).unsubscribeEvent(argument),
        'mcpWorkbench.openEventFeed': async (argument) => (await code()).openEventFeed(await eventsContext(), argument),
        'mcpWorkbench.refreshEvents': async (argument) => (await code()).refreshEvents(await eventsContext(), argument),
      },
      exports: { section, context: eventsContext },
    };
  },
});
