import { defineFeature } from '../../platform/feature';
import type { SamplingService } from './samplingService';

/**
 * A server's sampling requests, reviewed by the person and sent to the model they chose. The service (providers,
 * policies, the review, the records) is imported at a server's first sampling request or the first of these commands,
 * not with the extension (test/component/project/bundleLoad.test.ts).
 */
export const samplingFeature = defineFeature({
  name: 'sampling',
  activate({ platform, services, own, extension }) {
    let service: Promise<SamplingService> | undefined;
    const sampling = (): Promise<SamplingService> =>
      (service ??= import('./samplingService.js').then(({ SamplingService }) => {
        const loaded = new SamplingService(
          extension.secrets,
          extension.globalState,
          platform.reviewPanel,
          () => platform.manager,
        );
        own(loaded, loaded.records.onDidRecord(platform.historyRecorder.recordSampling));
        return loaded;
      }));
    // Sampling is declared as the coordinator declares it (with tools); the request waits for the service to load.
    platform.lend({
      sampling: {
        supportsTools: true,
        createMessage: async (request, context) => (await sampling()).sampling.createMessage(request, context),
      },
    });
    services.offer('chatModels', {
      providers: async () => (await sampling()).providers,
      keys: async () => (await sampling()).storedKeys(),
    });
    return {
      commands: {
        'mcpWorkbench.setModelApiKey': async () => (await sampling()).setApiKeyCommand(),
        'mcpWorkbench.setSamplingPolicy': async (argument) => (await sampling()).setPolicyCommand(argument),
        'mcpWorkbench.showSamplingHistory': async (argument) =>
          (await sampling()).showRecordsCommand(argument, platform.documents),
      },
      // The test build's hooks load it at once (testHooks.ts).
      exports: { sampling },
    };
  },
});
